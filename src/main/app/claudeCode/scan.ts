import { promises as fs } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import type { z } from 'zod'
import {
  ClaudeAgentMetaSchema,
  ClaudeInboxSchema,
  ClaudeSessionFileSchema,
  ClaudeTaskFileSchema,
  ClaudeTeamConfigSchema,
  parseText,
  type ClaudeInboxMessage,
  type ClaudeTaskFile,
  type ClaudeTeamConfig,
  type Parsed,
  type Unreadable
} from './formats'

// One look at a Claude Code config folder's teams (docs/claude-code-teams.md#the-files-it-reads): what is
// on disk now, each file parsed or reported. The recorder (recorder.ts) turns successive looks into
// a history that keeps what Claude Code removes.

/** A team's files as they are now. */
export interface TeamSnapshot {
  name: string
  /** `teams/<team>/config.json`, when it exists and parses. */
  config?: ClaudeTeamConfig
  /** Whether `config.json` exists (it may exist and not parse). */
  hasConfig: boolean
  /** Each inbox file that parses, by agent name (the file's name). */
  inboxes: Map<string, ClaudeInboxMessage[]>
  /** Each task file that parses, by id. */
  tasks: Map<string, ClaudeTaskFile>
  /** `tasks/<team>/.highwatermark`: the highest id ever used, when present. */
  highWatermark?: number
  /** Teammate transcripts of the lead session: name → `.jsonl` path; `subagents`: every other agent transcript there. */
  transcripts: Map<string, string>
  /** Every teammate transcript found, with its teammate's name (one respawned under its name has several). */
  teammateFiles: Array<{ name: string; path: string }>
  subagents: SubagentFile[]
  /** The lead session's own transcripts (`projects/<slug>/<session>.jsonl`), one per project slug it ran in. */
  leadTranscripts: string[]
  /** The folders those transcripts are in, to watch: a transcript's growth can name a subagent's parent. */
  transcriptDirs: string[]
  unreadable: Unreadable[]
}

/** A subagent's transcript under the lead session, with what its `.meta.json` says about it. */
export interface SubagentFile {
  /** Claude Code's id of the agent: the file name without `agent-` and `.jsonl`. */
  agentId: string
  path: string
  agentType?: string
  description?: string
  /** The id of the Agent call that started it: its parent's transcript holds that call. */
  toolUseId?: string
}

async function entries(dir: string): Promise<Array<{ name: string; dir: boolean }>> {
  try {
    return (await fs.readdir(dir, { withFileTypes: true })).map((e) => ({ name: e.name, dir: e.isDirectory() }))
  } catch {
    return []
  }
}

/** Reads and parses one file; a missing file is `missing`, any other failure names what failed. */
export async function readParsed<T>(path: string, schema: z.ZodType<T>): Promise<Parsed<T>> {
  let text: string
  try {
    text = await fs.readFile(path, 'utf8')
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    return { ok: false, missing: code === 'ENOENT', reason: `cannot read: ${code ?? (error as Error).message}` }
  }
  return parseText(schema, text)
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/**
 * The session id of each `sessions/<pid>.json`, with whether its `claude` runs (a dead pid's file
 * is a session that crashed or was killed).
 */
export async function liveSessions(root: string): Promise<Map<string, boolean>> {
  const out = new Map<string, boolean>()
  for (const e of await entries(join(root, 'sessions'))) {
    if (!e.name.endsWith('.json')) continue
    const parsed = await readParsed(join(root, 'sessions', e.name), ClaudeSessionFileSchema)
    if (!parsed.ok) continue // `swarmdesk claude sessions list` reports these
    const pid = parsed.value.pid ?? Number(basename(e.name, '.json'))
    out.set(parsed.value.sessionId, Number.isInteger(pid) && isAlive(pid))
  }
  return out
}

/** Names of every team on disk: a folder under `teams/` or `tasks/`. */
export async function teamFolders(root: string): Promise<string[]> {
  const names = new Set<string>()
  for (const sub of ['teams', 'tasks']) for (const e of await entries(join(root, sub))) if (e.dir) names.add(e.name)
  return [...names].sort()
}

/**
 * The folders `projects/<slug>/<session>/subagents` of one session, and its own transcripts
 * `projects/<slug>/<session>.jsonl`, for every project slug.
 */
async function sessionFiles(root: string, session: string): Promise<{ dirs: string[]; leads: string[] }> {
  const dirs: string[] = []
  const leads: string[] = []
  for (const slug of await entries(join(root, 'projects'))) {
    if (!slug.dir) continue
    const dir = join(root, 'projects', slug.name, session, 'subagents')
    if ((await entries(dir)).length > 0) dirs.push(dir)
    const lead = join(root, 'projects', slug.name, `${session}.jsonl`)
    if (
      await fs.stat(lead).then(
        (s) => s.isFile(),
        () => false
      )
    )
      leads.push(lead)
  }
  return { dirs, leads }
}

/**
 * Reads one team's files. `leadSession`: the lead session id known from an earlier look, used when
 * the config is gone (an ended team) to still find its transcripts.
 */
export async function scanTeam(root: string, name: string, leadSession?: string): Promise<TeamSnapshot> {
  const unreadable: Unreadable[] = []
  const report = <T>(path: string, parsed: Parsed<T>): T | undefined => {
    if (parsed.ok) return parsed.value
    if (!parsed.missing) unreadable.push({ path, reason: parsed.reason })
    return undefined
  }
  const teamDir = join(root, 'teams', name)
  const configPath = join(teamDir, 'config.json')
  const configRead = await readParsed(configPath, ClaudeTeamConfigSchema)
  const config = report(configPath, configRead)
  const snapshot: TeamSnapshot = {
    name,
    ...(config ? { config } : {}),
    hasConfig: configRead.ok || !configRead.missing,
    inboxes: new Map(),
    tasks: new Map(),
    transcripts: new Map(),
    teammateFiles: [],
    subagents: [],
    leadTranscripts: [],
    transcriptDirs: [],
    unreadable
  }
  const inboxDir = join(teamDir, 'inboxes')
  for (const e of await entries(inboxDir)) {
    if (e.dir || !e.name.endsWith('.json')) continue
    const path = join(inboxDir, e.name)
    // Claude Code creates an inbox with an exclusive write: for an instant it is empty, not torn
    const read = await readParsed(path, ClaudeInboxSchema)
    const empty = !read.ok && /^not JSON \(0 bytes\)/.test(read.reason)
    const messages = empty ? [] : report(path, read)
    if (messages) snapshot.inboxes.set(basename(e.name, '.json'), messages)
  }
  const taskDir = join(root, 'tasks', name)
  for (const e of await entries(taskDir)) {
    if (e.dir) continue
    const path = join(taskDir, e.name)
    if (e.name === '.highwatermark') {
      const n = Number((await fs.readFile(path, 'utf8').catch(() => '')).trim())
      if (Number.isInteger(n)) snapshot.highWatermark = n
      continue
    }
    if (!e.name.endsWith('.json') || e.name.startsWith('.')) continue
    const task = report(path, await readParsed(path, ClaudeTaskFileSchema))
    if (task) snapshot.tasks.set(task.id, task)
  }
  const session = config?.leadSessionId ?? leadSession
  if (session) {
    const { dirs, leads } = await sessionFiles(root, session)
    snapshot.leadTranscripts = leads
    snapshot.transcriptDirs = [...dirs, ...leads.map((p) => dirname(p))]
    for (const dir of dirs) {
      for (const e of await entries(dir)) {
        if (!e.name.endsWith('.jsonl')) continue
        const transcript = join(dir, e.name)
        const metaPath = join(dir, `${basename(e.name, '.jsonl')}.meta.json`)
        const meta = report(metaPath, await readParsed(metaPath, ClaudeAgentMetaSchema))
        const who = meta?.name ?? meta?.agentName
        const team = meta?.team ?? meta?.teamName
        if (who && team === name) {
          snapshot.transcripts.set(who, transcript)
          snapshot.teammateFiles.push({ name: who, path: transcript })
        } else
          snapshot.subagents.push({
            agentId: basename(e.name, '.jsonl').replace(/^agent-/, ''),
            path: transcript,
            ...(meta?.agentType ? { agentType: meta.agentType } : {}),
            ...(meta?.description ? { description: meta.description } : {}),
            ...(meta?.toolUseId ? { toolUseId: meta.toolUseId } : {})
          })
      }
    }
  }
  return snapshot
}
