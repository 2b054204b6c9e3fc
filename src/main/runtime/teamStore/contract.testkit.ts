import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { ClaimResult, TaskChange } from '../../../shared/tasks'
import { MailboxAbortError } from '../mailbox'
import { TaskCycleError } from '../tasks'
import { startChild } from '../tasks/children.testkit'
import { bundleEntry } from '../../testkit/bundleEntry.testkit'
import { TeamExistsError, TeamNotFoundError } from '../teams'
import { openTeamStore, reapVanished } from './open'
import type { TeamStorePort } from './port'
import type { TeamTransport } from './transport'

/** What the contract needs of a transport under test. */
export interface ContractTarget {
  home: string
  transport: TeamTransport
  /** TTL of the liveness bucket, where the transport has one. */
  livenessTtlMs?: number
}

const lead = { name: 'team-lead', agentType: 'team-lead', model: 'm', backendType: 'main' as const, cwd: '/w' }
const mate = (name: string) => ({
  name,
  agentType: 'general-purpose',
  model: 'm',
  backendType: 'process' as const,
  cwd: '/w'
})

let teamSeq = 0
/** A fresh team name per test, so tests share one store without meeting. */
export const freshTeam = (): string => `t${process.pid}-${++teamSeq}`

/**
 * The one contract every team store meets (docs/nats.md#the-team-store), registered as vitest tests
 * against the transport `target()` returns (called in beforeAll). Real processes race it.
 */
export function teamStoreContract(target: () => Promise<ContractTarget>): void {
  let t: ContractTarget
  let store: TeamStorePort
  let other: TeamStorePort
  let entry: string
  const open = (): Promise<TeamStorePort> => openTeamStore(t.home, t.transport, { livenessTtlMs: t.livenessTtlMs })
  const child = (command: object) =>
    startChild(entry, { home: t.home, transport: t.transport, livenessTtlMs: t.livenessTtlMs, ...command })

  beforeAll(async () => {
    t = await target()
    ;[store, other] = await Promise.all([open(), open()])
    entry = await bundleEntry(
      join(__dirname, 'storeChild.testkit.ts'),
      join(mkdtempSync(join(tmpdir(), 'swarmdesk-store-child-')), 'child.mjs')
    )
  }, 60_000)
  afterAll(async () => {
    await store?.close()
    await other?.close()
  })

  it('stores each message once, reads oldest first in each sender’s order, and keeps read state per message', async () => {
    const team = freshTeam()
    const ids: string[] = []
    for (let i = 0; i < 5; i++) ids.push((await store.mailbox.send(team, 'bob', { from: 'alice', text: `a${i}` })).id)
    const fromCarol = (await other.mailbox.send(team, 'bob', { from: 'carol', text: 'c0' })).id
    const all = await other.mailbox.read(team, 'bob')
    expect(all.map((e) => e.message.text).filter((x) => x.startsWith('a'))).toEqual(['a0', 'a1', 'a2', 'a3', 'a4'])
    expect(all).toHaveLength(6)
    expect(all.every((e) => !e.read)).toBe(true)
    expect(await store.mailbox.markRead(team, 'bob', [ids[1]!, fromCarol, 'no-such-id'])).toEqual({
      marked: [ids[1], fromCarol],
      missing: ['no-such-id']
    })
    const unread = await other.mailbox.read(team, 'bob', { unreadOnly: true })
    expect(unread.map((e) => e.message.id)).toEqual([ids[0], ids[2], ids[3], ids[4]])
    const read = (await store.mailbox.read(team, 'bob')).filter((e) => e.read).map((e) => e.message.id)
    expect(new Set(read)).toEqual(new Set([ids[1], fromCarol]))
    expect(await store.mailbox.read(team, 'nobody')).toEqual([])
    expect(await other.mailbox.unreadCount(team, 'bob')).toBe(4)
    expect(await other.mailbox.unreadCount(team, 'nobody')).toBe(0)
  })

  it('wakes a waiting reader by a push, in this process and in another one', async () => {
    const team = freshTeam()
    const controller = new AbortController()
    const early = store.mailbox.waitForMessage(team, 'ann', { signal: controller.signal })
    controller.abort()
    await expect(early).rejects.toBeInstanceOf(MailboxAbortError)

    const waiting = store.mailbox.waitForMessage(team, 'ann')
    await sleep(100)
    const sentAt = Date.now()
    const { id } = await other.mailbox.send(team, 'ann', { from: 'team-lead', text: 'wake up' })
    expect((await waiting).message.id).toBe(id)
    expect(Date.now() - sentAt).toBeLessThan(1_000)

    // a message stored while the waiter starts (its scan under way) still wakes it
    for (let i = 0; i < 10; i++) {
      const racing = store.mailbox.waitForMessage(team, `cid-${i}`)
      const { id: raced } = await other.mailbox.send(team, `cid-${i}`, { from: 'team-lead', text: 'now' })
      expect((await racing).message.id).toBe(raced)
    }

    const reader = child({ op: 'wait', team, agent: 'ben' })
    await reader.ready
    await sleep(100)
    const sent = await store.mailbox.send(team, 'ben', { from: 'team-lead', text: 'over there' })
    const at = Date.now()
    const [line] = (await reader.lines) as { id: string; at: number }[]
    expect(line!.id).toBe(sent.id)
    expect(line!.at - at).toBeLessThan(1_000)
  }, 30_000)

  it('starts each wait at the oldest unread message, whichever store marked the others read', async () => {
    const team = freshTeam()
    const send = async (from: TeamStorePort, text: string): Promise<string> =>
      (await from.mailbox.send(team, 'dan', { from: 'team-lead', text })).id
    const wait = async (): Promise<string> => (await store.mailbox.waitForMessage(team, 'dan')).message.id
    const m = [await send(other, 'm0'), await send(other, 'm1'), await send(store, 'm2')]
    expect(await wait()).toBe(m[0])
    expect(await wait()).toBe(m[0]) // not marked read: still the oldest unread
    await other.mailbox.markRead(team, 'dan', [m[0]!])
    expect(await wait()).toBe(m[1])
    await other.mailbox.markRead(team, 'dan', [m[2]!]) // out of order, by another store
    expect(await wait()).toBe(m[1])
    await store.mailbox.markRead(team, 'dan', [m[1]!])
    // all read: the next wait is woken by the next message, never by one read already
    const waiting = store.mailbox.waitForMessage(team, 'dan')
    await sleep(100)
    const m3 = await send(other, 'm3')
    expect((await waiting).message.id).toBe(m3)
    await store.mailbox.markRead(team, 'dan', [m3])
    // a longer inbox read through one wait and one mark at a time: each message once, in order
    const many: string[] = []
    for (let i = 0; i < 30; i++) many.push(await send(i % 3 ? other : store, `n${i}`))
    const got: string[] = []
    for (let i = 0; i < 30; i++) {
      got.push(await wait())
      await (i % 2 ? other : store).mailbox.markRead(team, 'dan', [got.at(-1)!])
    }
    expect(got).toEqual(many)
    expect(await other.mailbox.unreadCount(team, 'dan')).toBe(0)
    const last = other.mailbox.waitForMessage(team, 'dan')
    const m4 = await send(store, 'm4')
    expect((await last).message.id).toBe(m4)
  }, 30_000)

  it('decides each claim on the list as it is now, after changes made through another store', async () => {
    const team = freshTeam()
    for (let i = 0; i < 8; i++) {
      const a = await other.tasks.create(team, { subject: `a${i}` })
      const b = await other.tasks.create(team, { subject: `b${i}`, blockedBy: [a.id] })
      expect(await store.tasks.claim(team, b.id, `x${i}`)).toMatchObject({
        ok: false,
        reason: 'blocked',
        taskIds: [a.id]
      })
      await other.tasks.update(team, a.id, { status: 'completed' })
      expect(await store.tasks.claim(team, b.id, `x${i}`)).toMatchObject({ ok: true, task: { owner: `x${i}` } })
      const c = await other.tasks.create(team, { subject: `c${i}` })
      expect(await store.tasks.claim(team, c.id, `x${i}`)).toMatchObject({
        ok: false,
        reason: 'agent_busy',
        taskIds: [b.id]
      })
      await other.tasks.update(team, b.id, { status: 'completed' })
      expect(await store.tasks.claim(team, c.id, `x${i}`)).toMatchObject({ ok: true })
      expect(await store.tasks.claim(team, c.id, `y${i}`)).toMatchObject({ ok: false, reason: 'already_claimed' })
      await other.tasks.update(team, c.id, { owner: null, status: 'pending' })
      expect(await store.tasks.claim(team, c.id, `y${i}`)).toMatchObject({ ok: true, task: { owner: `y${i}` } })
      await other.tasks.update(team, c.id, { owner: `x${i}`, status: 'in_progress' })
      const d = await other.tasks.create(team, { subject: `d${i}` })
      expect(await store.tasks.claim(team, d.id, `x${i}`)).toMatchObject({ ok: false, reason: 'agent_busy' })
      await other.tasks.delete(team, d.id)
      expect(await store.tasks.claim(team, d.id, `x${i}`)).toEqual({ ok: false, reason: 'not_found' })
    }
    const listed = await store.tasks.list(team)
    expect(listed).toHaveLength(24)
    expect(listed).toEqual(await other.tasks.list(team))
    // a store opened now sees the whole list at its first look, and its first claim decides on it
    const e = await other.tasks.create(team, { subject: 'e' })
    const third = await open()
    try {
      expect(await third.tasks.claim(team, e.id, 'x0')).toMatchObject({ ok: false, reason: 'agent_busy', taskIds: [3] })
      expect(await third.tasks.list(team)).toEqual([...listed, e])
    } finally {
      await third.close()
    }
  }, 60_000)

  it('hands out task ids from a counter that never repeats, and refuses claims as the file store does', async () => {
    const team = freshTeam()
    const a = await store.tasks.create(team, { subject: 'a' })
    const b = await other.tasks.create(team, { subject: 'b', blockedBy: [a.id] })
    const c = await store.tasks.create(team, { subject: 'c' })
    expect([a.id, b.id, c.id]).toEqual([1, 2, 3])
    expect((await other.tasks.get(team, a.id))!.blocks).toEqual([b.id])
    await store.tasks.delete(team, c.id)
    expect((await store.tasks.create(team, { subject: 'd' })).id).toBe(4)
    expect(await store.tasks.claim(team, 99, 'x')).toEqual({ ok: false, reason: 'not_found' })
    expect(await store.tasks.claim(team, b.id, 'x')).toMatchObject({ ok: false, reason: 'blocked', taskIds: [a.id] })
    expect(await store.tasks.claim(team, a.id, 'x')).toMatchObject({
      ok: true,
      task: { owner: 'x', status: 'in_progress' }
    })
    expect(await other.tasks.claim(team, a.id, 'y')).toMatchObject({ ok: false, reason: 'already_claimed' })
    expect(await other.tasks.claim(team, 4, 'x')).toMatchObject({ ok: false, reason: 'agent_busy', taskIds: [a.id] })
    await expect(store.tasks.update(team, a.id, { addBlockedBy: [b.id] })).rejects.toBeInstanceOf(TaskCycleError)
    const done = await other.tasks.update(team, a.id, { status: 'completed' })
    expect(done.task.status).toBe('completed')
    expect(await store.tasks.claim(team, b.id, 'x')).toMatchObject({ ok: true })
    expect((await store.tasks.update(team, 4, { owner: 'y', by: 'x' })).assignTo).toBe('y')
    expect((await other.tasks.releaseOwnedBy(team, 'x')).map((t) => t.id)).toEqual([b.id])
    expect((await store.tasks.list(team)).map((t) => [t.id, t.status, t.owner ?? null])).toEqual([
      [1, 'completed', 'x'],
      [2, 'pending', null],
      [4, 'pending', 'y']
    ])
  })

  it('lets exactly one of 8 racing claimants (5 processes, 3 in this one) win', async () => {
    const team = freshTeam()
    const { id } = await store.tasks.create(team, { subject: 'the prize' })
    const go = join(mkdtempSync(join(tmpdir(), 'swarmdesk-go-')), 'go')
    const racers = Array.from({ length: 5 }, (_, i) => child({ op: 'claim', team, id, agent: `proc-${i}`, go }))
    await Promise.all(racers.map((r) => r.ready))
    writeFileSync(go, '')
    const local = ['a', 'b', 'c'].map((n) => (n === 'b' ? other : store).tasks.claim(team, id, `local-${n}`))
    const results: ClaimResult[] = [
      ...(await Promise.all(racers.map(async (r) => (await r.lines)[0] as ClaimResult))),
      ...(await Promise.all(local))
    ]
    const winners = results.filter((r) => r.ok)
    expect(winners).toHaveLength(1)
    expect(results.filter((r) => !r.ok && r.reason === 'already_claimed')).toHaveLength(7)
    expect((await store.tasks.get(team, id))!.owner).toBe(winners[0]!.ok && winners[0]!.task.owner)
  }, 60_000)

  it('tells a watcher of every change made by another store', async () => {
    const team = freshTeam()
    const seen: TaskChange[] = []
    const watch = store.tasks.watch(team, (c) => seen.push(c))
    await watch.ready
    const task = await other.tasks.create(team, { subject: 'watched' })
    await other.tasks.update(team, task.id, { status: 'in_progress', owner: 'z' })
    // a watcher is told the state after a change (the files' watch reads the file when told of it)
    const owned = (): boolean => seen.some((c) => c.type === 'updated' && c.task.owner === 'z')
    for (let i = 0; i < 100 && !owned(); i++) await sleep(20)
    expect(owned()).toBe(true)
    await other.tasks.delete(team, task.id)
    for (let i = 0; i < 100 && !seen.some((c) => c.type === 'deleted'); i++) await sleep(20)
    watch.dispose()
    expect(seen.at(-1)).toEqual({ type: 'deleted', team, id: task.id })
  })

  it('tells an inbox watcher of each unread message once: those waiting, then each one stored later', async () => {
    const team = freshTeam()
    const early = await store.mailbox.send(team, 'lead', { from: 'a', text: 'waiting' })
    const done = await store.mailbox.send(team, 'lead', { from: 'a', text: 'already read' })
    await store.mailbox.markRead(team, 'lead', [done.id])
    const got: string[] = []
    let wake: () => void = () => undefined
    const watch = other.mailbox.watch(team, 'lead', (e) => {
      got.push(e.message.text)
      if (got.length === 3) wake()
    })
    const three = new Promise<void>((resolve) => (wake = resolve))
    await watch.ready
    expect(got).toEqual(['waiting'])
    expect(early.id).toBeTruthy()
    await store.mailbox.send(team, 'lead', { from: 'b', text: 'later 1' })
    await store.mailbox.send(team, 'lead', { from: 'b', text: 'later 2' })
    await three
    watch.dispose()
    await store.mailbox.send(team, 'lead', { from: 'b', text: 'after dispose' })
    await sleep(300)
    expect(got).toEqual(['waiting', 'later 1', 'later 2'])
  })

  it('broadcasts to all but the sender, tells its send listeners, lists tasks with problems, creates a team as leader', async () => {
    const team = freshTeam()
    const { config, replaced } = await store.config.createAsLeader({ name: team, lead }, 'session-1')
    expect(config.members.map((m) => m.name)).toEqual(['team-lead'])
    expect(replaced).toBeUndefined()
    expect(store.config.where(team)).toContain(team)
    // the first leader's session lives (this process): the name is taken
    await expect(other.config.createAsLeader({ name: team, lead }, 'session-2')).rejects.toBeInstanceOf(TeamExistsError)
    const sent: string[] = []
    const sub = store.mailbox.onDidSend((e) => sent.push(`${e.team}:${e.message.to}:${e.kind}`))
    const ids = await store.mailbox.broadcast(team, ['a', 'b', 'a', 'team-lead'], { from: 'team-lead', text: 'all' })
    sub.dispose()
    await store.mailbox.send(team, 'a', { from: 'team-lead', text: 'after dispose' })
    expect(ids).toHaveLength(2)
    expect(sent.sort()).toEqual([`${team}:a:plain`, `${team}:b:plain`])
    expect((await other.mailbox.read(team, 'b')).map((e) => e.message.text)).toEqual(['all'])
    await expect(store.mailbox.broadcast(team, ['ok', 'bad name!'], { from: 'x', text: 'y' })).rejects.toThrow()
    expect(await other.mailbox.read(team, 'ok')).toEqual([])
    await store.tasks.create(team, { subject: 'one' })
    const listing = await other.tasks.listing(team)
    expect(listing.tasks.map((x) => x.subject)).toEqual(['one'])
    expect(listing.problems).toEqual([])
  })

  it('keeps the team config with no lost update, and deletes the team with its inboxes and tasks', async () => {
    const team = freshTeam()
    await store.config.create({ name: team, lead })
    await expect(other.config.create({ name: team, lead })).rejects.toBeInstanceOf(TeamExistsError)
    const names = ['m1', 'm2', 'm3', 'm4']
    await Promise.all(
      names.map((n, i) =>
        (i % 2 ? other : store).config.update(team, (c) => ({
          ...c,
          members: [
            ...c.members,
            {
              ...mate(n),
              agentId: `${n}@${team}`,
              color: 'blue',
              paneId: '',
              planModeRequired: false,
              mode: 'default',
              isActive: false,
              joinedAt: new Date().toISOString(),
              // a member on another host keeps its host's name (docs/hosts.md#resume)
              ...(n === 'm3' ? { host: 'buildbox' } : {})
            }
          ]
        }))
      )
    )
    expect((await store.config.read(team)).members.find((m) => m.name === 'm3')?.host).toBe('buildbox')
    expect((await other.config.read(team)).members.map((m) => m.name).sort()).toEqual([
      'm1',
      'm2',
      'm3',
      'm4',
      'team-lead'
    ])
    await store.mailbox.send(team, 'm1', { from: 'team-lead', text: 'hi' })
    await store.tasks.create(team, { subject: 'x' })
    await other.config.delete(team)
    await expect(store.config.read(team)).rejects.toBeInstanceOf(TeamNotFoundError)
    expect(await store.mailbox.read(team, 'm1')).toEqual([])
    expect(await store.tasks.list(team)).toEqual([])
  })

  it('sees a teammate killed with -9 as gone within the liveness bound, and gives its tasks back', async () => {
    const team = freshTeam()
    await store.config.create({ name: team, lead })
    await store.config.update(team, (c) => ({
      ...c,
      members: [
        ...c.members,
        {
          ...mate('gone'),
          agentId: `gone@${team}`,
          color: 'red',
          paneId: '',
          planModeRequired: false,
          mode: 'default',
          isActive: true,
          joinedAt: new Date(Date.now() - 60_000).toISOString()
        }
      ]
    }))
    const beating = child({ op: 'beat', team, agent: 'gone' })
    await beating.ready
    const { id } = await store.tasks.create(team, { subject: 'held' })
    expect((await store.tasks.claim(team, id, 'gone')).ok).toBe(true)
    expect(await other.liveness.alive(team)).toEqual(new Set(['gone']))
    expect(await reapVanished(other, team)).toEqual([])
    beating.proc.kill('SIGKILL')
    const killedAt = Date.now()
    let reaped = await reapVanished(other, team)
    while (reaped.length === 0 && Date.now() - killedAt < store.liveness.boundMs + 2_000) {
      await sleep(100)
      reaped = await reapVanished(other, team)
    }
    expect(Date.now() - killedAt).toBeLessThanOrEqual(store.liveness.boundMs + 2_000)
    expect(reaped.map((r) => [r.name, r.released.map((x) => x.id)])).toEqual([['gone', [id]]])
    expect((await store.tasks.get(team, id))!.status).toBe('pending')
    expect((await store.config.read(team)).members.find((m) => m.name === 'gone')!.isActive).toBe(false)
  }, 30_000)
}
