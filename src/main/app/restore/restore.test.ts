import { findPidsWithEnv, isProcessAlive, snapshotProcesses } from '../../runtime/processes'
import { execFileSync, spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import type { WorkspaceSnapshot } from '../../../shared/ipc'

import { parseServeFlags } from '../../cli/commands/serve'
import { BRIDGE_PATH } from '../../host/webHost'
import { WorkspaceService } from '../service'
import { readLastSession, readSavedPanes, readWorkspaceState, restorePaths, RUN_TAG_VARIABLE } from './stateFile'
import { workspaceSlug } from '../../runtime/storage/paths'

const SWARMDESK_BIN = resolve(__dirname, '../../../../bin/swarmdesk')

let home: string
let work: string
let service: WorkspaceService | undefined

beforeEach(() => {
  home = realpathSync(mkdtempSync(join(tmpdir(), 'swarmdesk-restore-home-')))
  work = realpathSync(mkdtempSync(join(tmpdir(), 'swarmdesk-restore-work-')))
  execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: work })
})
afterEach(async () => {
  await service?.dispose()
  service = undefined
  rmSync(home, { recursive: true, force: true })
  rmSync(work, { recursive: true, force: true })
})

async function until<T>(what: string, probe: () => T | undefined | false, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const v = probe()
    if (v !== undefined && v !== false) return v
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 25))
  }
}

function scenario(yaml: string): string {
  const file = join(home, 's.yaml')
  writeFileSync(file, yaml)
  return file
}

async function open(
  file: string,
  extra: Partial<Parameters<typeof WorkspaceService.start>[0]> = {}
): Promise<WorkspaceService> {
  service = await WorkspaceService.start({
    cwd: work,
    home,
    scenario: file,
    env: {},
    mode: 'bypassPermissions',
    ...extra
  })
  return service
}

const snapshot = async (s: WorkspaceService) => (await s.handle('workspace.snapshot', {})) as WorkspaceSnapshot
const leaderOf = (snap: WorkspaceSnapshot) => snap.agents.find((a) => a.agentId === 'team-lead')!
/** The pane's text without ANSI sequences. */
const paneText = async (s: WorkspaceService, agentId: string) =>
  ((await s.handle('pane.scrollback', { agentId })) as { data: string }).data.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '')

const BOARD = `agents:
  team-lead:
    - when: "make a team"
      tools: [{ name: TeamCreate, input: { team_name: "ops", description: "restore test" } }]
    - when: "Team 'ops' created"
      tools: [{ name: TaskCreate, input: { subject: "Ship the report", description: "write it" } }]
    - when: "Task #1 created"
      text: "Board ready for the restart."
`

describe('Restore after restart', () => {
  it('reopens the last session after a clean close: the pane with its scrollback, the team and its task list; an idle leader stays idle', async () => {
    const file = scenario(BOARD)
    const first = await open(file)
    const sessionId = (await snapshot(first)).sessionId
    await first.handle('leader.prompt', { text: 'make a team and a task' })
    await first.whenIdle()
    await first.dispose()
    service = undefined
    expect(readLastSession(home, work)).toBe(sessionId)
    const saved = readWorkspaceState(restorePaths(home, work, sessionId))!
    expect(saved).toMatchObject({ sessionId, team: 'ops' })
    expect(readSavedPanes(restorePaths(home, work, sessionId))['team-lead']).toContain('Board ready for the restart.')

    const second = await open(file)
    const snap = await snapshot(second)
    expect(snap.sessionId).toBe(sessionId)
    expect(snap.team).toBe('ops')
    expect(leaderOf(snap).state).toBe('idle')
    // the usage spent before the restart is still counted
    expect(leaderOf(snap).usage.outputTokens).toBeGreaterThan(0)
    expect(await paneText(second, 'team-lead')).toContain('Board ready for the restart.')
    const board = (await second.handle('tasks.list', {})) as { tasks: Array<{ subject: string }> }
    expect(board.tasks.map((t) => t.subject)).toEqual(['Ship the report'])
    // the mailbox inspector follows the reopened team's inboxes
    expect(((await second.handle('mailbox.list', {})) as { team: string | null }).team).toBe('ops')
  })

  it("starts an empty session with session: 'new', and swaps in a new one on workspace.newSession, which the next start reopens", async () => {
    const file = scenario(BOARD)
    const first = await open(file)
    const firstId = (await snapshot(first)).sessionId
    await first.handle('leader.prompt', { text: 'make a team and a task' })
    await first.whenIdle()
    await first.dispose()
    const fresh = await open(file, { session: 'new' })
    const freshSnap = await snapshot(fresh)
    expect(freshSnap.sessionId).not.toBe(firstId)
    expect(freshSnap.team).toBeUndefined()
    expect(await paneText(fresh, 'team-lead')).not.toContain('Board ready')
    await fresh.dispose()
    // the fresh session is now the last one; a person's New session replaces it in place
    const again = await open(file)
    expect((await snapshot(again)).sessionId).toBe(freshSnap.sessionId)
    const { sessionId: newId } = (await again.handle('workspace.newSession', {})) as { sessionId: string }
    expect(newId).not.toBe(freshSnap.sessionId)
    const afterNew = await snapshot(again)
    expect(afterNew.sessionId).toBe(newId)
    expect(leaderOf(afterNew).state).toBe('idle')
    expect(readLastSession(home, work)).toBe(newId)
  })

  it('serve reopens the last session unless --new-session is given', () => {
    expect(parseServeFlags([]).newSession).toBe(false)
    expect(parseServeFlags(['--new-session']).newSession).toBe(true)
  })

  it('refuses to resume an agent that is not interrupted', async () => {
    const first = await open(scenario(BOARD))
    await expect(first.handle('agent.resume', { agentId: 'team-lead' })).rejects.toThrow(/not interrupted/)
    await expect(first.handle('agent.resume', { agentId: 'nobody' })).rejects.toThrow(/No agent 'nobody'/)
  })
})

const LONG_JOB = `agents:
  team-lead:
    - when: "start the long job"
      tools: [{ name: TeamCreate, input: { team_name: "ops", description: "restore test" } }]
    - when: "Team 'ops' created"
      tools: [{ name: TaskCreate, input: { subject: "Ship the report", description: "after the long job" } }]
    - when: "Task #1 created"
      text: "Starting the long job."
      tools: [{ name: Bash, input: { command: "trap '' HUP; echo long-job-started; sleep 600", timeout: 600000 } }]
    - when: "Interrupted:"
      tools: [{ name: Write, input: { file_path: "done.txt", content: "finished after the restart\\n" } }]
    - when: "done.txt"
      text: "All done after the restart."
`

describe('Restore after a crash (kill -9 of swarmdesk serve)', () => {
  it('shows the leader interrupted with its pane, kills the command the dead run left, and Resume finishes the turn', async () => {
    const file = scenario(LONG_JOB)
    // the first run: the leader is in its command, and the state and the pane saying so are on disk
    const { sessionId, state, orphans } = await crashServeWhen(
      file,
      'start the long job',
      (saved, panes) =>
        saved.agents.find((a) => a.agentId === 'team-lead')?.state === 'running' &&
        saved.ptys.length > 0 &&
        (panes['team-lead'] ?? '').includes('long-job-started')
    )
    expect(orphans.length).toBeGreaterThan(0)
    // the command ignores SIGHUP: it outlives the dead run until the next start cleans up
    expect(orphans.some(isProcessAlive)).toBe(true)

    // the dead run held the task list's lock: the reopened board must not wait for it
    plantLockOf(state.owner, join(home, 'tasks', 'ops', '.lock'))
    const second = await open(file)
    expect(findPidsWithEnv(RUN_TAG_VARIABLE, state.runTag, snapshotProcesses())).toEqual([])
    expect(orphans.filter(isProcessAlive)).toEqual([])
    const before = Date.now()
    await second.handle('tasks.create', { subject: 'Check the report' })
    expect(Date.now() - before).toBeLessThan(2_000)
    const snap = await snapshot(second)
    expect(snap.sessionId).toBe(sessionId)
    expect(leaderOf(snap).state).toBe('interrupted')
    expect(snap.team).toBe('ops')
    const pane = await paneText(second, 'team-lead')
    expect(pane).toContain('long-job-started')
    expect(pane).toContain('interrupted — the workspace stopped while this agent worked')

    await second.handle('agent.resume', { agentId: 'team-lead' })
    await until('the resumed turn to write its file', () => existsSync(join(work, 'done.txt')))
    await second.whenIdle()
    expect(readFileSync(join(work, 'done.txt'), 'utf8')).toBe('finished after the restart\n')
    expect(await paneText(second, 'team-lead')).toContain('All done after the restart.')
    expect(leaderOf(await snapshot(second)).state).toBe('idle')
    // the transcript carries the placeholder result of the cut call, then the resumed work
    const transcript = readFileSync(join(home, 'projects', workspaceSlug(work), sessionId, 'transcript.jsonl'), 'utf8')
    expect(transcript).toContain('Interrupted: the session stopped before this tool call finished')
  }, 60_000)
})

/**
 * Runs `swarmdesk serve` on the test's home and folder, sends the leader `text` over the bridge,
 * waits until the saved state satisfies `ready`, then kills serve with SIGKILL, as a crash would.
 * @returns the state saved last, and the processes of the dead run that were alive at the kill.
 */
async function crashServeWhen(
  file: string,
  text: string,
  ready: (state: NonNullable<ReturnType<typeof readWorkspaceState>>, panes: Record<string, string>) => boolean
) {
  const child = spawn(
    process.execPath,
    [
      SWARMDESK_BIN,
      'serve',
      '--cwd',
      work,
      '--scenario',
      file,
      '--port',
      '0',
      '--permission-mode',
      'bypassPermissions'
    ],
    {
      env: { ...process.env, SWARMDESK_HOME: home, NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe']
    }
  )
  let stdout = ''
  let stderr = ''
  child.stdout!.setEncoding('utf8').on('data', (c: string) => (stdout += c))
  child.stderr!.setEncoding('utf8').on('data', (c: string) => (stderr += c))
  const exited = new Promise<void>((done) => child.once('exit', () => done()))
  try {
    const url = new URL(
      (await until(`serve's URL (stderr: ${stderr})`, () => /SWARMDESK_URL (\S+)/.exec(stdout)?.[1]))!
    )
    const ws = new WebSocket(`ws://${url.host}${BRIDGE_PATH}?token=${url.searchParams.get('token')}`, {
      origin: url.origin
    })
    await new Promise((ok, fail) => ws.once('open', ok).once('error', fail))
    ws.send(JSON.stringify({ kind: 'request', id: 1, channel: 'leader.prompt', payload: { text } }))
    const sessionId = await until('the session to be recorded', () => readLastSessionSafe())
    const paths = restorePaths(home, work, sessionId)
    const state = await until('the state to be saved', () => {
      const saved = readWorkspaceState(paths)
      return saved && ready(saved, readSavedPanes(paths)) ? saved : undefined
    })
    const orphans = findPidsWithEnv(RUN_TAG_VARIABLE, state.runTag, snapshotProcesses())
    ws.close()
    return { sessionId, state, orphans }
  } finally {
    child.kill('SIGKILL')
    await exited
  }
}

/** Leaves a lock file at `path` as the dead run would have while holding it (locks/fileLock.ts format). */
function plantLockOf(owner: { pid: number; startTime: string | null }, path: string): void {
  writeFileSync(
    path,
    JSON.stringify({ schemaVersion: 1, ...owner, token: 'held-by-the-dead-run', acquiredAt: new Date().toISOString() })
  )
}

function readLastSessionSafe(): string | undefined {
  try {
    return readLastSession(home, work)
  } catch {
    return undefined
  }
}

const TEAMMATE_JOB = `agents:
  team-lead:
    - when: "start the team"
      tools: [{ name: TeamCreate, input: { team_name: "ops", description: "restore test" } }]
    - when: "Team 'ops' created"
      tools: [{ name: Agent, input: { name: alice, backend: worker, description: "writer", prompt: "Write the notes after the long job." } }]
    - text: "alice is on it."
    - text: "Noted."
    - text: "Noted."
    - text: "Noted."
    - text: "Noted."
  alice:
    - when: "Write the notes"
      text: "Starting my long job."
      tools: [{ name: Bash, input: { command: "trap '' HUP; echo alice-long-job-started; sleep 600", timeout: 600000 } }]
    - when: "Interrupted:"
      tools: [{ name: Write, input: { file_path: "notes.txt", content: "alice's notes\\n" } }]
    - when: "notes.txt"
      text: "Notes written after the restart."
    - text: "Idle."
    - text: "Idle."
`

describe('Restore after a crash: a worker teammate', () => {
  it('shows a teammate that was working interrupted; Resume starts it again with its conversation and it finishes its work', async () => {
    const file = scenario(TEAMMATE_JOB)
    const { sessionId, orphans, state } = await crashServeWhen(
      file,
      'start the team',
      (state, panes) =>
        state.agents.find((a) => a.agentName === 'alice')?.state === 'running' &&
        state.ptys.length > 0 &&
        (panes['alice@ops'] ?? '').includes('alice-long-job-started')
    )
    expect(orphans.length).toBeGreaterThan(0)
    // the dead run held the team config's lock: it must not block alice's start (she marks herself active under it)
    plantLockOf(state.owner, join(home, 'teams', 'ops', '.lock'))
    const second = await open(file)
    expect(orphans.filter(isProcessAlive)).toEqual([])
    const snap = await snapshot(second)
    expect(snap.sessionId).toBe(sessionId)
    const alice = snap.agents.find((a) => a.agentId === 'alice@ops')!
    expect(alice).toMatchObject({ state: 'interrupted', backend: 'worker', parentId: 'team-lead' })
    expect(leaderOf(snap).state).toBe('idle')
    expect(await paneText(second, 'alice@ops')).toContain('alice-long-job-started')

    await second.handle('agent.resume', { agentId: 'alice@ops' })
    await until("alice's notes", () => existsSync(join(work, 'notes.txt')))
    expect(readFileSync(join(work, 'notes.txt'), 'utf8')).toBe("alice's notes\n")
    for (
      const deadline = Date.now() + 20_000;
      !(await paneText(second, 'alice@ops')).includes('Notes written after the restart.');
    ) {
      if (Date.now() > deadline)
        throw new Error(`alice's pane never said she was done:\n${await paneText(second, 'alice@ops')}`)
      await new Promise((r) => setTimeout(r, 50))
    }
    // her conversation continued: the resumed request carried the turns before the crash
    const transcript = readFileSync(
      join(home, 'projects', workspaceSlug(work), sessionId, 'agents', 'alice@ops.jsonl'),
      'utf8'
    )
    expect(transcript).toContain('alice-long-job-started')
    expect(transcript).toContain('Interrupted: the session stopped before this tool call finished')
    expect(transcript.indexOf('Write the notes after the long job.')).toBeLessThan(
      transcript.indexOf('Interrupted: the session stopped')
    )
  }, 90_000)
})

const SUBAGENT_JOB = `agents:
  team-lead:
    - when: "start the helper"
      tools: [{ name: Agent, input: { subagent_type: general-purpose, description: "long helper", prompt: "Run the long job, then write helper.txt", run_in_background: true } }]
    - text: "The helper runs in the background."
    - when: "<task-notification>"
      text: "The helper reported back."
    - text: "Noted."
  long-helper:
    - when: "Run the long job"
      tools: [{ name: Bash, input: { command: "trap '' HUP; echo helper-long-job-started; sleep 600", timeout: 600000 } }]
    - when: "Interrupted:"
      tools: [{ name: Write, input: { file_path: "helper.txt", content: "helped\\\\n" } }]
    - when: "helper.txt"
      text: "Helper finished after the restart."
`

describe('Restore after a crash: a background subagent', () => {
  it('shows a subagent that was working interrupted; Resume continues it from its transcript and the leader gets its notification', async () => {
    const file = scenario(SUBAGENT_JOB)
    const { sessionId } = await crashServeWhen(file, 'start the helper', (state, panes) => {
      const helper = state.agents.find((a) => a.agentName === 'long-helper')
      return helper?.state === 'running' && (panes[helper.agentId] ?? '').includes('helper-long-job-started')
    })
    const second = await open(file)
    const snap = await snapshot(second)
    expect(snap.sessionId).toBe(sessionId)
    const helper = snap.agents.find((a) => a.agentName === 'long-helper')!
    expect(helper).toMatchObject({ state: 'interrupted', parentId: 'team-lead', agentType: 'general-purpose' })

    await second.handle('agent.resume', { agentId: helper.agentId })
    await until('the helper to write its file', () => existsSync(join(work, 'helper.txt')))
    for (
      const deadline = Date.now() + 20_000;
      !(await paneText(second, 'team-lead')).includes('The helper reported back.');
    ) {
      if (Date.now() > deadline)
        throw new Error(`the leader never read the helper's notification:\n${await paneText(second, 'team-lead')}`)
      await new Promise((r) => setTimeout(r, 50))
    }
    expect(await paneText(second, helper.agentId)).toContain('Helper finished after the restart.')
    const after = (await snapshot(second)).agents.find((a) => a.agentId === helper.agentId)!
    expect(after.state).toBe('exited')
  }, 90_000)
})

const WAITING_LEADER = `agents:
  team-lead:
    - when: "start the helper and wait"
      tools:
        - { name: Agent, input: { subagent_type: general-purpose, description: "long helper", prompt: "Run the long job, then report", run_in_background: true } }
        - { name: Bash, input: { command: "trap '' HUP; echo leader-waits; sleep 600", timeout: 600000 } }
    - when: "<task-notification>"
      text: "The helper reported back."
    - text: "Noted."
  long-helper:
    - when: "Run the long job"
      tools: [{ name: Bash, input: { command: "trap '' HUP; echo helper-long-job-started; sleep 600", timeout: 600000 } }]
    - text: "Helper finished after the restart."
`

describe('Restore after a crash: a leader cut short mid-tool, woken by a notification', () => {
  it("answers the leader's interrupted calls in the request its wake sends, when only its subagent is resumed", async () => {
    const file = scenario(WAITING_LEADER)
    const { sessionId } = await crashServeWhen(file, 'start the helper and wait', (state, panes) => {
      const helper = state.agents.find((a) => a.agentName === 'long-helper')
      return (
        helper?.state === 'running' &&
        (panes[helper.agentId] ?? '').includes('helper-long-job-started') &&
        (panes['team-lead'] ?? '').includes('leader-waits')
      )
    })
    const second = await open(file)
    const snap = await snapshot(second)
    expect(snap.sessionId).toBe(sessionId)
    expect(leaderOf(snap).state).toBe('interrupted')
    const helper = snap.agents.find((a) => a.agentName === 'long-helper')!

    // Resume on the helper only: its notification, not Resume, starts the leader's next turn
    await second.handle('agent.resume', { agentId: helper.agentId })
    for (
      const deadline = Date.now() + 20_000;
      !(await paneText(second, 'team-lead')).includes('The helper reported back.');
    ) {
      if (Date.now() > deadline)
        throw new Error(`the leader never read the helper's notification:\n${await paneText(second, 'team-lead')}`)
      await new Promise((r) => setTimeout(r, 50))
    }
    const scripted = (second as unknown as { scriptedModelUrl: string }).scriptedModelUrl
    const requests = (await (await fetch(`${scripted}/_scripted/requests`)).json()) as Array<{
      agentName?: string
      body: {
        messages: Array<{
          role: string
          content: Array<{ type: string; id?: string; tool_use_id?: string; text?: string }>
        }>
      }
    }>
    const woken = requests.find((r) => r.agentName === 'team-lead')!.body.messages
    const cut = woken.findIndex(
      (m) =>
        m.role === 'assistant' &&
        m.content.some((b) => b.type === 'tool_use' && b.id && JSON.stringify(m).includes('leader-waits'))
    )
    const ids = woken[cut]!.content.filter((b) => b.type === 'tool_use').map((b) => b.id)
    expect(ids).toHaveLength(2)
    const answer = woken[cut + 1]!
    expect(answer.role).toBe('user')
    expect(answer.content.slice(0, ids.length).map((b) => b.type === 'tool_result' && b.tool_use_id)).toEqual(ids)
    expect(JSON.stringify(answer)).toContain('<task-notification>')
    // recorded once: the next restart reads a history with nothing left to repair
    const transcript = readFileSync(join(home, 'projects', workspaceSlug(work), sessionId, 'transcript.jsonl'), 'utf8')
    expect(transcript.split('Interrupted: the session stopped before this tool call finished').length - 1).toBe(
      ids.length
    )
  }, 90_000)
})

// the first run's command leaves the pane on a full-screen program's screen, mouse tracking on, mid-line
const REPLAY = `agents:
  team-lead:
    - when: "first run"
      tools: [{ name: Bash, input: { command: "printf 'first-run-line\\\\n\\\\033[?1049h\\\\033[?1000h\\\\033[31mfull-screen-program'" } }]
    - when: "full-screen-program"
      text: "First run done."
    - when: "second run"
      tools: [{ name: Bash, input: { command: "echo second-run-line" } }]
    - when: "second-run-line"
      text: "Second run done."
`

/** The leader pane's serialized scrollback, escape sequences and all. */
const scrollback = async (s: WorkspaceService) =>
  ((await s.handle('pane.scrollback', { agentId: 'team-lead' })) as { data: string }).data

// what the first restart wrote after the restored output to end what the dead run left open
// (restoredOutputEnd, panes.ts) is in the pane's journal too
describe('A pane restored twice', () => {
  it('shows the session between the two restarts below the scrollback, not on the screen of the program the first run left', async () => {
    const file = scenario(REPLAY)
    const first = await open(file)
    await first.handle('leader.prompt', { text: 'first run' })
    await first.whenIdle()
    await first.dispose()
    const second = await open(file)
    await second.handle('leader.prompt', { text: 'second run' })
    await second.whenIdle()
    const seen = await scrollback(second)
    await second.dispose()
    const third = await open(file)
    const replayed = await scrollback(third)
    for (const data of [seen, replayed]) {
      // the serialized pane leaves the normal screen only for a full-screen program still running
      expect(data).not.toContain('\x1b[?1049h')
      expect(data).toContain('first-run-line')
      expect(data.indexOf('second-run-line')).toBeGreaterThan(data.indexOf('first-run-line'))
      expect(data).toContain('Second run done.')
    }
  })
})
