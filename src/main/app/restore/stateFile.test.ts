import { readProcEntry } from '../../runtime/processes'
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  writeFileSync
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { AgentView } from '../../../shared/ipc'

import { PANE_RESTORE_MAX_CHARS } from '../panes'
import { PANE_SEGMENT_CHARS, SEGMENT_RESUME, segmentFile } from './paneJournal'
import { WorkspaceStateRecorder } from './recorder'
import { planRestore, restoredAgents } from './startup'
import { readLastSession, readSavedPanes, readWorkspaceState, restorePaths, writeLastSession } from './stateFile'

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
    writeFileSync(
      paths.state,
      JSON.stringify({
        schemaVersion: 1,
        sessionId: 'busy',
        cwd,
        updatedAt: new Date().toISOString(),
        owner: parent,
        runTag: 'other',
        ptys: [],
        agents: []
      })
    )
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
    const leader = restoredAgents(
      [agent({ agentId: 'team-lead', state: 'exited', endStatus: 'killed' })],
      'team-lead'
    )[0]!
    expect(leader.state).toBe('idle')
    expect(leader).not.toHaveProperty('endStatus')
  })

  it("appends each pane's new output to its journal once per flush, and reads an earlier version's panes.json under it", async () => {
    const paths = session('s3')
    const recorder = new WorkspaceStateRecorder(
      { home, cwd, sessionId: 's3', paths, runTag: 'tag', agents: () => [], team: () => undefined, ptyPids: () => [] },
      (message) => {
        throw new Error(message)
      }
    )
    recorder.notePaneOutput('a', 'a1\r\n')
    recorder.notePaneOutput('b', 'b1\r\n')
    recorder.notePaneOutput('b', 'b2\r\n')
    await recorder.flush()
    recorder.notePaneOutput('b', 'b3\r\n')
    await recorder.flush()
    await recorder.flush() // nothing new: nothing written
    recorder.dispose()
    const segment = (id: string): string => readFileSync(segmentFile(paths.paneJournal, id, 0), 'utf8')
    expect(segment('a')).toBe(`{"a":"a","seq":1}\n${SEGMENT_RESUME}a1\r\n`)
    expect(segment('b')).toBe(`{"a":"b","seq":1}\n${SEGMENT_RESUME}b1\r\nb2\r\nb3\r\n`)
    expect(readSavedPanes(paths)).toEqual({ a: `${SEGMENT_RESUME}a1\r\n`, b: `${SEGMENT_RESUME}b1\r\nb2\r\nb3\r\n` })
    // a session saved by an earlier version: its panes.json comes first, the journal after it
    writeFileSync(
      paths.panes,
      JSON.stringify({
        schemaVersion: 1,
        updatedAt: new Date().toISOString(),
        panes: { a: 'old a\r\n', c: 'old c\r\n' }
      })
    )
    expect(readSavedPanes(paths)).toEqual({
      a: `old a\r\n${SEGMENT_RESUME}a1\r\n`,
      b: `${SEGMENT_RESUME}b1\r\nb2\r\nb3\r\n`,
      c: 'old c\r\n'
    })
  })

  it('writes workspace.json again only when what it says changes', async () => {
    const paths = session('s4')
    let agents = [agent({ agentId: 'team-lead' })]
    const recorder = new WorkspaceStateRecorder(
      {
        home,
        cwd,
        sessionId: 's4',
        paths,
        runTag: 'tag',
        agents: () => agents,
        team: () => undefined,
        ptyPids: () => []
      },
      (message) => {
        throw new Error(message)
      },
      { state: 1, panes: 1 }
    )
    recorder.open()
    const first = readFileSync(paths.state, 'utf8')
    await new Promise((r) => setTimeout(r, 5))
    recorder.noteChange()
    await new Promise((r) => setTimeout(r, 20))
    await recorder.flush()
    expect(readFileSync(paths.state, 'utf8')).toBe(first)
    agents = [agent({ agentId: 'team-lead', state: 'idle' })]
    recorder.noteChange()
    await new Promise((r) => setTimeout(r, 20))
    expect(readWorkspaceState(paths)?.agents.map((a) => a.state)).toEqual(['idle'])
    expect(readFileSync(paths.state, 'utf8')).not.toBe(first)
    recorder.dispose()
  })

  it('writes state atomically, leaves no temp files, and keeps of each pane its last MiB from a line start, its journal two segments at most', async () => {
    const paths = session('s2')
    const recorder = new WorkspaceStateRecorder(
      {
        home,
        cwd,
        sessionId: 's2',
        paths,
        runTag: 'tag',
        agents: () => [agent({ agentId: 'team-lead' })],
        team: () => 'ops',
        ptyPids: () => []
      },
      (message) => {
        throw new Error(message)
      }
    )
    recorder.open()
    recorder.notePaneOutput('small', 'hello\r\n')
    // 5 MiB of coloured lines in 20 flushes: the pane switches segments more than once
    let n = 0
    for (let flush = 0; flush < 20; flush++) {
      let chunk = ''
      while (chunk.length < 256 * 1024) chunk += `\x1b[3${n % 7}mline ${n++}\x1b[0m ${'x'.repeat(100)}\r\n`
      recorder.notePaneOutput('big', chunk)
      await recorder.flush()
      for (const n of [0, 1] as const)
        expect(
          statSync(segmentFile(paths.paneJournal, 'big', n), { throwIfNoEntry: false })?.size ?? 0
        ).toBeLessThanOrEqual(PANE_SEGMENT_CHARS + 300 * 1024)
    }
    recorder.dispose()
    expect(readLastSession(home, cwd)).toBe('s2')
    expect(readWorkspaceState(paths)).toMatchObject({
      sessionId: 's2',
      team: 'ops',
      runTag: 'tag',
      owner: { pid: process.pid }
    })
    const saved = readSavedPanes(paths)
    expect(saved.small).toBe(`${SEGMENT_RESUME}hello\r\n`)
    expect(saved.big!.length).toBeLessThanOrEqual(PANE_RESTORE_MAX_CHARS)
    expect(saved.big!.length).toBeGreaterThan(PANE_RESTORE_MAX_CHARS - 200)
    // the end of the pane, from the start of a line, with the colours reset where it was cut
    expect(saved.big).toMatch(/^\x1b\[0m\x1b\[3\dmline \d+\x1b\[0m x+\r\n/)
    expect(saved.big!.endsWith(`line ${n - 1}\x1b[0m ${'x'.repeat(100)}\r\n`)).toBe(true)
    const files = [...readdirSync(join(paths.state, '..')), ...readdirSync(paths.paneJournal)]
    expect(files.filter((f) => f.endsWith('.tmp'))).toEqual([])
  })
})
