import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { RuntimeEvent } from '../../../shared/events'
import { EventBus } from '../events'
import { withMember } from '../teams'
import { createFileTeamStore, openTeamStore, type TeamStorePort } from '../teamStore'
import { startNatsServer, type NatsServer } from '../teamStore/natsServer.testkit'
import { reapOnTimer } from './reaper'

const lead = { name: 'team-lead', agentType: 'team-lead', model: 'm', backendType: 'main' as const, cwd: '/w' }
const mate = (name: string) => ({
  name,
  agentType: 'general-purpose',
  model: 'm',
  backendType: 'process' as const,
  cwd: '/w'
})

describe('the leader reaping teammates that stopped beating (docs/nats.md#liveness)', () => {
  const home = mkdtempSync(join(tmpdir(), 'swarmdesk-reaper-'))
  let server: NatsServer
  let store: TeamStorePort
  beforeAll(async () => {
    server = await startNatsServer()
    store = await openTeamStore(home, { kind: 'nats', servers: [server.url] }, { livenessTtlMs: 1_000 })
  }, 60_000)
  afterAll(async () => {
    await store?.close()
    await server?.stop()
    rmSync(home, { recursive: true, force: true })
  })

  it('on a server: marks a silent teammate inactive, frees its task and says so; spares one it runs and one that beats', async () => {
    await store.config.create({ name: 'reap', lead })
    const longAgo = new Date(Date.now() - 60_000).toISOString()
    for (const name of ['ghost', 'mine', 'live'])
      await store.config.update('reap', (c) => {
        const next = withMember(c, mate(name)).config
        return { ...next, members: next.members.map((m) => (m.name === name ? { ...m, joinedAt: longAgo } : m)) }
      })
    for (const owner of ['ghost', 'mine']) {
      const task = await store.tasks.create('reap', { subject: `${owner}'s` })
      expect((await store.tasks.claim('reap', task.id, owner)).ok).toBe(true)
    }
    const bus = new EventBus()
    const notices: RuntimeEvent[] = []
    bus.onEvent((e) => e.type === 'notice' && notices.push(e))
    const beating = setInterval(() => void store.liveness.beat('reap', 'live'), store.liveness.beatEveryMs)
    await store.liveness.beat('reap', 'live')
    const reaper = reapOnTimer({ store, team: () => 'reap' }, bus, () => ['mine'], 100)
    try {
      while (notices.length === 0) await new Promise((r) => setTimeout(r, 50))
    } finally {
      reaper.dispose()
      clearInterval(beating)
    }
    expect(notices).toEqual([
      expect.objectContaining({ level: 'warning', message: expect.stringMatching(/ghost stopped beating.*#1/) })
    ])
    const active = Object.fromEntries((await store.config.read('reap')).members.map((m) => [m.name, m.isActive]))
    expect(active).toMatchObject({ ghost: false, mine: true, live: true })
    const tasks = await store.tasks.list('reap')
    expect(tasks.map((t) => [t.id, t.status, t.owner])).toEqual([
      [1, 'pending', undefined],
      [2, 'in_progress', 'mine']
    ])
  }, 60_000)

  it('on a server: reaps nobody while the connection is lost, nor for a bound after it is back, so a teammate that beats again within it is spared', async () => {
    // a server of its own: a longer TTL than the other test's store, so the bound outlasts a request
    // held through the outage (each is retried until the server is back)
    const own = await startNatsServer()
    const outageHome = mkdtempSync(join(tmpdir(), 'swarmdesk-reaper-outage-'))
    const s = await openTeamStore(outageHome, { kind: 'nats', servers: [own.url] }, { livenessTtlMs: 3_000 })
    const pause = (ms: number) => new Promise((r) => setTimeout(r, ms))
    let beating: NodeJS.Timeout | undefined
    let reaper: { dispose(): void } | undefined
    try {
      await s.config.create({ name: 'outage', lead })
      const longAgo = new Date(Date.now() - 60_000).toISOString()
      await s.config.update('outage', (c) => {
        const next = withMember(c, mate('steady')).config
        return { ...next, members: next.members.map((m) => (m.name === 'steady' ? { ...m, joinedAt: longAgo } : m)) }
      })
      const task = await s.tasks.create('outage', { subject: "steady's" })
      expect((await s.tasks.claim('outage', task.id, 'steady')).ok).toBe(true)
      const bus = new EventBus()
      const notices: RuntimeEvent[] = []
      bus.onEvent((e) => e.type === 'notice' && notices.push(e))
      const beat = () => void s.liveness.beat('outage', 'steady').catch(() => undefined)
      await s.liveness.beat('outage', 'steady')
      beating = setInterval(beat, s.liveness.beatEveryMs)
      reaper = reapOnTimer({ store: s, team: () => 'outage' }, bus, () => [], 100)

      await own.kill9()
      clearInterval(beating)
      while (s.connection.state() === 'connected') await pause(50)
      // away for longer than the liveness bound: its heartbeat has expired when the server is back
      await pause(s.liveness.boundMs + 500)
      await own.restart()
      while (s.connection.state() !== 'connected') await pause(50)
      const back = Date.now()
      // the server drops the expired heartbeat; the teammate, slower to reconnect, beats again
      // three quarters of a bound after the server's return
      while ((await s.liveness.alive('outage')).has('steady')) await pause(50)
      await pause(Math.max(0, back + (s.liveness.boundMs * 3) / 4 - Date.now()))
      beat()
      beating = setInterval(beat, s.liveness.beatEveryMs)
      await pause(s.liveness.boundMs + 500)

      expect(notices).toEqual([])
      expect((await s.config.read('outage')).members.find((m) => m.name === 'steady')?.isActive).toBe(true)
      expect((await s.tasks.get('outage', task.id))?.owner).toBe('steady')
    } finally {
      reaper?.dispose()
      clearInterval(beating)
      await s.close()
      await own.stop()
      rmSync(outageHome, { recursive: true, force: true })
    }
  }, 90_000)

  it('on files: runs no timer, so a member without a process record stays active (the supervisor sees its teammates end)', async () => {
    const files = createFileTeamStore(home)
    await files.config.create({ name: 'quiet', lead })
    await files.config.update('quiet', (c) => {
      const next = withMember(c, mate('ghost')).config
      const longAgo = new Date(Date.now() - 60_000).toISOString()
      return { ...next, members: next.members.map((m) => (m.name === 'ghost' ? { ...m, joinedAt: longAgo } : m)) }
    })
    const reaper = reapOnTimer({ store: files, team: () => 'quiet' }, new EventBus(), () => [], 10)
    await new Promise((r) => setTimeout(r, 300))
    reaper.dispose()
    expect((await files.config.read('quiet')).members.find((m) => m.name === 'ghost')?.isActive).toBe(true)
  })
})
