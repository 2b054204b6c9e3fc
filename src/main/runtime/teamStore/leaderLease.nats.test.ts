import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { RuntimeEvent } from '../../../shared/events'
import { EventBus } from '../events/bus'
import { createTeamContext } from './context'
import { startNatsServer, type NatsServer } from './natsServer.testkit'
import { openTeamStore } from './open'
import type { TeamStorePort } from './port'

// The leader lease on a server (docs/nats.md#the-leader-lease): two stores, two connections, one
// nats-server; a liveness TTL of 1 s so a holder that stops beating is stale soon.

const lead = { name: 'team-lead', agentType: 'team-lead', model: 'm', backendType: 'main' as const, cwd: '/w' }
let server: NatsServer
let a: TeamStorePort
let b: TeamStorePort
const home = mkdtempSync(join(tmpdir(), 'swarmdesk-lease-'))
beforeAll(async () => {
  server = await startNatsServer()
  a = await openTeamStore(home, { kind: 'nats', servers: [server.url] }, { livenessTtlMs: 1_000 })
  b = await openTeamStore(home, { kind: 'nats', servers: [server.url] }, { livenessTtlMs: 1_000 })
}, 60_000)
afterAll(async () => {
  await a?.close()
  await b?.close()
  await server?.stop()
  rmSync(home, { recursive: true, force: true })
})

const waitStale = async (store: TeamStorePort, team: string): Promise<void> => {
  while ((await store.leader!.status(team)).state === 'alive') await new Promise((r) => setTimeout(r, 100))
}

describe('the leader lease on a server (docs/nats.md#the-leader-lease)', () => {
  it('is written with the team, refused to another session while its holder beats, kept by its own, taken over once stale', async () => {
    await a.config.createAsLeader({ name: 'lease', lead }, 'S1')
    expect(await b.leader!.status('lease')).toMatchObject({
      state: 'alive',
      lease: { sessionId: 'S1', pid: process.pid }
    })
    const beating = setInterval(() => void a.leader!.beat('lease', 'S1'), 200)
    try {
      expect(await b.leader!.claim('lease', 'S2')).toEqual({
        ok: false,
        lease: expect.objectContaining({ sessionId: 'S1' })
      })
      expect(await a.leader!.claim('lease', 'S1')).toEqual({ ok: true })
      // a release by a session that does not hold it changes nothing
      await b.leader!.release('lease', 'S2')
      expect((await a.leader!.status('lease')).state).toBe('alive')
    } finally {
      clearInterval(beating)
    }
    await waitStale(b, 'lease')
    expect(await b.leader!.status('lease')).toMatchObject({
      state: 'stale',
      reason: expect.stringMatching(/S1 .*stopped beating/)
    })
    expect(await b.leader!.claim('lease', 'S2')).toEqual({ ok: true })
    expect(await a.leader!.status('lease')).toMatchObject({ state: 'alive', lease: { sessionId: 'S2' } })
    await b.leader!.release('lease', 'S2')
    expect(await a.leader!.status('lease')).toMatchObject({ state: 'stale', reason: /no leader session/ })
    // deleting the team removes its lease too
    await a.leader!.claim('lease', 'S3')
    await a.config.delete('lease')
    expect((await a.leader!.status('lease')).state).toBe('stale')
  })

  it('a resumed leader context leads its team again, unless another live session leads it (a warning says who)', async () => {
    await a.config.createAsLeader({ name: 'again', lead }, 'S1')
    await a.leader!.release('again', 'S1')
    const teamFile = join(home, 'S1', 'team.json')
    mkdirSync(join(home, 'S1'), { recursive: true })
    writeFileSync(teamFile, JSON.stringify({ schemaVersion: 1, team: 'again' }))
    const context = (sessionId: string, store: TeamStorePort, bus = new EventBus()) =>
      createTeamContext({ home, sessionId, bus, leaderName: 'team-lead', leaderLease: true, teamFile, store })
    const resumed = context('S1', a)
    expect(resumed.team()).toBeUndefined()
    await resumed.ready
    expect(resumed.team()).toBe('again')
    expect(await b.leader!.status('again')).toMatchObject({ state: 'alive', lease: { sessionId: 'S1' } })

    // the same team file read by another session while S1 leads: refused, with a notice
    const bus = new EventBus()
    const notices: RuntimeEvent[] = []
    bus.onEvent((e) => e.type === 'notice' && notices.push(e))
    const other = context('S2', b, bus)
    await other.ready
    expect(other.team()).toBeUndefined()
    expect(notices).toEqual([
      expect.objectContaining({
        level: 'warning',
        message: expect.stringMatching(/'again' is led by session S1, alive in process \d+/)
      })
    ])
    other.dispose()
    // S1 ends: its lease goes, and the team is stale
    resumed.dispose()
    await waitStale(b, 'again')
    expect(await b.leader!.status('again')).toMatchObject({ state: 'stale' })
  })
})
