import { mkdirSync, readdirSync, utimesSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { InvalidMessageError, InvalidNameError } from './errors'
import { createMailbox } from './mailbox'
import { sanitizeName } from './names'
import { tempHome } from './fixtures.testkit'

describe('reading and marking an inbox', () => {
  it('creates the inbox on the first message and lays it out as tmp/ new/ cur/', async () => {
    const { home, cleanup } = tempHome()
    const mailbox = createMailbox({ home })
    expect(await mailbox.read('alpha', 'bob')).toEqual({ messages: [], problems: [] })
    const { id, path } = await mailbox.send('alpha', 'bob', {
      from: 'team-lead',
      text: 'hello',
      summary: 'greeting',
      color: 'blue'
    })
    expect(path).toBe(join(home, 'teams', 'alpha', 'inboxes', 'bob', 'new', `${id}.json`))
    expect(readdirSync(join(home, 'teams', 'alpha', 'inboxes', 'bob')).sort()).toEqual(['cur', 'new', 'tmp'])
    const [entry] = (await mailbox.read('alpha', 'bob')).messages
    expect(entry).toMatchObject({
      read: false,
      message: { schemaVersion: 1, id, from: 'team-lead', to: 'bob', text: 'hello', summary: 'greeting', color: 'blue' }
    })
    cleanup()
  })

  it('keeps read state per message: reads change nothing, markRead moves one message to cur/', async () => {
    const { home, cleanup } = tempHome()
    const mailbox = createMailbox({ home })
    const a = await mailbox.send('alpha', 'bob', { from: 'x', text: 'a' })
    const b = await mailbox.send('alpha', 'bob', { from: 'x', text: 'b' })
    await mailbox.read('alpha', 'bob')
    expect((await mailbox.read('alpha', 'bob', { unreadOnly: true })).messages).toHaveLength(2)
    expect(await mailbox.markRead('alpha', 'bob', [a.id, a.id, 'nope'])).toEqual({
      marked: [a.id, a.id],
      missing: ['nope']
    })
    const all = (await mailbox.read('alpha', 'bob')).messages
    expect(all.map((e) => [e.message.text, e.read])).toEqual([
      ['a', true],
      ['b', false]
    ])
    expect((await mailbox.read('alpha', 'bob', { unreadOnly: true })).messages.map((e) => e.message.id)).toEqual([b.id])
    cleanup()
  })

  it('reports a hand-edited invalid file with its path and skips it, keeping the valid ones', async () => {
    const { home, cleanup } = tempHome()
    const mailbox = createMailbox({ home })
    await mailbox.send('alpha', 'bob', { from: 'x', text: 'ok-1' })
    const paths = mailbox.paths('alpha', 'bob')
    writeFileSync(join(paths.new, '0000000000001-000000-x-y-broken.json'), '{"schemaVersion": 1, "id": ')
    writeFileSync(
      join(paths.cur, '0000000000002-000000-x-y-nofrom.json'),
      JSON.stringify({
        schemaVersion: 1,
        id: '0000000000002-000000-x-y-nofrom',
        to: 'bob',
        text: 't',
        timestamp: 'now'
      })
    )
    await mailbox.send('alpha', 'bob', { from: 'x', text: 'ok-2' })
    const { messages, problems } = await mailbox.read('alpha', 'bob')
    expect(messages.map((e) => e.message.text)).toEqual(['ok-1', 'ok-2'])
    expect(problems.map((p) => p.path)).toEqual([
      join(paths.cur, '0000000000002-000000-x-y-nofrom.json'),
      join(paths.new, '0000000000001-000000-x-y-broken.json')
    ])
    expect(problems[0]!.problem).toMatch(/from/)
    expect(problems[1]!.problem).toMatch(/not JSON/)
    cleanup()
  })

  it('reports a directory posing as a message file instead of failing the read', async () => {
    const { home, cleanup } = tempHome()
    const mailbox = createMailbox({ home })
    await mailbox.send('alpha', 'bob', { from: 'x', text: 'ok' })
    const odd = join(mailbox.paths('alpha', 'bob').new, 'odd.json')
    mkdirSync(odd)
    const { messages, problems } = await mailbox.read('alpha', 'bob')
    expect(messages).toHaveLength(1)
    expect(problems).toEqual([{ path: odd, problem: expect.stringMatching(/cannot be read/) }])
    cleanup()
  })

  it('delivers with fsync on when asked (durable against power loss too)', async () => {
    const { home, cleanup } = tempHome()
    const mailbox = createMailbox({ home, fsync: true })
    const { id } = await mailbox.send('alpha', 'bob', { from: 'x', text: 'durable' })
    expect((await mailbox.read('alpha', 'bob')).messages.map((e) => e.message.id)).toEqual([id])
    expect(readdirSync(mailbox.paths('alpha', 'bob').tmp)).toEqual([])
    cleanup()
  })

  it('never reads tmp/, and sweeps tmp/ files older than the stale age', async () => {
    const { home, cleanup } = tempHome()
    // no send through this instance: its first send would start a background sweep of its own
    const mailbox = createMailbox({ home })
    const { tmp } = mailbox.paths('alpha', 'bob')
    mkdirSync(tmp, { recursive: true })
    writeFileSync(join(tmp, 'half.json'), '{"schemaVer')
    writeFileSync(join(tmp, 'fresh.json'), '{')
    const old = (Date.now() - 11 * 60_000) / 1000
    utimesSync(join(tmp, 'half.json'), old, old)
    expect((await mailbox.read('alpha', 'bob')).problems).toEqual([])
    expect(await mailbox.sweep('alpha', 'bob')).toBe(1)
    expect(readdirSync(tmp)).toEqual(['fresh.json'])
    cleanup()
  })

  it('orders messages by send time, ties by name (FIFO for one sender)', async () => {
    const { home, cleanup } = tempHome()
    const mailbox = createMailbox({ home })
    for (let i = 0; i < 30; i++) await mailbox.send('alpha', 'bob', { from: 'x', text: String(i) })
    expect((await mailbox.read('alpha', 'bob')).messages.map((e) => e.message.text)).toEqual(
      Array.from({ length: 30 }, (_, i) => String(i))
    )
    cleanup()
  })

  it('rejects bad team and agent names with the fix, before touching the disk', async () => {
    const { home, cleanup } = tempHome()
    const mailbox = createMailbox({ home })
    await expect(mailbox.send('../etc', 'bob', { from: 'x', text: 't' })).rejects.toBeInstanceOf(InvalidNameError)
    await expect(mailbox.send('alpha', '../../x', { from: 'x', text: 't' })).rejects.toThrow(
      /to '..\/..\/x' must be 1-64 characters of \[a-z0-9-\]/
    )
    await expect(mailbox.read('alpha', 'Bob Smith')).rejects.toThrow(/did you mean 'bob-smith'/)
    await expect(mailbox.send('alpha', 'bob', { from: '', text: 't' })).rejects.toBeInstanceOf(InvalidMessageError)
    expect(readdirSync(home)).toEqual([])
    expect(sanitizeName('  Alice_Smith!! ')).toBe('alice-smith')
    cleanup()
  })

  it('broadcasts to every member but the sender', async () => {
    const { home, cleanup } = tempHome()
    const mailbox = createMailbox({ home })
    const sent: string[] = []
    const sub = mailbox.onDidSend((e) => sent.push(`${e.message.to}:${e.kind}`))
    const results = await mailbox.broadcast('alpha', ['team-lead', 'alice', 'bob', 'alice'], {
      from: 'team-lead',
      text: 'standup'
    })
    sub.dispose()
    expect(results).toHaveLength(2)
    expect(sent.sort()).toEqual(['alice:plain', 'bob:plain'])
    expect((await mailbox.read('alpha', 'team-lead')).messages).toEqual([])
    await expect(mailbox.broadcast('alpha', ['ok', 'Not OK'], { from: 'x', text: 't' })).rejects.toBeInstanceOf(
      InvalidNameError
    )
    expect((await mailbox.read('alpha', 'ok')).messages).toEqual([])
    cleanup()
  })
})
