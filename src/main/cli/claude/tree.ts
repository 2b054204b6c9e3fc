import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { homedir } from 'node:os'
import { basename, join, resolve } from 'node:path'

/**
 * Reads what Claude Code leaves under its config folder (docs/events.md#claude-code-sessions-and-teams):
 * live sessions, teams, their inboxes and task lists, and the transcripts' teammate metadata.
 * Nothing is guessed: a file that does not parse is reported by path in `unreadable`.
 */

/** Claude Code's config folder: `CLAUDE_CONFIG_DIR` (a relative one read from the working directory), else `~/.claude`. */
export function claudeConfigDir(env: NodeJS.ProcessEnv = process.env): string {
  return env.CLAUDE_CONFIG_DIR ? resolve(env.CLAUDE_CONFIG_DIR) : join(homedir(), '.claude')
}

/** A file that exists but does not parse as what it should be. */
export interface Unreadable {
  path: string
  reason: string
}

/** One session: live from `sessions/<pid>.json`, or ended, known by its transcript only. */
export interface ClaudeSession {
  sessionId: string
  status: 'live' | 'ended'
  pid?: number
  cwd?: string
  /** Claude Code's own status word for a live session (`busy`, `idle`…), as written. */
  state?: string
  version?: string
  /** The session's title from its transcript: the name given with `/rename`, else the generated one. */
  title?: string
  /** `projects/<cwd-slug>/<session>.jsonl`, when found. */
  transcript?: string
}

/** One member of a team: from `config.json` (`active`), or seen elsewhere only (`gone`). */
export interface ClaudeMember {
  name: string
  status: 'active' | 'gone'
  agentId?: string
  color?: string
  model?: string
  backendType?: string
  cwd?: string
  joinedAt?: string
  /** Where the name was seen besides the config: `transcript`, `task owner`, `inbox`. */
  seenIn: string[]
}

/** One task of `tasks/<team>/<id>.json`. */
export interface ClaudeTask {
  id: string
  subject: string
  status: string
  owner?: string
  blocks: string[]
  blockedBy: string[]
}

/** One message still in an inbox (Claude Code removes delivered ones). */
export interface ClaudeMessage {
  to: string
  from: string
  text: string
  summary?: string
  timestamp?: string
  read?: boolean
  /** The `type` of a protocol message (JSON inside `text`): `shutdown_request`, `idle_notification`… */
  protocol?: string
}

/**
 * One team, live (its `config.json` exists and its session runs) or ended (only its task list or
 * nothing but a name remains, or its session crashed, was killed or failed to start).
 */
export interface ClaudeTeam {
  name: string
  status: 'live' | 'ended'
  createdAt?: string
  leadAgentId?: string
  leadSessionId?: string
  members: ClaudeMember[]
  tasks: ClaudeTask[]
  messages: ClaudeMessage[]
  unreadable: Unreadable[]
}

function dirNames(dir: string): string[] {
  try {
    return readdirSync(dir, { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => e.name)
      .sort()
  } catch {
    return []
  }
}

function jsonFiles(dir: string): string[] {
  try {
    return readdirSync(dir, { withFileTypes: true })
      .filter((e) => e.isFile() && e.name.endsWith('.json'))
      .map((e) => e.name)
      .sort()
  } catch {
    return []
  }
}

/** The file's JSON, or the reason it is unreadable pushed to `unreadable` (undefined returned). */
function readJson(path: string, unreadable: Unreadable[]): unknown {
  let text: string
  try {
    text = readFileSync(path, 'utf8')
  } catch (error) {
    unreadable.push({
      path,
      reason: `cannot read: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`
    })
    return undefined
  }
  try {
    return JSON.parse(text)
  } catch (error) {
    unreadable.push({ path, reason: `not JSON (${text.length} bytes; a file mid-write?): ${(error as Error).message}` })
    return undefined
  }
}

/** The file's JSON when it is an object (not an array or `null`); else undefined, the reason pushed to `unreadable`. */
function readObject(path: string, unreadable: Unreadable[]): Record<string, unknown> | undefined {
  const data = readJson(path, unreadable)
  if (data === undefined) return undefined
  if (typeof data === 'object' && data !== null && !Array.isArray(data)) return data as Record<string, unknown>
  unreadable.push({
    path,
    reason: `not a JSON object (found ${data === null ? 'null' : Array.isArray(data) ? 'an array' : typeof data})`
  })
  return undefined
}

const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined)
const epoch = (v: unknown): string | undefined =>
  typeof v === 'number' && Number.isFinite(v) ? new Date(v).toISOString() : str(v)
const strings = (v: unknown): string[] => (Array.isArray(v) ? v.map(String) : [])

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/** Every transcript `projects/<slug>/<session>.jsonl`, by session id. */
function transcripts(root: string): Map<string, string> {
  const out = new Map<string, string>()
  for (const slug of dirNames(join(root, 'projects'))) {
    let names: string[]
    try {
      names = readdirSync(join(root, 'projects', slug))
    } catch {
      continue
    }
    for (const name of names)
      if (name.endsWith('.jsonl')) out.set(name.slice(0, -'.jsonl'.length), join(root, 'projects', slug, name))
  }
  return out
}

/**
 * What a transcript says of its session: the `cwd` of its first line that has one, and its title —
 * the newest `custom-title` line's (a name the person gave, `/rename`), else the newest `ai-title`
 * line's (the session-title call's answer).
 */
function transcriptFacts(path: string): { cwd?: string; title?: string } {
  let cwd: string | undefined
  let custom: string | undefined
  let ai: string | undefined
  let text: string
  try {
    text = readFileSync(path, 'utf8')
  } catch {
    return {} // removed since listed: nothing known
  }
  for (const line of text.split('\n')) {
    if (!line.includes('"cwd"') && !line.includes('-title"')) continue
    let entry: Record<string, unknown>
    try {
      entry = JSON.parse(line) as Record<string, unknown>
    } catch {
      continue // a torn last line
    }
    cwd ??= str(entry?.cwd)
    if (entry?.type === 'custom-title') custom = str(entry.customTitle) ?? custom
    if (entry?.type === 'ai-title') ai = str(entry.aiTitle) ?? ai
  }
  const title = custom ?? ai
  return { ...(cwd ? { cwd } : {}), ...(title ? { title } : {}) }
}

/**
 * The sessions of a config folder, live ones first (each `sessions/<pid>.json` whose process is
 * alive), then the ended ones known by their transcript, newest transcript first.
 */
export function readSessions(root: string): { sessions: ClaudeSession[]; unreadable: Unreadable[] } {
  const unreadable: Unreadable[] = []
  const byTranscript = transcripts(root)
  const sessions: ClaudeSession[] = []
  const seen = new Set<string>()
  for (const file of jsonFiles(join(root, 'sessions'))) {
    const path = join(root, 'sessions', file)
    const data = readObject(path, unreadable)
    if (data === undefined) continue
    const sessionId = str(data.sessionId)
    const pid = typeof data.pid === 'number' ? data.pid : Number(basename(file, '.json'))
    if (!sessionId) {
      unreadable.push({ path, reason: 'no sessionId' })
      continue
    }
    seen.add(sessionId)
    const transcript = byTranscript.get(sessionId)
    const title = transcript ? transcriptFacts(transcript).title : undefined
    sessions.push({
      sessionId,
      status: Number.isInteger(pid) && isAlive(pid) ? 'live' : 'ended',
      ...(Number.isInteger(pid) ? { pid } : {}),
      ...(str(data.cwd) ? { cwd: str(data.cwd) } : {}),
      ...(str(data.status) ? { state: str(data.status) } : {}),
      ...(str(data.version) ? { version: str(data.version) } : {}),
      ...(title ? { title } : {}),
      ...(transcript ? { transcript } : {})
    })
  }
  const ended = [...byTranscript]
    .filter(([id]) => !seen.has(id))
    .sort((a, b) => statSync(b[1]).mtimeMs - statSync(a[1]).mtimeMs)
  for (const [sessionId, transcript] of ended) {
    sessions.push({ sessionId, status: 'ended', ...transcriptFacts(transcript), transcript })
  }
  sessions.sort((a, b) => (a.status === b.status ? 0 : a.status === 'live' ? -1 : 1))
  return { sessions, unreadable }
}

/** Each session id of a `sessions/<pid>.json` with whether its process runs (a dead one crashed or was killed). */
function pidFileSessions(root: string): Map<string, boolean> {
  const out = new Map<string, boolean>()
  for (const file of jsonFiles(join(root, 'sessions'))) {
    const data = readObject(join(root, 'sessions', file), []) // sessions list reports unreadable ones
    const pid = typeof data?.pid === 'number' ? data.pid : Number(basename(file, '.json'))
    const id = str(data?.sessionId)
    if (id) out.set(id, Number.isInteger(pid) && isAlive(pid))
  }
  return out
}

/**
 * Whether a team whose config exists is live. Every running `claude` keeps a `sessions/<pid>.json`
 * (removed on exit), but a session that crashed, was killed or failed to start leaves its team's
 * config behind: live when a running pid file names the lead session; when none names it (the
 * session may have moved on to a new id, `/clear`), live while any `claude` of this folder runs.
 */
function teamIsLive(root: string, leadSessionId: string | undefined): boolean {
  const sessions = pidFileSessions(root)
  const lead = leadSessionId === undefined ? undefined : sessions.get(leadSessionId)
  return lead ?? [...sessions.values()].some(Boolean)
}

/** Names of every team: a folder under `teams/` or under `tasks/`. */
export function teamNames(root: string): string[] {
  return [...new Set([...dirNames(join(root, 'teams')), ...dirNames(join(root, 'tasks'))])].sort()
}

/** Teammate names in the transcripts' `subagents/*.meta.json` that name this team. */
function transcriptMembers(root: string, team: string, unreadable: Unreadable[]): string[] {
  const names: string[] = []
  for (const slug of dirNames(join(root, 'projects'))) {
    for (const session of dirNames(join(root, 'projects', slug))) {
      const dir = join(root, 'projects', slug, session, 'subagents')
      for (const file of jsonFiles(dir).filter((f) => f.endsWith('.meta.json'))) {
        const meta = readObject(join(dir, file), unreadable)
        const name = str(meta?.name) ?? str(meta?.agentName)
        const metaTeam = str(meta?.team) ?? str(meta?.teamName)
        if (name && metaTeam === team) names.push(name)
      }
    }
  }
  return names
}

/**
 * One team as found on disk.
 * @returns undefined when neither `teams/<name>` nor `tasks/<name>` exists, or `name` is not a
 * folder name (`..`, a path): a team is only ever one folder under them.
 */
export function readTeam(root: string, name: string): ClaudeTeam | undefined {
  if (name === '' || name === '.' || name === '..' || /[/\\]/.test(name)) return undefined
  const teamDir = join(root, 'teams', name)
  const taskDir = join(root, 'tasks', name)
  if (!existsSync(teamDir) && !existsSync(taskDir)) return undefined
  const unreadable: Unreadable[] = []
  const configPath = join(teamDir, 'config.json')
  const config = existsSync(configPath) ? readObject(configPath, unreadable) : undefined
  const members = new Map<string, ClaudeMember>()
  for (const m of Array.isArray(config?.members) ? (config.members as Array<Record<string, unknown>>) : []) {
    const memberName = str(m?.name)
    if (!memberName) continue
    members.set(memberName, {
      name: memberName,
      status: 'active',
      seenIn: [],
      ...(str(m.agentId) ? { agentId: str(m.agentId) } : {}),
      ...(str(m.color) ? { color: str(m.color) } : {}),
      ...(str(m.model) ? { model: str(m.model) } : {}),
      ...(str(m.backendType) ? { backendType: str(m.backendType) } : {}),
      ...(str(m.cwd) ? { cwd: str(m.cwd) } : {}),
      ...(epoch(m.joinedAt) ? { joinedAt: epoch(m.joinedAt) } : {})
    })
  }
  const see = (who: string, where: string) => {
    const member = members.get(who) ?? { name: who, status: 'gone' as const, seenIn: [] }
    if (!member.seenIn.includes(where)) member.seenIn.push(where)
    members.set(who, member)
  }

  const tasks: ClaudeTask[] = []
  for (const file of jsonFiles(taskDir)) {
    const data = readObject(join(taskDir, file), unreadable)
    if (data === undefined) continue
    const task: ClaudeTask = {
      id: String(data.id ?? basename(file, '.json')),
      subject: str(data.subject) ?? '',
      status: str(data.status) ?? 'unknown',
      blocks: strings(data.blocks),
      blockedBy: strings(data.blockedBy),
      ...(str(data.owner) ? { owner: str(data.owner) } : {})
    }
    tasks.push(task)
    if (task.owner) see(task.owner, 'task owner')
  }
  tasks.sort((a, b) => Number(a.id) - Number(b.id) || a.id.localeCompare(b.id))

  const messages: ClaudeMessage[] = []
  const inboxDir = join(teamDir, 'inboxes')
  for (const file of jsonFiles(inboxDir)) {
    const to = basename(file, '.json')
    see(to, 'inbox')
    const data = readJson(join(inboxDir, file), unreadable)
    if (data === undefined) continue
    if (!Array.isArray(data)) {
      unreadable.push({ path: join(inboxDir, file), reason: 'not a JSON array of messages' })
      continue
    }
    for (const [index, entry] of (data as unknown[]).entries()) {
      const m = entry as Record<string, unknown> | null
      if (typeof m !== 'object' || m === null || typeof m.from !== 'string' || typeof m.text !== 'string') {
        unreadable.push({
          path: join(inboxDir, file),
          reason: `message ${index + 1} is not a message (an object with string from and text): ${JSON.stringify(entry)?.slice(0, 80)}`
        })
        continue
      }
      const text = m.text
      let protocol: string | undefined
      try {
        protocol = str((JSON.parse(text) as { type?: unknown }).type)
      } catch {
        // plain text: not a protocol message
      }
      messages.push({
        to,
        from: m.from,
        text,
        ...(str(m.summary) ? { summary: str(m.summary) } : {}),
        ...(epoch(m.timestamp) ? { timestamp: epoch(m.timestamp) } : {}),
        ...(typeof m.read === 'boolean' ? { read: m.read } : {}),
        ...(protocol ? { protocol } : {})
      })
    }
  }
  messages.sort((a, b) => (a.timestamp ?? '').localeCompare(b.timestamp ?? ''))
  for (const who of transcriptMembers(root, name, unreadable)) see(who, 'transcript')

  return {
    name,
    status: existsSync(configPath) && teamIsLive(root, str(config?.leadSessionId)) ? 'live' : 'ended',
    ...(epoch(config?.createdAt) ? { createdAt: epoch(config?.createdAt) } : {}),
    ...(str(config?.leadAgentId) ? { leadAgentId: str(config?.leadAgentId) } : {}),
    ...(str(config?.leadSessionId) ? { leadSessionId: str(config?.leadSessionId) } : {}),
    members: [...members.values()],
    tasks,
    messages,
    unreadable
  }
}
