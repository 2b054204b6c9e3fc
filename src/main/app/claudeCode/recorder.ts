import { createHash } from 'node:crypto'
import { join } from 'node:path'
import type {
  ClaudeSubagent,
  ClaudeTeamMember,
  ClaudeTeamMessage,
  ClaudeTeamTask,
  ClaudeTeams,
  ClaudeTeamView
} from '../../../shared/ipc'
import { DisposableStore, Emitter, type Disposable } from '../../runtime/base'
import { serialize, watchDir } from '../mailboxWatch'
import type { ClaudeInboxMessage } from './formats'
import { readMessageText } from './protocol'
import { liveSessions, scanTeam, teamFolders, type TeamSnapshot } from './scan'
import { SubagentParents, type SubagentParent } from './subagents'

/** Options of {@link ClaudeTeamsRecorder}. */
export interface ClaudeTeamsRecorderOptions {
  /** Claude Code's config folder (`CLAUDE_CONFIG_DIR`, else `~/.claude`). */
  root: string
  /** Fallback poll period of the folder watches, ms (default 1,000). */
  pollMs?: number
}

/** What the recorder keeps of one team across looks. */
interface TeamRecord {
  name: string
  live: boolean
  createdAt?: string | undefined
  leadAgentId?: string | undefined
  leadSessionId?: string | undefined
  members: Map<string, ClaudeTeamMember>
  tasks: Map<string, ClaudeTeamTask>
  messages: ClaudeTeamMessage[]
  /** Keys of recorded messages: `msg_id`s and content hashes, so one message written twice is one card. */
  seen: Map<string, ClaudeTeamMessage>
  /** By agent id, in the order first seen. */
  subagents: Map<string, ClaudeSubagent>
  parents: SubagentParents
  unreadable: ClaudeTeamView['unreadable']
}

const iso = (ms: number | undefined): string | undefined =>
  ms !== undefined && Number.isFinite(ms) ? new Date(ms).toISOString() : undefined

/** Claude Code's own identity of a message (sender, time, text), hashed, with the inbox it lies in. */
function contentKey(to: string, m: ClaudeInboxMessage): string {
  return createHash('sha256')
    .update(`${to}\u0000${m.from}\u0000${m.timestamp}\u0000${m.text}`)
    .digest('hex')
    .slice(0, 24)
}

/**
 * Watches Claude Code's config folder and keeps every team it has seen as the workspace shows
 * teams (docs/claude-code-teams.md): members from `config.json` (those
 * removed on shutdown stay, `gone`), every inbox message recorded the moment it appears (Claude
 * Code removes delivered ones; one message written twice is kept once, by `msg_id` or by sender,
 * time and text), every task as last seen (kept, `wiped`, after Claude Code clears the list), the
 * teammates' transcripts, and each file that does not parse, by path and reason. A team whose
 * folder or session is gone stays, `ended`. It only reads; writes go through writer.ts.
 *
 * Watching is fs.watch on the folders (atomic renames are seen there, not on the files) with a poll
 * as the fallback; looks never overlap, and changes during one cause exactly one more.
 */
export class ClaudeTeamsRecorder implements Disposable {
  readonly root: string
  private readonly pollMs: number
  private readonly teams = new Map<string, TeamRecord>()
  private readonly changed = new Emitter<string[]>()
  /** Fires with the names of the teams that changed, after the recorder reflects the change. */
  readonly onDidChange = this.changed.event
  private readonly watches = new DisposableStore()
  private readonly watched = new Set<string>()
  private rev = 0
  private started = false
  private readonly look = serialize(() => this.scan())

  constructor(options: ClaudeTeamsRecorderOptions) {
    this.root = options.root
    this.pollMs = options.pollMs ?? 1_000
  }

  /** Starts watching (idempotent) and resolves after the first complete look. */
  async start(): Promise<void> {
    if (!this.started) {
      this.started = true
      this.watch(this.root)
      this.watch(join(this.root, 'teams'))
      this.watch(join(this.root, 'tasks'))
      this.watch(join(this.root, 'sessions'))
    }
    await this.refresh()
  }

  /** Looks at the folder now and resolves when the look (and any one it had to run after) is done. */
  async refresh(): Promise<void> {
    await this.look()
  }

  /** Every team seen, live ones first, then by name. */
  list(): ClaudeTeams {
    const teams = [...this.teams.values()]
      .sort((a, b) => Number(b.live) - Number(a.live) || a.name.localeCompare(b.name))
      .map((t) => this.view(t))
    return { configDir: this.root, teams }
  }

  /** One team as seen, or undefined when never seen. */
  team(name: string): ClaudeTeamView | undefined {
    const record = this.teams.get(name)
    return record ? this.view(record) : undefined
  }

  dispose(): void {
    this.watches.dispose()
    this.changed.dispose()
  }

  private watch(dir: string): void {
    if (this.watched.has(dir) || this.watches.isDisposed) return
    this.watched.add(dir)
    this.watches.add(watchDir(dir, () => void this.look(), this.pollMs))
  }

  private view(t: TeamRecord): ClaudeTeamView {
    const done = new Set([...t.tasks.values()].filter((k) => k.status === 'completed').map((k) => k.id))
    return {
      name: t.name,
      status: t.live ? 'live' : 'ended',
      ...(t.createdAt ? { createdAt: t.createdAt } : {}),
      ...(t.leadAgentId ? { leadAgentId: t.leadAgentId } : {}),
      ...(t.leadSessionId ? { leadSessionId: t.leadSessionId } : {}),
      members: [...t.members.values()],
      tasks: [...t.tasks.values()]
        .map((k) => ({ ...k, waitingFor: k.blockedBy.filter((id) => !done.has(id)) }))
        .sort((a, b) => Number(a.id) - Number(b.id) || a.id.localeCompare(b.id)),
      messages: [...t.messages],
      subagents: [...t.subagents.values()].map((a) => ({ ...a })),
      unreadable: [...t.unreadable]
    }
  }

  private async scan(): Promise<void> {
    if (this.watches.isDisposed) return
    const sessions = await liveSessions(this.root)
    const names = new Set([...(await teamFolders(this.root)), ...this.teams.keys()])
    const changed: string[] = []
    for (const name of names) {
      const known = this.teams.get(name)
      this.watch(join(this.root, 'teams', name))
      this.watch(join(this.root, 'teams', name, 'inboxes'))
      this.watch(join(this.root, 'tasks', name))
      const snapshot = await scanTeam(this.root, name, known?.leadSessionId)
      for (const dir of snapshot.transcriptDirs) this.watch(dir)
      const found = await (known?.parents ?? this.pendingParents(name)).resolve(snapshot)
      if (this.watches.isDisposed) return
      // live while the lead session's `claude` runs; when no pid file names it (a `/clear` moved the
      // session to a new id), while any `claude` of this folder runs
      const lead = snapshot.config?.leadSessionId ?? known?.leadSessionId
      const leadRuns = lead === undefined ? undefined : sessions.get(lead)
      const isLive = snapshot.hasConfig && (leadRuns ?? [...sessions.values()].some(Boolean))
      if (this.apply(name, snapshot, isLive, found)) changed.push(name)
    }
    if (changed.length > 0) this.changed.fire(changed)
  }

  /** The parent finder of a team not recorded yet, kept until its first {@link apply}. */
  private readonly firstParents = new Map<string, SubagentParents>()
  private pendingParents(name: string): SubagentParents {
    const made = this.firstParents.get(name) ?? new SubagentParents()
    this.firstParents.set(name, made)
    return made
  }

  /** Folds one look at a team into its record; true when anything the views show changed. */
  private apply(name: string, s: TeamSnapshot, live: boolean, parents: Map<string, SubagentParent>): boolean {
    const t: TeamRecord = this.teams.get(name) ?? {
      name,
      live,
      members: new Map(),
      tasks: new Map(),
      messages: [],
      seen: new Map(),
      subagents: new Map(),
      parents: this.pendingParents(name),
      unreadable: []
    }
    this.firstParents.delete(name)
    const before = JSON.stringify(this.view(t))
    this.teams.set(name, t)
    t.live = live
    if (s.config) {
      t.createdAt = iso(s.config.createdAt) ?? t.createdAt
      t.leadAgentId = s.config.leadAgentId ?? t.leadAgentId
      t.leadSessionId = s.config.leadSessionId ?? t.leadSessionId
      const listed = new Set<string>()
      for (const m of s.config.members) {
        listed.add(m.name)
        const transcript = t.members.get(m.name)?.transcript
        t.members.set(m.name, {
          name: m.name,
          status: 'active',
          agentId: m.agentId,
          ...(m.color ? { color: m.color } : {}),
          ...(m.model ? { model: m.model } : {}),
          ...(m.backendType ? { backendType: m.backendType } : {}),
          ...(m.cwd ? { cwd: m.cwd } : {}),
          ...(iso(m.joinedAt) ? { joinedAt: iso(m.joinedAt) } : {}),
          ...(m.planModeRequired !== undefined ? { planModeRequired: m.planModeRequired } : {}),
          ...(m.mode ? { mode: m.mode } : {}),
          ...(transcript ? { transcript } : {})
        })
      }
      for (const m of t.members.values()) if (!listed.has(m.name)) m.status = 'gone'
    } else if (!s.hasConfig) {
      // the session ended and took its team folder: everyone seen is gone
      for (const m of t.members.values()) m.status = 'gone'
    }
    const see = (who: string) => {
      if (!t.members.has(who)) t.members.set(who, { name: who, status: 'gone' })
    }
    for (const [who, path] of s.transcripts) {
      see(who)
      t.members.get(who)!.transcript = path
    }
    for (const a of s.subagents) {
      const parent = parents.get(a.agentId)
      t.subagents.set(a.agentId, {
        ...t.subagents.get(a.agentId),
        agentId: a.agentId,
        transcript: a.path,
        ...(a.agentType ? { agentType: a.agentType } : {}),
        ...(a.description ? { description: a.description } : {}),
        ...(parent && 'member' in parent ? { parent: parent.member } : {}),
        ...(parent && 'agentId' in parent ? { parentAgentId: parent.agentId } : {})
      })
    }
    // tasks: what is on disk now replaces what was seen; what Claude Code removed stays, wiped
    for (const task of t.tasks.values()) if (!s.tasks.has(task.id)) task.wiped = true
    for (const [id, f] of s.tasks) {
      t.tasks.set(id, {
        id,
        subject: f.subject,
        description: f.description,
        ...(f.activeForm ? { activeForm: f.activeForm } : {}),
        ...(f.owner ? { owner: f.owner } : {}),
        status: f.status,
        blocks: f.blocks,
        blockedBy: f.blockedBy,
        waitingFor: [],
        wiped: false
      })
      if (f.owner) see(f.owner)
    }
    this.record(t, s)
    t.unreadable = s.unreadable
    return JSON.stringify(this.view(t)) !== before
  }

  /** Records each message not seen before, updates read state, and marks as delivered those no longer in their inbox. */
  private record(t: TeamRecord, s: TeamSnapshot): void {
    const present = new Set<ClaudeTeamMessage>()
    for (const [to, messages] of s.inboxes) {
      if (!t.members.has(to)) t.members.set(to, { name: to, status: 'gone' })
      for (const m of messages) {
        const hash = contentKey(to, m)
        const known = (m.msg_id ? t.seen.get(`id:${m.msg_id}`) : undefined) ?? t.seen.get(`hash:${hash}`)
        if (known) {
          present.add(known)
          present.add(m.read === true && !known.read ? this.replace(t, known, { read: true }) : known)
          continue
        }
        const readable = readMessageText(m.text)
        const entry: ClaudeTeamMessage = {
          key: m.msg_id ?? hash,
          to,
          from: m.from,
          timestamp: m.timestamp,
          ...(m.color ? { color: m.color } : {}),
          kind: readable.kind,
          summary: m.summary?.trim() || readable.summary,
          text: m.text,
          read: m.read === true,
          delivered: false,
          ...(readable.invalid ? { invalid: readable.invalid } : {}),
          rev: ++this.rev
        }
        if (m.msg_id) t.seen.set(`id:${m.msg_id}`, entry)
        t.seen.set(`hash:${hash}`, entry)
        t.messages.push(entry)
        present.add(entry)
      }
    }
    t.messages.sort((a, b) => a.timestamp.localeCompare(b.timestamp) || a.to.localeCompare(b.to))
    // an inbox that does not parse this time says nothing about its messages: leave them as they are;
    // nor does one that is gone: delivery rewrites the inbox without the message, while a missing
    // file is a team folder the ended session took with it (its unread messages were never
    // delivered), caught part-way through its removal or whole
    const unparsed = new Set(s.unreadable.map((u) => u.path))
    for (const m of [...t.messages]) {
      if (present.has(m) || m.delivered) continue
      if (!s.inboxes.has(m.to)) continue
      if (unparsed.has(join(this.root, 'teams', t.name, 'inboxes', `${m.to}.json`))) continue
      this.replace(t, m, { delivered: true })
    }
  }

  private replace(t: TeamRecord, m: ClaudeTeamMessage, patch: Partial<ClaudeTeamMessage>): ClaudeTeamMessage {
    const next = { ...m, ...patch, rev: ++this.rev }
    const i = t.messages.indexOf(m)
    if (i >= 0) t.messages[i] = next
    for (const [k, v] of t.seen) if (v === m) t.seen.set(k, next)
    return next
  }
}
