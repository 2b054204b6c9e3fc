import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { homedir } from 'node:os'
import { basename, join } from 'node:path'

/**
 * Reads what Claude Code leaves under its config folder (docs/events.md#claude-code-sessions-and-teams):
 * live sessions, teams, their inboxes and task lists, and the transcripts' teammate metadata.
 * Nothing is guessed: a file that does not parse is reported by path in `unreadable`.
 */

/** Claude Code's config folder: `CLAUDE_CONFIG_DIR`, else `~/.claude`. */
export function claudeConfigDir(env: NodeJS.ProcessEnv = process.env): string {
  return env.CLAUDE_CONFIG_DIR || join(homedir(), '.claude')
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

/** One team, live (its `config.json` exists) or ended (only its task list or nothing but a name remains). */
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

/** The `cwd` of a transcript's first line that has one. */
function transcriptCwd(path: string): string | undefined {
  try {
    for (const line of readFileSync(path, 'utf8').split('\n')) {
      if (!line.includes('"cwd"')) continue
      const cwd = str((JSON.parse(line) as { cwd?: unknown }).cwd)
      if (cwd) return cwd
    }
  } catch {
    // a torn last line or an unreadable file: no cwd known
  }
  return undefined
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
    const data = readJson(path, unreadable) as Record<string, unknown> | undefined
    if (data === undefined) continue
    const sessionId = str(data.sessionId)
    const pid = typeof data.pid === 'number' ? data.pid : Number(basename(file, '.json'))
    if (!sessionId) {
      unreadable.push({ path, reason: 'no sessionId' })
      continue
    }
    seen.add(sessionId)
    const transcript = byTranscript.get(sessionId)
    sessions.push({
      sessionId,
      status: Number.isInteger(pid) && isAlive(pid) ? 'live' : 'ended',
      ...(Number.isInteger(pid) ? { pid } : {}),
      ...(str(data.cwd) ? { cwd: str(data.cwd) } : {}),
      ...(str(data.status) ? { state: str(data.status) } : {}),
      ...(str(data.version) ? { version: str(data.version) } : {}),
      ...(transcript ? { transcript } : {})
    })
  }
  const ended = [...byTranscript]
    .filter(([id]) => !seen.has(id))
    .sort((a, b) => statSync(b[1]).mtimeMs - statSync(a[1]).mtimeMs)
  for (const [sessionId, transcript] of ended) {
    const cwd = transcriptCwd(transcript)
    sessions.push({ sessionId, status: 'ended', ...(cwd ? { cwd } : {}), transcript })
  }
  sessions.sort((a, b) => (a.status === b.status ? 0 : a.status === 'live' ? -1 : 1))
  return { sessions, unreadable }
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
        const meta = readJson(join(dir, file), unreadable) as Record<string, unknown> | undefined
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
 * @returns undefined when neither `teams/<name>` nor `tasks/<name>` exists.
 */
export function readTeam(root: string, name: string): ClaudeTeam | undefined {
  const teamDir = join(root, 'teams', name)
  const taskDir = join(root, 'tasks', name)
  if (!existsSync(teamDir) && !existsSync(taskDir)) return undefined
  const unreadable: Unreadable[] = []
  const configPath = join(teamDir, 'config.json')
  const config = existsSync(configPath)
    ? (readJson(configPath, unreadable) as Record<string, unknown> | undefined)
    : undefined
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
    const data = readJson(join(taskDir, file), unreadable) as Record<string, unknown> | undefined
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
    for (const m of data as Array<Record<string, unknown>>) {
      const text = typeof m?.text === 'string' ? m.text : ''
      let protocol: string | undefined
      try {
        protocol = str((JSON.parse(text) as { type?: unknown }).type)
      } catch {
        // plain text: not a protocol message
      }
      messages.push({
        to,
        from: str(m?.from) ?? '',
        text,
        ...(str(m?.summary) ? { summary: str(m.summary) } : {}),
        ...(epoch(m?.timestamp) ? { timestamp: epoch(m.timestamp) } : {}),
        ...(typeof m?.read === 'boolean' ? { read: m.read } : {}),
        ...(protocol ? { protocol } : {})
      })
    }
  }
  messages.sort((a, b) => (a.timestamp ?? '').localeCompare(b.timestamp ?? ''))
  for (const who of transcriptMembers(root, name, unreadable)) see(who, 'transcript')

  return {
    name,
    status: existsSync(configPath) ? 'live' : 'ended',
    ...(epoch(config?.createdAt) ? { createdAt: epoch(config?.createdAt) } : {}),
    ...(str(config?.leadAgentId) ? { leadAgentId: str(config?.leadAgentId) } : {}),
    ...(str(config?.leadSessionId) ? { leadSessionId: str(config?.leadSessionId) } : {}),
    members: [...members.values()],
    tasks,
    messages,
    unreadable
  }
}
