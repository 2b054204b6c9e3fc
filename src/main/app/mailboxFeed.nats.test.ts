import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { MailboxChange, MailboxEntry } from '../../shared/ipc'
import { openTeamStore, type TeamStorePort } from '../runtime/teamStore'
import { startNatsServer, type NatsServer } from '../runtime/teamStore/natsServer.testkit'
import { MailboxFeed } from './mailboxFeed'

/** Resolves once the feed's list satisfies `ok`, checked after every change (the test's timeout bounds it). */
async function until(feed: MailboxFeed, ok: (entries: MailboxEntry[]) => boolean): Promise<MailboxEntry[]> {
  for (;;) {
    const entries = feed.list().entries
    if (ok(entries)) return entries
    await new Promise<MailboxChange>((resolve) => {
      const sub = feed.onDidChange((c) => {
        sub.dispose()
        resolve(c)
      })
    })
  }
}

const lead = { name: 'team-lead', agentType: 'team-lead', model: 'm', backendType: 'main' as const, cwd: '/tmp' }

describe('the mailbox inspector feed on a JetStream team store', () => {
  const home = mkdtempSync(join(tmpdir(), 'swarmdesk-feed-nats-'))
  let server: NatsServer
  let store: TeamStorePort
  let other: TeamStorePort
  beforeAll(async () => {
    server = await startNatsServer()
    const transport = { kind: 'nats' as const, servers: [server.url] }
    ;[store, other] = await Promise.all([openTeamStore(home, transport), openTeamStore(home, transport)])
  }, 60_000)
  afterAll(async () => {
    await store?.close()
    await other?.close()
    await server?.stop()
    rmSync(home, { recursive: true, force: true })
  })

  it('shows the messages stored before and after it follows the team, with reads made from another connection', async () => {
    await store.config.create({ name: 'feed', lead })
    const first = await other.mailbox.send('feed', 'ann', { from: 'team-lead', text: 'before', summary: 's1' })
    await other.mailbox.markRead('feed', 'ann', [first.id])
    const feed = new MailboxFeed({ home, store })
    feed.follow('feed')
    await until(feed, (e) => e.length === 1 && e[0]!.read)
    const second = await other.mailbox.send('feed', 'bob', { from: 'ann', text: 'after', summary: 's2' })
    await until(feed, (e) => e.length === 2)
    await other.mailbox.markRead('feed', 'bob', [second.id])
    const entries = await until(feed, (e) => e.length === 2 && e.every((x) => x.read))
    expect(entries.map((e) => [e.to, e.from, e.id])).toEqual([
      ['ann', 'team-lead', first.id],
      ['bob', 'ann', second.id]
    ])
    feed.follow(undefined)
    expect(feed.list()).toMatchObject({ team: 'feed', deleted: true })
    feed.dispose()
    expect(existsSync(join(home, 'teams'))).toBe(false)
  })
})
