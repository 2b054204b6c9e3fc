import { mkdirSync, mkdtempSync, readdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { AgentView } from '../../../../shared/ipc'
import { readProcEntry } from '../../pty'
import { PaneTerminals } from '../panes'
import { WorkspaceStateRecorder } from './recorder'
import { planRestore, restoredAgents } from './startup'
import { readLastSession, readPanes, readWorkspaceState, restorePaths, writeLastSession } from './stateFile'

let home: string
const cwd = '/work/project'

beforeEach(() => {
  home = realpathSync(mkdtempSync(join(tmpdir(), 'swarmdesk-statefile-')))
})
afterEach(() => rmSync(home, { recursive: true, force: true }))

/** A session folder with a leader transcript, as Session.open leaves it. */
function session(id: string): ReturnType<typeof restorePaths> {
  const paths = restorePaths(home, cwd, id)
  mkdirSync(join(paths.state, '..'), { recursive: true })
  writeFileSync(join(paths.state, '..', 'transcript.jsonl'), '')
  return paths
}

const agent = (over: Partial<AgentView>): AgentView => ({
  agentId: 'x',
  agentName: 'x',
  agentType: 'general-purpose',
  depth: 1,
  state: 'running',
  color: '#ffffff',
  usage: { inputTokens: 0, outputTokens: 0, cacheCreationInputTokens: 0, cacheReadInputTokens: 0 },
  costUsd: 0,
  ...over
})

describe('restore files', () => {
  it('names no session to reopen for a new workspace, or when the last session folder is gone', () => {
    expect(readLastSession(home, cwd)).toBeUndefined()
    writeLastSession(home, cwd, 'gone')
    expect(readLastSession(home, cwd)).toBeUndefined()
    session('here')
    writeLastSession(home, cwd, 'here')
    expect(readLastSession(home, cwd)).toBe('here')
  })

  it('opens the last session without its saved state when workspace.json is damaged, saying which file and what to do', async () => {
    const paths = session('s1')
    writeLastSession(home, cwd, 's1')
    writeFileSync(paths.state, '{"schemaVersion": 1, "sessionId": ')
    const plan = await planRestore({ home, cwd, choice: 'restore' })
    expect(plan.resumeSessionId).toBe('s1')
    expect(plan.previous).toBeUndefined()
    expect(plan.warnings).toEqual([expect.stringContaining(`${paths.state} is not JSON`)])
    expect(plan.warnings[0]).toContain('delete it to start without it')
  })

  it('starts a new session when another live process has the last one open', async () => {
    const paths = session('busy')
    writeLastSession(home, cwd, 'busy')
    // the parent of this test process is alive and is not this process
    const parent = { pid: process.ppid, startTime: String(readProcEntry(process.ppid)!.startTime) }
    writeFileSync(paths.state, JSON.stringify({ schemaVersion: 1, sessionId: 'busy', cwd, updatedAt: new Date().toISOString(), owner: parent, runTag: 'other', ptys: [], agents: [] }))
    const plan = await planRestore({ home, cwd, choice: 'restore' })
    expect(plan.resumeSessionId).toBeUndefined()
    expect(plan.warnings).toEqual([expect.stringContaining(`open in another Swarmdesk process (pid ${process.ppid})`)])
  })

  it("chooses no session with choice 'new', and the given id over the last one", async () => {
    session('a')
    session('b')
    writeLastSession(home, cwd, 'a')
    expect((await planRestore({ home, cwd, choice: 'new' })).resumeSessionId).toBeUndefined()
    expect((await planRestore({ home, cwd, choice: 'restore', resumeSessionId: 'b' })).resumeSessionId).toBe('b')
  })

  it('marks agents that were working interrupted, idle teammates too; the leader otherwise idle; ended agents keep how they ended', () => {
    const restored = restoredAgents(
      [
        agent({ agentId: 'team-lead', agentName: 'team-lead', depth: 0, state: 'awaiting_permission' }),
        agent({ agentId: 'alice@t', agentName: 'alice', backend: 'worker', state: 'idle' }),
        agent({ agentId: 'sub', state: 'exited', endStatus: 'completed' }),
        agent({ agentId: 'sub2', state: 'awaiting_plan_approval' })
      ],
      'team-lead'
    )
    expect(restored.map((a) => a.state)).toEqual(['interrupted', 'interrupted', 'exited', 'interrupted'])
    const leader = restoredAgents([agent({ agentId: 'team-lead', state: 'exited', endStatus: 'killed' })], 'team-lead')[0]!
    expect(leader.state).toBe('idle')
    expect(leader).not.toHaveProperty('endStatus')
  })

  it('serializes again only the panes written since the last save, and first of all every pane (restored ones too)', async () => {
    const paths = session('s3')
    const asked: Array<string[] | undefined> = []
    const recorder = new WorkspaceStateRecorder(
      { home, cwd, sessionId: 's3', paths, runTag: 'tag', agents: () => [], team: () => undefined, ptyPids: () => [], panes: async (only) => (asked.push(only), Object.fromEntries((only ?? ['a', 'b']).map((id) => [id, `${id}${asked.length}`]))) },
      (message) => {
        throw new Error(message)
      }
    )
    await recorder.flush()
    recorder.notePaneOutput('b')
    await recorder.flush()
    await recorder.flush()
    recorder.dispose()
    expect(asked).toEqual([undefined, ['b']])
    expect(readPanes(paths)!.panes).toEqual({ a: 'a1', b: 'b2' })
  })

  it('writes state and panes atomically, leaving no temp files, and bounds each pane', async () => {
    const paths = session('s2')
    const panes = new PaneTerminals()
    for (let i = 0; i < 3000; i++) panes.write('big', `line ${i} ${'x'.repeat(100)}\r\n`)
    panes.write('small', 'hello\r\n')
    const recorder = new WorkspaceStateRecorder(
      {
        home,
        cwd,
        sessionId: 's2',
        paths,
        runTag: 'tag',
        agents: () => [agent({ agentId: 'team-lead' })],
        team: () => 'ops',
        ptyPids: () => [],
        panes: (only) => panes.serializeAll(64 * 1024, only)
      },
      (message) => {
        throw new Error(message)
      }
    )
    recorder.open()
    recorder.notePaneOutput()
    await recorder.flush()
    recorder.dispose()
    expect(readLastSession(home, cwd)).toBe('s2')
    expect(readWorkspaceState(paths)).toMatchObject({ sessionId: 's2', team: 'ops', runTag: 'tag', owner: { pid: process.pid } })
    const saved = readPanes(paths)!.panes
    expect(saved.small).toContain('hello')
    expect(saved.big!.length).toBeLessThanOrEqual(64 * 1024)
    // what is kept is the end of the pane, whole lines
    expect(saved.big).toContain('line 2999 ')
    expect(readdirSync(join(paths.state, '..')).filter((f) => f.endsWith('.tmp'))).toEqual([])
    panes.dispose()
  })
})
