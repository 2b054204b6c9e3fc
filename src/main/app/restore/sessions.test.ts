import { execFileSync } from 'node:child_process'
import { existsSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { SessionList, WorkspaceSnapshot } from '../../../shared/ipc'
import { workspaceSlug } from '../../runtime/storage'
import { WorkspaceService } from '../service'
import { readLastSession, readWorkspaceState, restorePaths, writeWorkspaceState } from './stateFile'

// Issue 19 item 13: the sessions of a workspace can be listed and an earlier one reopened in place
// of the current one (`sessions.list`, `workspace.openSession`), with its pane, team and board.

let home: string
let work: string
let service: WorkspaceService | undefined

beforeEach(() => {
  home = realpathSync(mkdtempSync(join(tmpdir(), 'swarmdesk-sessions-home-')))
  work = realpathSync(mkdtempSync(join(tmpdir(), 'swarmdesk-sessions-work-')))
  execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: work })
})
afterEach(async () => {
  await service?.dispose()
  service = undefined
  rmSync(home, { recursive: true, force: true })
  rmSync(work, { recursive: true, force: true })
})

const SCENARIO = `agents:
  team-lead:
    - when: "make a team"
      tools: [{ name: TeamCreate, input: { team_name: "ops", description: "sessions test" } }]
    - when: "Team 'ops' created"
      tools: [{ name: TaskCreate, input: { subject: "Ship the report", description: "write it" } }]
    - when: "Task #1 created"
      text: "Board ready in the first session."
    - when: "say hello"
      text: "Hello from the second session."
    - when: "carry on"
      text: "Carrying on in the first session."
`

const snapshot = async (s: WorkspaceService) => (await s.handle('workspace.snapshot', {})) as WorkspaceSnapshot
const sessions = async (s: WorkspaceService) => ((await s.handle('sessions.list', {})) as SessionList).sessions
const paneText = async (s: WorkspaceService, agentId: string) =>
  ((await s.handle('pane.scrollback', { agentId })) as { data: string }).data.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '')

async function open(): Promise<WorkspaceService> {
  const file = join(home, 's.yaml')
  writeFileSync(file, SCENARIO)
  service = await WorkspaceService.start({ cwd: work, home, scenario: file, env: {}, mode: 'bypassPermissions' })
  return service
}

describe('Sessions: list and reopen', () => {
  it('lists every session of the workspace, the open one marked, and reopens an earlier one with its pane, team and board', async () => {
    const s = await open()
    const firstId = (await snapshot(s)).sessionId
    await s.handle('leader.prompt', { text: 'make a team and a task' })
    await s.whenIdle()
    expect(await sessions(s)).toEqual([
      expect.objectContaining({ sessionId: firstId, current: true, team: 'ops', firstPrompt: 'make a team and a task' })
    ])

    const { sessionId: secondId } = (await s.handle('workspace.newSession', {})) as { sessionId: string }
    // a session that has had no prompt yet is listed too: the Sessions menu shows where the person is
    const listed = await sessions(s)
    expect(listed.map((e) => [e.sessionId, e.current])).toEqual(
      expect.arrayContaining([
        [secondId, true],
        [firstId, false]
      ])
    )
    expect(listed.find((e) => e.sessionId === secondId)).toMatchObject({ entries: 0 })
    expect(listed.find((e) => e.sessionId === secondId)!.firstPrompt).toBeUndefined()
    await s.handle('leader.prompt', { text: 'say hello' })
    await s.whenIdle()
    const both = await sessions(s)
    expect(both[0]).toMatchObject({ sessionId: secondId, current: true, firstPrompt: 'say hello' })
    expect(both[0]!.team).toBeUndefined()
    expect(both[1]).toMatchObject({
      sessionId: firstId,
      current: false,
      team: 'ops',
      firstPrompt: 'make a team and a task'
    })

    expect(await s.handle('workspace.openSession', { sessionId: firstId })).toEqual({ sessionId: firstId })
    const snap = await snapshot(s)
    expect(snap.sessionId).toBe(firstId)
    expect(snap.team).toBe('ops')
    expect(snap.leaderStarted).toBe(true)
    expect(snap.agents.find((a) => a.agentId === 'team-lead')!.state).toBe('idle')
    const pane = await paneText(s, 'team-lead')
    expect(pane).toContain('Board ready in the first session.')
    expect(pane).not.toContain('Hello from the second session.')
    expect(
      ((await s.handle('tasks.list', {})) as { tasks: Array<{ subject: string }> }).tasks.map((t) => t.subject)
    ).toEqual(['Ship the report'])
    expect(((await s.handle('mailbox.list', {})) as { team: string | null }).team).toBe('ops')
    expect((await sessions(s)).find((e) => e.current)!.sessionId).toBe(firstId)
    // the next start reopens it, and its conversation goes on from its transcript
    expect(readLastSession(home, work)).toBe(firstId)
    await s.handle('leader.prompt', { text: 'carry on' })
    await s.whenIdle()
    expect(await paneText(s, 'team-lead')).toContain('Carrying on in the first session.')
    const requests = (await fetch(`${s.scriptedModelUrl}/_scripted/requests`).then((r) => r.json())) as Array<{
      body: { messages: unknown[] }
    }>
    const last = JSON.stringify(requests.at(-1)!.body.messages)
    expect(last).toContain('make a team and a task')
    expect(last).not.toContain('say hello')
    expect(readWorkspaceState(restorePaths(home, work, firstId))?.team).toBe('ops')
  }, 60_000)

  it('refuses the open session, an unknown one, and one another live process has open, changing nothing', async () => {
    const s = await open()
    const firstId = (await snapshot(s)).sessionId
    await s.handle('leader.prompt', { text: 'make a team and a task' })
    await s.whenIdle()
    const { sessionId: secondId } = (await s.handle('workspace.newSession', {})) as { sessionId: string }
    await expect(s.handle('workspace.openSession', { sessionId: secondId })).rejects.toThrow(
      `Session ${secondId} is the one open here already.`
    )
    await expect(s.handle('workspace.openSession', { sessionId: 'no-such-session' })).rejects.toThrow(
      /No session no-such-session in this workspace .*Sessions menu/
    )
    await expect(s.handle('workspace.openSession', { sessionId: '' })).rejects.toThrow(/name the session to open/)
    // an id is a folder of this workspace's store, never a path to another's
    const roundabout = `../${workspaceSlug(work)}/${firstId}`
    expect(existsSync(join(home, 'projects', workspaceSlug(work), roundabout, 'transcript.jsonl'))).toBe(true)
    await expect(s.handle('workspace.openSession', { sessionId: roundabout })).rejects.toThrow(
      `No session ${roundabout} in this workspace`
    )
    // the first session's state says another process, alive, has it open
    const paths = restorePaths(home, work, firstId)
    writeWorkspaceState(paths, { ...readWorkspaceState(paths)!, owner: { pid: process.ppid, startTime: null } })
    expect((await sessions(s)).find((e) => e.sessionId === firstId)!.openElsewhere).toBe(process.ppid)
    await expect(s.handle('workspace.openSession', { sessionId: firstId })).rejects.toThrow(
      `Session ${firstId} is open in another Swarmdesk process (pid ${process.ppid}): close it there first.`
    )
    expect((await snapshot(s)).sessionId).toBe(secondId)
    expect(readLastSession(home, work)).toBe(secondId)
  }, 60_000)
})
