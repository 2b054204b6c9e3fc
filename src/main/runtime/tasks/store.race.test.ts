import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ClaimResult } from '../../../shared/tasks'
import { TaskStore } from '.'
import { buildChild, startChild } from './children.testkit'

let entry: string
let home: string
beforeAll(async () => {
  entry = await buildChild()
  home = mkdtempSync(join(tmpdir(), 'swarmdesk-tasks-race-'))
})
afterAll(() => rmSync(home, { recursive: true, force: true }))

describe('task store under concurrent processes', () => {
  it('lets exactly one of 8 racing claimants (5 processes, 3 in-process) win; the other 7 get already_claimed', async () => {
    for (let round = 0; round < 2; round++) {
      const team = `claim-${round}`
      const store = new TaskStore(home, team)
      const { id } = await store.create({ subject: 'the prize' })
      const go = join(home, `go-${round}`)
      const children = Array.from({ length: 5 }, (_, i) =>
        startChild(entry, { op: 'claim', home, team, id, agent: `proc-${i}`, go })
      )
      await Promise.all(children.map((c) => c.ready))
      writeFileSync(go, '')
      const local = ['a', 'b', 'c'].map((n) => new TaskStore(home, team).claim(id, `local-${n}`))
      const results = [
        ...(await Promise.all(children.map(async (c) => (await c.lines)[0] as ClaimResult))),
        ...(await Promise.all(local))
      ]
      const winners = results.filter((r) => r.ok)
      expect(winners).toHaveLength(1)
      expect(results.filter((r) => !r.ok && r.reason === 'already_claimed')).toHaveLength(7)
      expect(store.get(id)!.owner).toBe(winners[0].ok && winners[0].task.owner)
    }
  }, 60_000)

  it('gives two processes creating 50 tasks each 100 distinct ids, and all 100 files exist', async () => {
    const team = 'creators'
    const go = join(home, 'go-create')
    const children = ['p', 'q'].map((prefix) =>
      startChild(entry, { op: 'createMany', home, team, count: 50, prefix, go })
    )
    await Promise.all(children.map((c) => c.ready))
    writeFileSync(go, '')
    const ids = (await Promise.all(children.map(async (c) => (await c.lines)[0] as number[]))).flat()
    expect(new Set(ids).size).toBe(100)
    expect(ids.sort((a, b) => a - b)).toEqual(Array.from({ length: 100 }, (_, i) => i + 1))
    expect(readdirSync(join(home, 'tasks', team)).filter((f) => f.endsWith('.json'))).toHaveLength(100)
    expect(new TaskStore(home, team).list()).toMatchObject({ problems: [] })
  }, 60_000)

  it('lets no two processes close a dependency cycle between them: of 1 ⇠ 2, 2 ⇠ 3, 3 ⇠ 1 linked at once, two links stand and the third is refused', async () => {
    for (let round = 0; round < 3; round++) {
      const team = `cycle-${round}`
      const store = new TaskStore(home, team)
      for (const s of ['a', 'b', 'c']) await store.create({ subject: s })
      const go = join(home, `go-cycle-${round}`)
      const links = [
        { id: 1, addBlockedBy: [2] },
        { id: 2, addBlockedBy: [3] },
        { id: 3, addBlockedBy: [1] }
      ]
      const children = links.map((l) => startChild(entry, { op: 'link', home, team, ...l, go }))
      await Promise.all(children.map((c) => c.ready))
      writeFileSync(go, '')
      const results = await Promise.all(
        children.map(async (c) => (await c.lines)[0] as { ok: boolean; name?: string; message?: string })
      )
      expect(results.filter((r) => r.ok)).toHaveLength(2)
      const refused = results.find((r) => !r.ok)!
      expect(refused.name).toBe('TaskCycleError')
      expect(refused.message).toMatch(/#\d → #\d → #\d → #\d/)
      const waits = store.list().tasks.map((t) => t.blockedBy.length)
      expect(waits.reduce((a, b) => a + b, 0)).toBe(2)
    }
  }, 60_000)
})
