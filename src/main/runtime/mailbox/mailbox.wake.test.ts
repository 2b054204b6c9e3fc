import { rmSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createMailbox } from './mailbox'
import { bundledWriter, tempHome } from './fixtures.testkit'
import { spawnWriter } from './processes.testkit'
import { activeInboxWatchers } from './watch'

describe('waiting for a message', () => {
  let script: string
  const { home, cleanup } = tempHome()
  beforeAll(async () => {
    script = await bundledWriter('wake')
  })
  afterAll(() => {
    cleanup()
    rmSync(script, { force: true })
  })

  it('wakes a reader waiting on an empty inbox when another process sends', async () => {
    // a poll far longer than the test timeout: only the directory watch can wake the reader
    const mailbox = createMailbox({ home, pollMs: 3_600_000 })
    const waiting = mailbox.waitForMessage('wake', 'idle-one')
    const w = spawnWriter(script, [home, 'wake', 'idle-one', 'other-process', '1'])
    const entry = await waiting
    await w.exited
    expect(entry.message.from).toBe('other-process')
    expect(entry.read).toBe(false)
    expect(w.report.acked).toEqual([entry.message.id])
    expect(activeInboxWatchers()).toBe(0)
  })

  it('returns a message already waiting, oldest first, without marking it read', async () => {
    const mailbox = createMailbox({ home })
    const first = await mailbox.send('wake', 'busy', { from: 'a', text: 'one' })
    await mailbox.send('wake', 'busy', { from: 'a', text: 'two' })
    expect((await mailbox.waitForMessage('wake', 'busy')).message.id).toBe(first.id)
    expect((await mailbox.waitForMessage('wake', 'busy')).message.id).toBe(first.id)
    await mailbox.markRead('wake', 'busy', [first.id])
    expect((await mailbox.waitForMessage('wake', 'busy')).message.text).toBe('two')
  })

  it('keeps a subscription alive when its listener throws, handing the error to onError', async () => {
    const mailbox = createMailbox({ home, pollMs: 3_600_000 })
    const errors: unknown[] = []
    let second: (() => void) | undefined
    const got = new Promise<void>((r) => (second = r))
    const sub = mailbox.onDidReceive(
      'wake',
      'throwy',
      (e) => {
        if (e.message.text === 'boom') throw new Error('listener bug')
        second?.()
      },
      { onError: (e) => errors.push(e) }
    )
    await sub.ready
    await mailbox.send('wake', 'throwy', { from: 'a', text: 'boom' })
    await mailbox.send('wake', 'throwy', { from: 'a', text: 'fine' })
    await got
    sub.dispose()
    expect(errors).toEqual([new Error('listener bug')])
  })

  it('reports each unread message once to a subscriber, those waiting first, then arrivals', async () => {
    const mailbox = createMailbox({ home, pollMs: 3_600_000 })
    await mailbox.send('wake', 'sub', { from: 'a', text: 'before' })
    const got: string[] = []
    let arrived: (() => void) | undefined
    const third = new Promise<void>((r) => (arrived = r))
    const sub = mailbox.onDidReceive('wake', 'sub', (e) => {
      got.push(e.message.text)
      if (got.length === 3) arrived?.()
    })
    await sub.ready
    await mailbox.send('wake', 'sub', { from: 'b', text: 'after-1' })
    await mailbox.send('wake', 'sub', { from: 'b', text: 'after-2' })
    await third
    sub.dispose()
    expect(got).toEqual(['before', 'after-1', 'after-2'])
    expect(activeInboxWatchers()).toBe(0)
  })
})
