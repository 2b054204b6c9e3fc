import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createFileTeamStore } from '../teamStore'
import { TaskStore, taskDir } from '../tasks'
import { claimableTasks, claimNextTask, waitForWork } from './idleWork'

let home: string
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'swarmdesk-idle-work-'))
})
afterEach(() => rmSync(home, { recursive: true, force: true }))

/** Settles to 'woke' when `p` resolves within `ms`, else 'waiting'. */
async function within(p: Promise<unknown>, ms: number): Promise<'woke' | 'waiting'> {
  let timer: NodeJS.Timeout | undefined
  const result = await Promise.race([
    p.then(() => 'woke' as const),
    new Promise<'waiting'>((r) => (timer = setTimeout(() => r('waiting'), ms)))
  ])
  clearTimeout(timer)
  return result
}

describe('claimableTasks', () => {
  it('offers exactly what a claim would accept: own pending first, then unowned unblocked, never while busy', async () => {
    const tasks = new TaskStore(home, 't')
    await tasks.create({ subject: 'one' })
    await tasks.create({ subject: 'two', blockedBy: [1] })
    await tasks.create({ subject: 'three', owner: 'bob' })
    await tasks.create({ subject: 'four', owner: 'alice' })
    expect(claimableTasks(tasks.list(), 'alice').map((t) => t.id)).toEqual([4, 1])
    await tasks.update(1, { owner: 'carol', status: 'in_progress' })
    expect(claimableTasks(tasks.list(), 'alice').map((t) => t.id)).toEqual([4])
    // busy with a task in progress: a claim would be refused (agent_busy), so nothing is offered
    await tasks.update(4, { status: 'in_progress' })
    expect(claimableTasks(tasks.list(), 'alice')).toEqual([])
    expect(await claimNextTask(tasks.list(), (id) => tasks.claim(id, 'alice'), 'alice')).toBeUndefined()
  })

  it('a blocker whose file is unreadable blocks; a deleted one does not', async () => {
    const tasks = new TaskStore(home, 't')
    await tasks.create({ subject: 'blocker' })
    await tasks.create({ subject: 'blocked', blockedBy: [1] })
    writeFileSync(join(taskDir(home, 't'), '1.json'), '{ torn')
    expect(claimableTasks(tasks.list(), 'alice')).toEqual([])
    rmSync(join(taskDir(home, 't'), '1.json'))
    expect(claimableTasks(tasks.list(), 'alice').map((t) => t.id)).toEqual([2])
  })
})

describe('waitForWork', () => {
  it('returns at once for a task created after the caller looked but before the watch was up', async () => {
    // the caller's look found nothing; the task appears before waitForWork installs its watch
    await new TaskStore(home, 't').create({ subject: 'created in the gap' })
    const stop = new AbortController()
    expect(await within(waitForWork(createFileTeamStore(home), 't', 'alice', stop.signal), 1_000)).toBe('woke')
  })

  it('keeps waiting while the only task is one it cannot claim, and wakes for a message', async () => {
    const tasks = new TaskStore(home, 't')
    await tasks.create({ subject: 'theirs', owner: 'bob' })
    const store = createFileTeamStore(home)
    const stop = new AbortController()
    const waiting = waitForWork(store, 't', 'alice', stop.signal)
    expect(await within(waiting, 300)).toBe('waiting')
    await store.mailbox.send('t', 'alice', { from: 'team-lead', text: 'hello' })
    expect(await within(waiting, 5_000)).toBe('woke')
  })

  it('wakes on a task change from another store, and on stop without throwing', async () => {
    const store = createFileTeamStore(home)
    const stop = new AbortController()
    const waiting = waitForWork(store, 't', 'alice', stop.signal)
    expect(await within(waiting, 200)).toBe('waiting')
    await new TaskStore(home, 't').create({ subject: 'new work' })
    expect(await within(waiting, 5_000)).toBe('woke')
    const stopped = waitForWork(store, 'other', 'alice', stop.signal)
    stop.abort()
    await expect(stopped).resolves.toBeUndefined()
  })
})
