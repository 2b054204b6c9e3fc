import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { TaskCycleError, TaskInputError, TaskNotFoundError, TaskStore } from '.'

let home: string
let store: TaskStore
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'swarmdesk-tasks-'))
  store = new TaskStore(home, 'alpha')
})
afterEach(() => rmSync(home, { recursive: true, force: true }))

describe('task store', () => {
  it('numbers tasks 1, 2, 3 and writes one file per task plus the high-water mark', async () => {
    const ids = [
      (await store.create({ subject: 'a' })).id,
      (await store.create({ subject: 'b' })).id,
      (await store.create({ subject: 'c' })).id
    ]
    expect(ids).toEqual([1, 2, 3])
    expect(JSON.parse(readFileSync(join(home, 'tasks/alpha/2.json'), 'utf8'))).toMatchObject({
      schemaVersion: 1,
      id: 2,
      subject: 'b',
      status: 'pending',
      blocks: [],
      blockedBy: []
    })
    expect(readFileSync(join(home, 'tasks/alpha/.highwatermark'), 'utf8').trim()).toBe('3')
  })

  it('never reuses an id after deletes, even of the newest task', async () => {
    for (let i = 0; i < 3; i++) await store.create({ subject: `t${i}` })
    await store.delete(3)
    await store.delete(2)
    expect((await store.create({ subject: 'next' })).id).toBe(4)
    await store.delete(4)
    await store.delete(1)
    expect(store.list().tasks).toEqual([])
    expect((await new TaskStore(home, 'alpha').create({ subject: 'again' })).id).toBe(5)
  })

  it('refuses a blocked task and lets it be claimed once every blocker is completed', async () => {
    await store.create({ subject: 'schema' })
    await store.create({ subject: 'api' })
    const ui = await store.create({ subject: 'ui', blockedBy: [1, 2] })
    expect(store.get(1)!.blocks).toEqual([3])
    expect(await store.claim(ui.id, 'carol')).toMatchObject({ ok: false, reason: 'blocked', taskIds: [1, 2] })
    await store.update(1, { status: 'completed' })
    expect(await store.claim(ui.id, 'carol')).toMatchObject({ ok: false, reason: 'blocked', taskIds: [2] })
    await store.update(2, { status: 'completed' })
    expect(await store.claim(ui.id, 'carol')).toMatchObject({
      ok: true,
      task: { owner: 'carol', status: 'in_progress' }
    })
  })

  it('answers already_claimed, agent_busy and not_found', async () => {
    await store.create({ subject: 'one' })
    await store.create({ subject: 'two' })
    expect(await store.claim(1, 'alice')).toMatchObject({ ok: true })
    expect(await store.claim(1, 'bob')).toMatchObject({
      ok: false,
      reason: 'already_claimed',
      task: { owner: 'alice' }
    })
    expect(await store.claim(2, 'alice')).toMatchObject({ ok: false, reason: 'agent_busy', taskIds: [1] })
    expect(await store.claim(9, 'alice')).toEqual({ ok: false, reason: 'not_found' })
    await store.update(1, { status: 'completed' })
    expect(await store.claim(1, 'bob')).toMatchObject({ ok: false, reason: 'already_claimed' })
    expect(await store.claim(2, 'alice')).toMatchObject({ ok: true })
  })

  it('keeps both sides of a link when adding blocks or blockedBy', async () => {
    for (const s of ['a', 'b', 'c']) await store.create({ subject: s })
    await store.update(1, { addBlocks: [2] })
    await store.update(3, { addBlockedBy: [2] })
    expect(store.list().tasks.map((t) => [t.id, t.blocks, t.blockedBy])).toEqual([
      [1, [2], []],
      [2, [3], [1]],
      [3, [], [2]]
    ])
    await expect(store.update(1, { addBlocks: [1] })).rejects.toBeInstanceOf(TaskInputError)
    await expect(store.update(1, { addBlocks: [7] })).rejects.toBeInstanceOf(TaskNotFoundError)
  })

  it('refuses a link that closes a dependency cycle, naming it, and writes nothing', async () => {
    for (const s of ['a', 'b', 'c', 'd']) await store.create({ subject: s })
    await store.update(2, { addBlockedBy: [1] })
    await store.update(3, { addBlockedBy: [2] })
    const files = () => store.list().tasks.map((t) => [t.id, t.blocks, t.blockedBy])
    const before = files()
    const twoStep = store.update(1, { addBlockedBy: [2] })
    await expect(twoStep).rejects.toBeInstanceOf(TaskCycleError)
    await expect(twoStep).rejects.toThrow('#1 → #2 → #1')
    // the other direction (addBlocks) and a longer cycle, the second link of a patch closing it
    await expect(store.update(3, { addBlocks: [1] })).rejects.toThrow('#3 → #2 → #1 → #3')
    await expect(store.update(1, { addBlockedBy: [4, 3], subject: 'renamed' })).rejects.toMatchObject({
      cycle: [1, 3, 2, 1]
    })
    expect(files()).toEqual(before)
    expect(store.get(1)!.subject).toBe('a')
    // links that close no cycle still go through, including a diamond
    await store.update(4, { addBlockedBy: [1, 2, 3] })
    await store.update(3, { addBlockedBy: [1] })
    expect(store.get(4)!.blockedBy).toEqual([1, 2, 3])
    await expect(store.update(4, { addBlocks: [1] })).rejects.toThrow('#4 → #1 → #4')
  })

  it('removes a deleted task from every other task’s links', async () => {
    for (const s of ['a', 'b', 'c']) await store.create({ subject: s })
    await store.update(2, { addBlockedBy: [1], addBlocks: [3] })
    await store.delete(2)
    expect(store.list().tasks.map((t) => [t.id, t.blocks, t.blockedBy])).toEqual([
      [1, [], []],
      [3, [], []]
    ])
    expect(await store.claim(3, 'x')).toMatchObject({ ok: true })
  })

  it('asks for a task_assignment when someone else assigns the task, never when an agent assigns itself', async () => {
    await store.create({ subject: 'a' })
    expect((await store.update(1, { owner: 'bob', by: 'team-lead' })).assignTo).toBe('bob')
    expect((await store.update(1, { owner: 'bob', by: 'team-lead' })).assignTo).toBeUndefined()
    expect((await store.update(1, { owner: 'carol', by: 'carol' })).assignTo).toBeUndefined()
    expect((await store.update(1, { owner: 'dave' })).assignTo).toBe('dave')
    expect((await store.update(1, { owner: null })).task.owner).toBeUndefined()
  })

  it('returns an exiting agent’s unfinished tasks to pending with no owner', async () => {
    for (const s of ['a', 'b', 'c']) await store.create({ subject: s })
    await store.claim(1, 'bob')
    await store.update(2, { owner: 'bob' })
    await store.update(3, { owner: 'bob', status: 'completed' })
    const released = await store.releaseOwnedBy('bob')
    expect(released.map((t) => t.id)).toEqual([1, 2])
    expect(store.list().tasks.map((t) => [t.status, t.owner])).toEqual([
      ['pending', undefined],
      ['pending', undefined],
      ['completed', 'bob']
    ])
  })

  it('reports a hand-edited invalid task file by name and keeps every valid task', async () => {
    for (const s of ['a', 'b', 'c']) await store.create({ subject: s })
    const bad = join(home, 'tasks/alpha/2.json')
    writeFileSync(bad, '{"id": 2, "subject": "b",')
    writeFileSync(join(home, 'tasks/alpha/3.json'), JSON.stringify({ ...store.get(3), status: 'done' }))
    const { tasks, problems } = store.list()
    expect(tasks.map((t) => t.id)).toEqual([1])
    expect(problems.map((p) => p.file)).toEqual([bad, join(home, 'tasks/alpha/3.json')])
    expect(problems[0].message).toContain('not valid JSON')
    expect(problems[1].message).toContain('status')
    expect((await store.create({ subject: 'd' })).id).toBe(4)
  })

  it('rejects a team name shaped like a path', () => {
    expect(() => new TaskStore(home, '../etc')).toThrow(TaskInputError)
  })
})
