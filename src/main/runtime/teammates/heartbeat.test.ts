import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { createFileTeamStore, openTeamStore } from '../teamStore'
import { NATS_SERVER, startNatsServer } from '../teamStore/natsServer.testkit'
import { CUT_OFF_EXIT_ENV, startHeartbeat } from './heartbeat'

describe.skipIf(!NATS_SERVER)("a teammate's heartbeat (docs/nats.md#liveness, docs/hosts.md#liveness)", () => {
  const home = mkdtempSync(join(tmpdir(), 'swarmdesk-beat-'))
  afterAll(() => rmSync(home, { recursive: true, force: true }))

  it('beats on a server; cut off from it past the bound it says so once, only when asked to', async () => {
    const server = await startNatsServer()
    const store = await openTeamStore(home, { kind: 'nats', servers: [server.url] }, { livenessTtlMs: 1_500 })
    const lead = { name: 'team-lead', agentType: 'team-lead', model: 'm', backendType: 'main' as const, cwd: '/w' }
    await store.config.create({ name: 'hb', lead })
    const cutOffs: { name: string; ms: number }[] = []
    const asked = startHeartbeat(store, 'hb', 'far', { [CUT_OFF_EXIT_ENV]: '2000' }, (ms) =>
      cutOffs.push({ name: 'far', ms })
    )!
    const patient = startHeartbeat(store, 'hb', 'near', {}, (ms) => cutOffs.push({ name: 'near', ms }))!
    try {
      await Promise.all([asked.first, patient.first])
      // a while with the server up: no cut-off
      await new Promise((r) => setTimeout(r, 2 * store.liveness.beatEveryMs))
      expect(cutOffs).toEqual([])
      await server.kill9()
      const until = Date.now() + 30_000
      while (cutOffs.length === 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 100))
      await new Promise((r) => setTimeout(r, 3 * store.liveness.beatEveryMs))
      expect(cutOffs).toEqual([{ name: 'far', ms: expect.any(Number) }])
      expect(cutOffs[0]!.ms).toBeGreaterThan(2000)
    } finally {
      await Promise.race([Promise.all([asked.stop(), patient.stop()]), new Promise((r) => setTimeout(r, 5_000))])
      await store.close().catch(() => undefined)
      await server.stop()
    }
  }, 90_000)

  it('does not beat on files (the leader sees the process there)', () => {
    expect(startHeartbeat(createFileTeamStore(home), 'hb', 'x', { [CUT_OFF_EXIT_ENV]: '1' }, () => undefined)).toBe(
      undefined
    )
  })
})
