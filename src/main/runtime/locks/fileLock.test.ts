import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildChild, startChild } from '../tasks/children.testkit'
import { acquireLock, currentOwner, LockTimeoutError, withLock } from '.'

let entry: string
let dir: string
beforeAll(async () => {
  entry = await buildChild()
  dir = mkdtempSync(join(tmpdir(), 'swarmdesk-lock-'))
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe('file lock', () => {
  it('breaks at once the lock of a holder killed with kill -9, because its owner is dead', async () => {
    const path = join(dir, 'killed.lock')
    const holder = startChild(entry, { op: 'holdLock', path })
    await holder.ready
    const exited = new Promise((r) => holder.proc.once('exit', r))
    holder.proc.kill('SIGKILL')
    await exited
    // a timeout far longer than the test's: only breaking the lock can let this through
    const lock = await acquireLock(path, { timeoutMs: 10 * 60_000 })
    lock.release()
    expect(lock.broken).toEqual([
      { owner: { pid: holder.proc.pid, startTime: expect.any(String) }, reason: 'owner_dead' }
    ])
  })

  it('waits for a live holder in another process, names it when giving up, and leaves no watcher', async () => {
    const path = join(dir, 'live.lock')
    const holder = startChild(entry, { op: 'holdLock', path })
    await holder.ready
    const watchers = () => process.getActiveResourcesInfo().filter((r) => r === 'FSEventWrap').length
    const before = watchers()
    try {
      const error = await acquireLock(path, { timeoutMs: 100 }).catch((e: unknown) => e)
      expect(error).toBeInstanceOf(LockTimeoutError)
      expect((error as LockTimeoutError).holder?.pid).toBe(holder.proc.pid)
      // a closed handle leaves the active list a few loop turns later
      for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r))
      expect(watchers(), 'the waiter closed its watch on the lock folder').toBe(before)
    } finally {
      holder.proc.kill('SIGKILL')
    }
  })

  it('breaks a lock whose pid now belongs to another process (start time differs)', async () => {
    const path = join(dir, 'reused.lock')
    const lock = {
      schemaVersion: 1,
      pid: process.pid,
      startTime: '1',
      token: 'old',
      acquiredAt: new Date(0).toISOString()
    }
    writeFileSync(path, JSON.stringify(lock))
    const held = await acquireLock(path, { timeoutMs: 10 * 60_000 })
    held.release()
    expect(held.broken).toEqual([{ owner: { pid: process.pid, startTime: '1' }, reason: 'pid_reused' }])
    expect(currentOwner().startTime).not.toBe('1')
  })

  it('serialises holders in one process without losing an update', async () => {
    const path = join(dir, 'local.lock')
    let counter = 0
    await Promise.all(
      Array.from({ length: 50 }, () =>
        withLock(path, async () => {
          const seen = counter
          await new Promise((r) => setImmediate(r))
          counter = seen + 1
        })
      )
    )
    expect(counter).toBe(50)
  })
})
