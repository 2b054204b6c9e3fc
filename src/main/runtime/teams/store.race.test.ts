import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { BrokenLock } from '../locks'
import { buildChild, startChild } from '../tasks/children.testkit'
import { TeamStore } from '.'

let entry: string
let home: string
beforeAll(async () => {
  entry = await buildChild()
  home = mkdtempSync(join(tmpdir(), 'swarmdesk-teams-race-'))
})
afterAll(() => rmSync(home, { recursive: true, force: true }))

const lead = { name: 'team-lead', agentType: 'main', model: 'm', backendType: 'main' as const, cwd: '/' }

describe('team config under concurrent processes', () => {
  it('loses no member when two processes and this one add members at once', async () => {
    const store = new TeamStore(home)
    await store.create({ name: 'busy', lead })
    const go = join(home, 'go-busy')
    const names = (p: string) => Array.from({ length: 20 }, (_, i) => `${p}-${i}`)
    const children = ['p', 'q'].map((p) =>
      startChild(entry, { op: 'addMembers', home, team: 'busy', names: names(p), go })
    )
    await Promise.all(children.map((c) => c.ready))
    writeFileSync(go, '')
    for (const n of names('local')) await store.addMember('busy', { ...lead, name: n, backendType: 'worker' })
    await Promise.all(children.map((c) => c.lines))
    const members = store.read('busy').members.map((m) => m.name)
    expect(members).toHaveLength(61)
    expect(new Set(members).size).toBe(61)
  }, 60_000)

  it('lets the next writer through at once after the lock holder is killed with kill -9', async () => {
    const broken: BrokenLock[] = []
    const store = new TeamStore(home, { timeoutMs: 10 * 60_000, onBroken: (b) => broken.push(b) })
    await store.create({ name: 'crashed', lead })
    const holder = startChild(entry, { op: 'holdLock', path: join(home, 'teams/crashed/.lock') })
    await holder.ready
    const exited = new Promise((r) => holder.proc.once('exit', r))
    holder.proc.kill('SIGKILL')
    await exited
    await store.addMember('crashed', { ...lead, name: 'after-crash', backendType: 'worker' })
    expect(broken).toEqual([{ owner: { pid: holder.proc.pid, startTime: expect.any(String) }, reason: 'owner_dead' }])
    expect(store.read('crashed').members.map((m) => m.name)).toEqual(['team-lead', 'after-crash'])
  })
})
