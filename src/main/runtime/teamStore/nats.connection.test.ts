import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { TeamConnectionState } from '../../../shared/teamConnection'
import { startNatsServer, type NatsServer } from './natsServer.testkit'
import { createFileTeamStore, openTeamStore, parseTeamTransport } from '.'

// The team store's connection state (docs/nats.md#connection-state) against a real nats-server:
// a kill -9 of the server is seen as a lost connection, its restart on the same store and port as
// connected again, and the store works on after it.

const home = mkdtempSync(join(tmpdir(), 'swarmdesk-nats-connection-'))
let server: NatsServer
beforeAll(async () => {
  server = await startNatsServer()
}, 60_000)
afterAll(async () => {
  await server?.stop()
  rmSync(home, { recursive: true, force: true })
})

/** Resolves once `read()` returns `want` (the client reports within a moment; generous for a loaded machine). */
async function until(read: () => TeamConnectionState, want: TeamConnectionState, ms = 30_000): Promise<void> {
  const started = Date.now()
  while (read() !== want) {
    if (Date.now() - started > ms) throw new Error(`connection state stayed ${read()}, expected ${want}`)
    await new Promise((r) => setTimeout(r, 20))
  }
}

describe('the team store connection state', () => {
  it('is always connected on files', async () => {
    const store = createFileTeamStore(home)
    expect(store.connection.state()).toBe('connected')
    const seen: TeamConnectionState[] = []
    store.connection.onDidChange((s) => seen.push(s)).dispose()
    await store.close()
    expect(store.connection.state()).toBe('connected')
    expect(seen).toEqual([])
  })

  it('on a server: connected, lost through a kill -9 of nats-server, connected again once it is back, closed with the store', async () => {
    const store = await openTeamStore(home, parseTeamTransport(server.url))
    expect(store.connection.state()).toBe('connected')
    const seen: TeamConnectionState[] = []
    store.connection.onDidChange((s) => seen.push(s))
    await store.mailbox.send('conn', 'bob', { from: 'alice', text: 'before' })

    await server.kill9()
    await until(() => store.connection.state(), 'reconnecting')
    expect(seen[0]).toBe('disconnected')
    expect(seen).not.toContain('connected')

    await server.restart()
    await until(() => store.connection.state(), 'connected')
    expect(seen.at(-1)).toBe('connected')
    // the store works on, on the same store directory
    await store.mailbox.send('conn', 'bob', { from: 'alice', text: 'after' })
    expect((await store.mailbox.read('conn', 'bob')).map((e) => e.message.text)).toEqual(['before', 'after'])

    await store.close()
    await until(() => store.connection.state(), 'closed')
    expect(seen.at(-1)).toBe('closed')
    // no state reported twice in a row
    expect(seen.every((s, i) => i === 0 || seen[i - 1] !== s)).toBe(true)
  }, 90_000)
})
