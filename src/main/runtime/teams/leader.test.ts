import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { isProcessAlive, listDescendantPids } from '../processes/procfs'
import { TaskStore } from '../tasks'
import { buildChild, startChild } from '../tasks/children.testkit'
import {
  claimLeadership,
  leaderLeasePath,
  leaderStatus,
  releaseLeadership,
  TeamExistsError,
  TeamLeaderAliveError,
  TeamStore
} from '.'

const lead = { name: 'team-lead', agentType: 'main', model: 'm', backendType: 'main' as const, cwd: '/w' }
let entry: string
let home: string
let store: TeamStore
const started: ChildProcess[] = []
beforeAll(async () => {
  entry = await buildChild()
})
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'swarmdesk-leader-'))
  store = new TeamStore(home)
})
afterEach(() => {
  for (const c of started.splice(0)) if (c.pid && isProcessAlive(c.pid)) process.kill(-c.pid, 'SIGKILL')
  rmSync(home, { recursive: true, force: true })
})
afterAll(() => rmSync(join(entry, '..'), { recursive: true, force: true }))

/** A process that looks like one of `team`'s process teammates under `teamHome` (their variables) and has a child of its own. */
function fakeTeammate(teamHome: string, team: string): ChildProcess {
  const child = spawn('sh', ['-c', 'sleep 300 & sleep 300'], {
    detached: true,
    stdio: 'ignore',
    env: { ...process.env, SWARMDESK_HOME: teamHome, SWARMDESK_TEAM: team }
  })
  started.push(child)
  return child
}

async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 10))
}

describe('leader liveness and stale teams', () => {
  it('never takes a leader alive in another process for dead; once that process is killed the team is stale and can be deleted or taken over', async () => {
    const leader = startChild(entry, { op: 'lead', home, team: 'crew', sessionId: 'session-a' })
    await leader.ready
    const pid = leader.proc.pid!
    expect(leaderStatus(home, 'crew')).toMatchObject({ state: 'alive', lease: { sessionId: 'session-a', pid } })
    await expect(store.deleteStale('crew')).rejects.toBeInstanceOf(TeamLeaderAliveError)
    await expect(store.deleteStale('crew')).rejects.toThrow(`led by session session-a, alive in process ${pid}`)
    const taken = store.createAsLeader({ name: 'crew', lead }, 'session-b')
    await expect(taken).rejects.toBeInstanceOf(TeamExistsError)
    await expect(taken).rejects.toThrow(`alive in process ${pid}`)
    expect(new TaskStore(home, 'crew').list().tasks).toHaveLength(1)

    leader.proc.kill('SIGKILL')
    await leader.lines.catch(() => undefined)
    const status = leaderStatus(home, 'crew')
    expect(status).toMatchObject({ state: 'stale', reason: `its leader process ${pid} is gone (session session-a)` })
    const { config, replaced } = await store.createAsLeader({ name: 'crew', description: 'again', lead }, 'session-b')
    expect(config.description).toBe('again')
    expect(replaced).toMatchObject({ team: 'crew', reason: expect.stringContaining(`${pid} is gone`) })
    expect(new TaskStore(home, 'crew').list().tasks).toEqual([])
    expect(leaderStatus(home, 'crew')).toMatchObject({
      state: 'alive',
      lease: { sessionId: 'session-b', pid: process.pid }
    })
  }, 60_000)

  it('a session that ended in this process leaves its team stale; a pid now used by another process does not count as the leader', async () => {
    await store.createAsLeader({ name: 'solo', lead }, 'session-1')
    expect(leaderStatus(home, 'solo').state).toBe('alive')
    releaseLeadership(home, 'solo', 'session-1')
    expect(leaderStatus(home, 'solo')).toMatchObject({
      state: 'stale',
      reason: expect.stringContaining('no leader session holds it')
    })
    // a lease whose pid is alive but started at another time: the recorded process is gone
    writeFileSync(
      leaderLeasePath(home, 'solo'),
      JSON.stringify({ schemaVersion: 1, sessionId: 's', pid: process.ppid, startTime: '1', claimedAt: '' })
    )
    expect(leaderStatus(home, 'solo')).toMatchObject({
      state: 'stale',
      reason: expect.stringContaining('belongs to another process')
    })
    // a lease naming this process for a session that no longer holds it here
    claimLeadership(home, 'solo', 'session-2')
    expect(leaderStatus(home, 'solo').state).toBe('alive')
    const held = JSON.parse(readFileSync(leaderLeasePath(home, 'solo'), 'utf8')) as object
    writeFileSync(leaderLeasePath(home, 'solo'), JSON.stringify({ ...held, sessionId: 'session-gone' }))
    expect(leaderStatus(home, 'solo')).toMatchObject({
      state: 'stale',
      reason: 'its leader session session-gone ended in this process'
    })
  })

  it("deleting a stale team removes its folder and task list and kills its teammates' leftover processes, and no other home's", async () => {
    await store.create({ name: 'crew', lead })
    await store.addMember('crew', {
      name: 'alice',
      agentType: 'general-purpose',
      model: 'm',
      backendType: 'process',
      cwd: '/w'
    })
    await new TaskStore(home, 'crew').create({ subject: 'left behind' })
    const mate = fakeTeammate(home, 'crew')
    const otherHome = mkdtempSync(join(tmpdir(), 'swarmdesk-leader-other-'))
    const decoy = fakeTeammate(otherHome, 'crew')
    await until(() => listDescendantPids(mate.pid!).length > 0 && listDescendantPids(decoy.pid!).length > 0)
    const grandchildren = listDescendantPids(mate.pid!)
    expect(leaderStatus(home, 'crew').state).toBe('stale')
    const removed = await store.deleteStale('crew')
    expect(removed.leftovers.killed).toEqual(expect.arrayContaining([mate.pid, ...grandchildren]))
    expect(removed.leftovers.survivors).toEqual([])
    for (const pid of [mate.pid!, ...grandchildren]) expect(isProcessAlive(pid)).toBe(false)
    expect(isProcessAlive(decoy.pid!)).toBe(true)
    expect(existsSync(join(home, 'teams', 'crew'))).toBe(false)
    expect(existsSync(join(home, 'tasks', 'crew'))).toBe(false)
    rmSync(otherHome, { recursive: true, force: true })
  }, 30_000)
})
