import { randomUUID } from 'node:crypto'
import { mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

// Files in the exact shapes Claude Code 2.1.197 writes under its config folder (as read from its own
// code: its team config, its inbox writer's message fields, its task files, its teammate metadata),
// for tests that cannot run the real `claude` for a case (a pruned inbox, a wiped list, a broken file).

/** A scratch config folder; `cleanup` removes it. */
export function scratchConfig(): { root: string; cleanup: () => void } {
  const root = mkdtempSync(join(tmpdir(), 'cc-config-'))
  return { root, cleanup: () => rmSync(root, { recursive: true, force: true }) }
}

/** Writes `data` as Claude Code does: a temp file renamed over the target (pretty-printed JSON). */
export function writeAtomic(path: string, data: unknown): void {
  const tmp = `${path}.tmp.${randomUUID().slice(0, 8)}`
  writeFileSync(tmp, typeof data === 'string' ? data : JSON.stringify(data, null, 2))
  renameSync(tmp, path)
}

/** `sessions/<pid>.json` of a running session (this test process stands for it). */
export function writeSession(root: string, sessionId: string, pid = process.pid): void {
  mkdirSync(join(root, 'sessions'), { recursive: true })
  writeAtomic(join(root, 'sessions', `${pid}.json`), {
    pid,
    sessionId,
    cwd: root,
    startedAt: Date.now(),
    status: 'busy',
    version: '2.1.197'
  })
}

/** A config member as an in-process teammate's spawn writes it. */
export function member(name: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    agentId: `${name}@team`,
    name,
    agentType: 'general-purpose',
    model: 'claude-opus-4-7',
    color: 'blue',
    planModeRequired: false,
    joinedAt: 1_764_700_000_000,
    tmuxPaneId: 'in-process',
    cwd: '/work',
    subscriptions: [],
    backendType: 'in-process',
    ...extra
  }
}

/** `teams/<team>/config.json`; the lead is `team-lead@<team>`. */
export function writeConfig(
  root: string,
  team: string,
  sessionId: string,
  members: Array<Record<string, unknown>>
): void {
  mkdirSync(join(root, 'teams', team, 'inboxes'), { recursive: true })
  writeAtomic(join(root, 'teams', team, 'config.json'), {
    name: team,
    description: 'Session team',
    createdAt: 1_764_700_000_000,
    leadAgentId: `team-lead@${team}`,
    leadSessionId: sessionId,
    members: [
      {
        agentId: `team-lead@${team}`,
        name: 'team-lead',
        agentType: 'team-lead',
        joinedAt: 1_764_700_000_000,
        cwd: '/work',
        subscriptions: []
      },
      ...members
    ]
  })
}

/** One inbox message as Claude Code's inbox writer stores it. */
export function inboxMessage(from: string, text: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    from,
    text,
    timestamp: new Date().toISOString(),
    msgV: 1,
    msg_id: randomUUID(),
    type: 'message',
    read: false,
    ...extra
  }
}

/** Replaces `<agent>.json` of `team` with `messages`. */
export function writeInbox(root: string, team: string, agent: string, messages: Array<Record<string, unknown>>): void {
  mkdirSync(join(root, 'teams', team, 'inboxes'), { recursive: true })
  writeAtomic(join(root, 'teams', team, 'inboxes', `${agent}.json`), messages)
}

/** `tasks/<team>/<id>.json` as TaskCreate writes it. */
export function writeTask(root: string, team: string, task: Record<string, unknown> & { id: string }): void {
  mkdirSync(join(root, 'tasks', team), { recursive: true })
  writeAtomic(join(root, 'tasks', team, `${task.id}.json`), {
    subject: `Task ${task.id}`,
    description: `Do task ${task.id}`,
    status: 'pending',
    blocks: [],
    blockedBy: [],
    ...task
  })
}

/** A teammate's transcript and `.meta.json` under the lead session; returns the transcript's path. */
export function writeTeammateTranscript(
  root: string,
  sessionId: string,
  team: string,
  name: string,
  lines: Array<Record<string, unknown>>
): string {
  const dir = join(root, 'projects', '-work', sessionId, 'subagents')
  mkdirSync(dir, { recursive: true })
  const base = `agent-a${name}-${randomUUID().replace(/-/g, '').slice(0, 16)}`
  writeFileSync(join(dir, `${base}.jsonl`), lines.map((l) => JSON.stringify(l)).join('\n') + '\n')
  writeFileSync(
    join(dir, `${base}.meta.json`),
    JSON.stringify({
      agentType: name,
      name,
      spawnDepth: 0,
      taskKind: 'in_process_teammate',
      teamName: team,
      color: 'blue'
    })
  )
  return join(dir, `${base}.jsonl`)
}

/** An assistant transcript line making an Agent call with tool use id `toolUseId`, as Claude Code writes one. */
export function agentCallLine(toolUseId: string, description: string): Record<string, unknown> {
  return {
    type: 'assistant',
    isSidechain: true,
    message: {
      role: 'assistant',
      content: [
        {
          type: 'tool_use',
          id: toolUseId,
          name: 'Agent',
          input: { description, prompt: `${description}.`, subagent_type: 'general-purpose' }
        }
      ]
    }
  }
}

/** A subagent's transcript and `.meta.json` (started by the Agent call `toolUseId`) under the lead session; returns the transcript's path. */
export function writeSubagentTranscript(
  root: string,
  sessionId: string,
  agentId: string,
  toolUseId: string,
  description: string,
  lines: Array<Record<string, unknown>> = []
): string {
  const dir = join(root, 'projects', '-work', sessionId, 'subagents')
  mkdirSync(dir, { recursive: true })
  writeFileSync(join(dir, `agent-${agentId}.jsonl`), lines.map((l) => `${JSON.stringify(l)}\n`).join(''))
  writeFileSync(
    join(dir, `agent-${agentId}.meta.json`),
    JSON.stringify({ agentType: 'general-purpose', description, toolUseId, spawnDepth: 1 })
  )
  return join(dir, `agent-${agentId}.jsonl`)
}

/** The lead session's own transcript, `projects/-work/<session>.jsonl`; returns its path. */
export function writeLeadTranscript(root: string, sessionId: string, lines: Array<Record<string, unknown>>): string {
  mkdirSync(join(root, 'projects', '-work'), { recursive: true })
  const path = join(root, 'projects', '-work', `${sessionId}.jsonl`)
  writeFileSync(path, lines.map((l) => `${JSON.stringify(l)}\n`).join(''))
  return path
}
