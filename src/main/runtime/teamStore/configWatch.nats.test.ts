import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { TeamConfigChange } from '../teams'
import { pathsSeen, until } from './configWatch.testkit'
import { startNatsServer, type NatsServer } from './natsServer.testkit'
import { openTeamStore, parseTeamTransport } from '.'

// A config watch on a server (docs/nats.md#team-config) through a kill -9 of nats-server: restarted
// on the same store and port, the watch goes on — a change made once the server is back reaches it,
// once, and so does the team's deletion.

const home = mkdtempSync(join(tmpdir(), 'swarmdesk-config-watch-'))
let server: NatsServer
beforeAll(async () => {
  server = await startNatsServer()
}, 60_000)
afterAll(async () => {
  await server?.stop()
  rmSync(home, { recursive: true, force: true })
})

const lead = { name: 'team-lead', agentType: 'team-lead', model: 'm', backendType: 'main' as const, cwd: '/w' }

describe('a config watch on a NATS server', () => {
  it('lives through a kill -9 and restart of nats-server, missing nothing and reporting nothing twice', async () => {
    const transport = parseTeamTransport(server.url)
    const store = await openTeamStore(home, transport)
    const seen: TeamConfigChange[] = []
    try {
      await store.config.create({ name: 'crew', lead })
      const watch = store.config.watch('crew', (c) => seen.push(c))
      await watch.ready
      const before = await openTeamStore(home, transport)
      await before.config.update('crew', (c) => ({ ...c, allowedPaths: ['/before'] }))
      await before.close()
      await until('the change before the restart', () => seen.length === 1)

      await server.kill9()
      await until('the connection lost', () => store.connection.state() !== 'connected')
      await server.restart()
      // another process's store, opened once the server is back, changes the config at once: before
      // the watch's consumer is made again
      const after = await openTeamStore(home, transport)
      await after.config.update('crew', (c) => ({ ...c, allowedPaths: ['/before', '/after'] }))
      await until('the change after the restart', () => seen.length === 2, 60_000)
      await after.config.delete('crew')
      await after.close()
      await until('the deletion', () => seen.length === 3, 60_000)
      expect(pathsSeen(seen)).toEqual([['/before'], ['/before', '/after'], 'deleted'])
      watch.dispose()
    } finally {
      await store.close()
    }
  }, 120_000)
})
