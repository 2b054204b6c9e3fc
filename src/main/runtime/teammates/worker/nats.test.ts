import { randomUUID } from 'node:crypto'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { BroadcastChannel } from 'node:worker_threads'
import { describe, expect, it } from 'vitest'
import { startScriptedServer } from '../../scripted'
import { withMember } from '../../teams'
import { openTeamStore, transportEnv, type TeamTransport } from '../../teamStore'
import { NATS_SERVER, startNatsServer } from '../../teamStore/natsServer.testkit'
import type { TeammateSpawnConfig } from '../executor'
import { TEST_MODEL, until, useWorkerTestbed } from './worker.testkit'

/**
 * The NATS client is left out of the worker bundle and loads on the first team store opened on a
 * server (teamStore/open.ts, scripts/build-node.mjs WORKER_LAZY_PACKAGES;
 * docs/teams.md#worker-teammate-start-up): lazyLoad.test.ts checks a teammate on the files never
 * loads it; here one on a server does, and works.
 */
describe.skipIf(!NATS_SERVER)('a worker teammate of a team on a NATS server', () => {
  const bed = useWorkerTestbed('swarmdesk-worker-nats')

  it('loads the NATS client from node_modules on its first store and runs its turn there', async () => {
    const server = await startNatsServer()
    const model = await startScriptedServer({ scenario: { agents: { alice: [{ text: 'Ready on the server.' }] } } })
    const transport: TeamTransport = { kind: 'nats', servers: [server.url] }
    const store = await openTeamStore(bed.home, transport)
    const channel = `swarmdesk-nats-${randomUUID()}`
    const prelude = join(bed.home, `modules-${randomUUID()}.cjs`)
    writeFileSync(
      prelude,
      [
        "const { BroadcastChannel } = require('node:worker_threads')",
        `const channel = new BroadcastChannel(${JSON.stringify(channel)})`,
        'channel.unref()',
        "channel.onmessage = (event) => { if (event.data === 'modules?') channel.postMessage(Object.keys(require.cache)) }"
      ].join('\n')
    )
    const ask = new BroadcastChannel(channel)
    try {
      const lead = {
        name: 'team-lead',
        agentType: 'main',
        model: TEST_MODEL,
        backendType: 'main' as const,
        cwd: bed.work
      }
      await store.config.create({ name: 'served', lead })
      let agentId = ''
      let color = ''
      await store.config.update('served', (config) => {
        const { config: next, added } = withMember(config, {
          name: 'alice',
          agentType: 'general-purpose',
          model: TEST_MODEL,
          backendType: 'worker',
          cwd: bed.work,
          isActive: false,
          mode: 'default'
        })
        agentId = added.agentId
        color = added.color
        return next
      })
      await store.mailbox.send('served', 'alice', { from: 'team-lead', text: 'Say that you are ready.' })
      const config: TeammateSpawnConfig = {
        home: bed.home,
        team: 'served',
        name: 'alice',
        agentId,
        cwd: bed.work,
        color,
        model: TEST_MODEL,
        mode: 'default',
        planModeRequired: false,
        sessionId: randomUUID(),
        leaderAgentId: 'team-lead@served',
        store,
        env: {
          ...transportEnv(transport, {}),
          ANTHROPIC_BASE_URL: model.url,
          SWARMDESK_SCRIPTED_MODEL_URL: model.url,
          ANTHROPIC_API_KEY: 'test-key'
        }
      }
      await bed.executor({ prelude, warmSpare: false }).spawn(config)
      await until(
        "alice's idle notification on the server",
        async () =>
          (await store.mailbox.read('served', 'team-lead')).some(
            (m) => m.message.from === 'alice' && m.message.text.includes('idle_notification')
          ),
        60_000
      )
      expect(model.requests().filter((r) => r.agentName === 'alice')).toHaveLength(1)
      const files = await new Promise<string[]>((resolve) => {
        ask.onmessage = (event) => resolve((event as { data: string[] }).data)
        ask.postMessage('modules?')
      })
      expect(files.filter((f) => f.includes(join('node_modules', '@nats-io', 'jetstream')))).not.toEqual([])
    } finally {
      ask.close()
      await store.close().catch(() => undefined)
      await model.close()
      await server.stop()
    }
  }, 90_000)
})
