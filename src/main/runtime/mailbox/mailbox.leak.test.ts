import { describe, expect, it, vi } from 'vitest'
import { MailboxAbortError } from './errors'
import { createMailbox } from './mailbox'
import { tempHome } from './fixtures.testkit'
import { activeInboxWatchers } from './watch'

/** fs.watch handles the process holds, by Node's own count (not ours). */
function fsWatchHandles(): number {
  return process.getActiveResourcesInfo().filter((r) => r === 'FSEventWrap').length
}

describe('mailbox watchers do not leak', () => {
  it('releases the directory watch and the poll timer when waitForMessage is aborted', async () => {
    const { home, cleanup } = tempHome()
    const mailbox = createMailbox({ home })
    const before = fsWatchHandles()
    for (let i = 0; i < 20; i++) {
      const ac = new AbortController()
      const waiting = mailbox.waitForMessage('leak', 'idle', { signal: ac.signal })
      await vi.waitFor(() => expect(activeInboxWatchers()).toBe(1))
      expect(fsWatchHandles()).toBeGreaterThan(before)
      ac.abort()
      await expect(waiting).rejects.toBeInstanceOf(MailboxAbortError)
      expect(activeInboxWatchers()).toBe(0)
    }
    // libuv closes a watch handle on a later turn of the loop
    await vi.waitFor(() => expect(fsWatchHandles()).toBe(before))
    cleanup()
  })

  it('rejects at once, watching nothing, for a signal already aborted', async () => {
    const { home, cleanup } = tempHome()
    await expect(
      createMailbox({ home }).waitForMessage('leak', 'idle', { signal: AbortSignal.abort() })
    ).rejects.toBeInstanceOf(MailboxAbortError)
    expect(activeInboxWatchers()).toBe(0)
    cleanup()
  })

  it('releases a subscription on dispose, even one disposed before it was ready', async () => {
    const { home, cleanup } = tempHome()
    const mailbox = createMailbox({ home })
    const early = mailbox.onDidReceive('leak', 'sub', () => undefined)
    early.dispose()
    await early.ready
    const live = mailbox.onDidReceive('leak', 'sub', () => undefined)
    await live.ready
    expect(activeInboxWatchers()).toBe(1)
    live.dispose()
    expect(activeInboxWatchers()).toBe(0)
    cleanup()
  })
})
