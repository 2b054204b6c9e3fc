import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { TaskChange } from '../../../shared/tasks'
import { TaskStore } from '.'
import { buildChild, startChild } from './children.testkit'

let entry: string
let home: string
beforeAll(async () => {
  entry = await buildChild()
  home = mkdtempSync(join(tmpdir(), 'swarmdesk-tasks-watch-'))
})
afterAll(() => rmSync(home, { recursive: true, force: true }))

const watchers = () => process.getActiveResourcesInfo().filter((r) => r === 'FSEventWrap').length

function next(store: TaskStore, match: (c: TaskChange) => boolean): Promise<TaskChange> {
  return new Promise((resolve) => {
    const sub = store.onDidChange((c) => {
      if (!match(c)) return
      sub.dispose()
      resolve(c)
    })
  })
}

describe('task change notifications', () => {
  // first in the file: no watcher of another test may be closing meanwhile
  it('closes its watcher on dispose: 20 subscriptions leave no watcher behind', async () => {
    const store = new TaskStore(home, 'leak')
    const tick = async () => {
      for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r))
    }
    await tick()
    const before = watchers()
    const subs = Array.from({ length: 20 }, () => store.onDidChange(() => {}))
    expect(watchers()).toBe(before + 20)
    for (const s of subs) s.dispose()
    subs[0].dispose()
    await tick()
    expect(watchers()).toBe(before)
  })
  it('delivers the whole task after a change made by another process', async () => {
    const store = new TaskStore(home, 'watched')
    await store.create({ subject: 'before' })
    const seen = next(store, (c) => c.type === 'updated' && c.task.subject === 'after')
    const child = startChild(entry, { op: 'update', home, team: 'watched', id: 1, subject: 'after' })
    await child.lines
    expect(await seen).toMatchObject({
      type: 'updated',
      team: 'watched',
      task: { id: 1, subject: 'after', status: 'pending' }
    })
  })

  it('delivers each state of this process’s own changes once, and deletions', async () => {
    const store = new TaskStore(home, 'own')
    const changes: TaskChange[] = []
    const sub = store.onDidChange((c) => changes.push(c))
    await store.create({ subject: 'a' })
    await store.claim(1, 'bob')
    await store.delete(1)
    await new Promise((r) => setTimeout(r, 50))
    sub.dispose()
    expect(
      changes.map((c) => (c.type === 'updated' ? `${c.task.status}:${c.task.owner ?? ''}` : `deleted:${c.id}`))
    ).toEqual(['pending:', 'in_progress:bob', 'deleted:1'])
  })
})
