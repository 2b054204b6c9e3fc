import { setTimeout as sleep } from 'node:timers/promises'
import { openTeamStore, type TeamStorePort } from '../../src/main/runtime/teamStore'
import { percentile, r2, startChild, type Child } from '../mailbox/harness'
import { now, type ChildCommand, type ClaimReport, type StoreSpec } from './protocol'

/** Starts one benchmark child (`child.ts`) with these arguments, somewhere. */
export type Launch = (args: string[]) => Child

/** The roles of a scenario's processes. */
export type Role = 'recipient' | 'sender' | 'claimant' | 'writer'

/**
 * Where each process of a scenario runs: its role and index (0-based) → how to start it. The
 * scenarios run the same whatever the answer; {@link onThisMachine} starts every one here.
 * A placement on another host must hand the child a store it can reach there (a JetStream
 * server, not this machine's files) and keep its clock in sync with this one (latency is a
 * difference of wall clocks).
 */
export type Placement = (role: Role, index: number) => Launch

/** Every process on this machine: `node script ...args`. */
export function onThisMachine(script: string): Placement {
  return () => (args) => startChild(script, args)
}

/** One transport under test: a label for the figures and the store its processes open. */
export interface Target {
  label: 'jetstream' | 'files'
  store: StoreSpec
}

/** A short unique suffix for team names (each scenario works in a team of its own). */
const uid = (): string => `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`

const launch = (place: Placement, role: Role, index: number, verb: string, command: ChildCommand): Child =>
  place(role, index)([verb, JSON.stringify(command)])

async function withStore<T>(target: Target, fn: (store: TeamStorePort) => Promise<T>): Promise<T> {
  const store = await openTeamStore(target.store.home, target.store.transport)
  try {
    return await fn(store)
  } finally {
    await store.close()
  }
}

/** How many ids of `sent` never arrived, and how many arrivals repeated an id. */
function countLostAndDuplicated(sent: readonly string[], got: readonly string[]): { lost: number; duplicated: number } {
  const seen = new Set(got)
  return { lost: sent.filter((id) => !seen.has(id)).length, duplicated: got.length - seen.size }
}

/** Delivery latency to an idle recipient in another process, ms. */
export interface LatencyFigures {
  messages: number
  received: number
  /** Sent (acknowledged) but never received. */
  lost: number
  /** Received more than once. */
  duplicated: number
  p50Ms: number
  p99Ms: number
  maxMs: number
  /**
   * Afterwards, one `mailbox.read` of the recipient's whole inbox (`messages` messages, all read),
   * median of 5, ms: the look a wait takes before it waits (JetStream: the inbox's messages and
   * read marks from the server), so a wait's start grows with the inbox.
   */
  inboxReadMs: number
  /**
   * Then, in this process, one message sent to that inbox (all others read) and the time until
   * `mailbox.waitForMessage` returns it, median of 5 after a first wait, each message marked read
   * before the next is sent, ms: the start of a wait in a process that has waited on the inbox before.
   */
  waitStartMs: number
}

/**
 * `messages` messages from this process (or, with `fromSender`, from a `sender` process placed
 * apart: another host) to an idle recipient elsewhere (`recipient` 0), one at a time: the
 * recipient waits with `mailbox.waitForMessage`, as a teammate between turns, and says so
 * `settleMs` after it started waiting; then one message is sent. Latency = the recipient's
 * receipt time − the send's start time carried in the text (both wall clocks: one kernel's when
 * the hosts are namespaces of this machine); it marks the message read before it waits again.
 */
export async function deliveryLatency(
  target: Target,
  place: Placement,
  o: { messages: number; settleMs: number; fromSender?: boolean }
): Promise<LatencyFigures> {
  const team = `lat-${uid()}`
  const child = launch(place, 'recipient', 0, 'wait', {
    store: target.store,
    team,
    agent: 'idle',
    n: o.messages,
    settleMs: o.settleMs
  })
  const sender = o.fromSender
    ? launch(place, 'sender', 0, 'send', {
        store: target.store,
        team,
        to: 'idle',
        from: 'sender',
        n: o.messages,
        sender: true
      })
    : undefined
  try {
    await sender?.waitFor('ready')
    return await withStore(target, async (store) => {
      const sent: string[] = []
      for (let i = 0; i < o.messages; i++) {
        await child.waitFor('idle')
        if (sender) {
          sender.tell('send')
          sent.push((await sender.waitFor<{ sent: string }>('sent')).sent)
        } else sent.push((await store.mailbox.send(team, 'idle', { from: 'bench', text: `lat-${i} ${now()}` })).id)
      }
      const { latencies, ids } = await child.waitFor<{ latencies: number[]; ids: string[] }>('latencies')
      const reads: number[] = []
      for (let i = 0; i < 5; i++) {
        const t0 = performance.now()
        await store.mailbox.read(team, 'idle')
        reads.push(performance.now() - t0)
      }
      const starts: number[] = []
      for (let i = 0; i < 6; i++) {
        await store.mailbox.send(team, 'idle', { from: 'bench', text: `start-${i}` })
        const t0 = performance.now()
        const { message } = await store.mailbox.waitForMessage(team, 'idle')
        if (i > 0) starts.push(performance.now() - t0)
        await store.mailbox.markRead(team, 'idle', [message.id])
      }
      return {
        messages: o.messages,
        received: ids.length,
        ...countLostAndDuplicated(sent, ids),
        p50Ms: r2(percentile(latencies, 50)),
        p99Ms: r2(percentile(latencies, 99)),
        maxMs: r2(Math.max(...latencies)),
        inboxReadMs: r2(percentile(reads, 50)),
        waitStartMs: r2(percentile(starts, 50))
      }
    })
  } finally {
    await Promise.all([child.kill(), sender?.kill()])
  }
}

/** One claim race: every claimant tries every task, all released at once. */
export interface ClaimFigures {
  claimants: number
  tasks: number
  attempts: number
  /** Tasks won: each exactly once when all is well. */
  wins: number
  alreadyClaimed: number
  otherRefusals: number
  failed: number
  /** Tasks won by no claimant or by more than one, plus tasks whose stored owner is not the winner reported (0 when all is well). */
  claimErrors: number
  /** From the go signal to the last claimant's report, ms. */
  wallMs: number
  attemptsPerSecond: number
  claimsWonPerSecond: number
}

/**
 * `claimants` processes race to claim the same `tasks` new tasks, each trying every task in the
 * same order under its own agent name per task (so no refusal but `already_claimed` is expected).
 * The claimants are started and connected first; the time runs from the go signal to the last
 * report. Checks that each task was won exactly once and that its stored owner is the winner.
 */
export async function claimRace(
  target: Target,
  place: Placement,
  o: { claimants: number; tasks: number }
): Promise<ClaimFigures> {
  const team = `claims-${uid()}`
  return withStore(target, async (store) => {
    const ids: number[] = []
    for (let i = 0; i < o.tasks; i++) ids.push((await store.tasks.create(team, { subject: `task ${i}` })).id)
    const children = Array.from({ length: o.claimants }, (_, worker) =>
      launch(place, 'claimant', worker, 'claim', { store: target.store, team, ids, worker })
    )
    try {
      await Promise.all(children.map((c) => c.waitFor('ready')))
      const t0 = performance.now()
      for (const c of children) c.tell('go')
      const reports = (await Promise.all(children.map((c) => c.waitFor<{ report: ClaimReport }>('report')))).map(
        (r) => r.report
      )
      const wallMs = performance.now() - t0
      const winners = new Map<number, string[]>()
      reports.forEach((r, worker) =>
        r.won.forEach((id) => winners.set(id, [...(winners.get(id) ?? []), `w${worker}-${id}`]))
      )
      const stored = new Map((await store.tasks.list(team)).map((t) => [t.id, t.owner]))
      const claimErrors = ids.filter((id) => {
        const w = winners.get(id) ?? []
        return w.length !== 1 || stored.get(id) !== w[0]
      }).length
      const sum = (k: 'attempts' | 'alreadyClaimed' | 'otherRefusals' | 'failed'): number =>
        reports.reduce((s, r) => s + r[k], 0)
      const wins = reports.reduce((s, r) => s + r.won.length, 0)
      return {
        claimants: o.claimants,
        tasks: o.tasks,
        attempts: sum('attempts'),
        wins,
        alreadyClaimed: sum('alreadyClaimed'),
        otherRefusals: sum('otherRefusals'),
        failed: sum('failed'),
        claimErrors,
        wallMs: r2(wallMs),
        attemptsPerSecond: Math.round((sum('attempts') * 1000) / wallMs),
        claimsWonPerSecond: Math.round((wins * 1000) / wallMs)
      }
    } finally {
      await Promise.all(children.map((c) => c.kill()))
    }
  })
}

/** A burst: `writers` processes × `perWriter` messages to one inbox, watched by a recipient process. */
export interface BurstFigures {
  writers: number
  perWriter: number
  acked: number
  failed: number
  /** Acknowledged but not in the inbox afterwards. */
  lost: number
  /** Copies stored beyond one per id (JetStream: counted in the stream, below the store's own de-duplication on read). */
  duplicatedStored: number
  /** Acknowledged but never pushed to the watching recipient. */
  lostAtRecipient: number
  /** Pushed to the recipient more than once. */
  duplicatedAtRecipient: number
  /** From the go signal to the last writer's report, ms. */
  wallMs: number
  /** Acknowledged sends per second of `wallMs`. */
  messagesPerSecond: number
  /** From the go signal to the recipient's last receipt, ms. */
  deliveredMs: number
  /** Messages received by the recipient per second of `deliveredMs`. */
  deliveredPerSecond: number
}

/**
 * A burst of `writers` processes × `perWriter` messages, sent back to back, to one inbox watched
 * (`mailbox.watch`, as the leader's inbox) by a recipient process. The writers are started and
 * connected first; the time runs from the go signal. Afterwards the inbox is read: every
 * acknowledged id must be there, once (`countStored` gives the copies stored per id where the
 * store's read would hide a duplicate), and have reached the recipient, once. The recipient is
 * given `drainMs` after the last acknowledgement before it reports what it has.
 */
export async function burst(
  target: Target,
  place: Placement,
  o: {
    writers: number
    perWriter: number
    drainMs?: number
    countStored?: (team: string, agent: string) => Promise<number>
  }
): Promise<BurstFigures> {
  const team = `burst-${uid()}`
  const total = o.writers * o.perWriter
  const recipient = launch(place, 'recipient', 0, 'watch', { store: target.store, team, agent: 'lead', expect: total })
  const writers = Array.from({ length: o.writers }, (_, i) =>
    launch(place, 'writer', i, 'write', { store: target.store, team, to: 'lead', from: `w${i}`, n: o.perWriter })
  )
  try {
    await Promise.all([recipient, ...writers].map((c) => c.waitFor('ready')))
    const t0wall = now()
    const t0 = performance.now()
    for (const c of writers) c.tell('go')
    const results = await Promise.all(writers.map((c) => c.waitFor<{ acked: string[]; failed: number }>('acked')))
    const wallMs = performance.now() - t0
    const got = recipient.waitFor<{ received: string[]; lastAt: number }>('received')
    const timer = setTimeout(() => recipient.tell('report'), o.drainMs ?? 10_000)
    const { received, lastAt } = await got
    clearTimeout(timer)
    const acked = results.flatMap((r) => r.acked)
    return withStore(target, async (store) => {
      const present = (await store.mailbox.read(team, 'lead')).map((e) => e.message.id)
      const stored = o.countStored ? await o.countStored(team, 'lead') : present.length
      const atRecipient = countLostAndDuplicated(acked, received)
      const deliveredMs = Math.max(0, lastAt - t0wall)
      return {
        writers: o.writers,
        perWriter: o.perWriter,
        acked: acked.length,
        failed: results.reduce((s, r) => s + r.failed, 0),
        lost: countLostAndDuplicated(acked, present).lost,
        duplicatedStored: stored - new Set(present).size,
        lostAtRecipient: atRecipient.lost,
        duplicatedAtRecipient: atRecipient.duplicated,
        wallMs: r2(wallMs),
        messagesPerSecond: Math.round((acked.length * 1000) / wallMs),
        deliveredMs: r2(deliveredMs),
        deliveredPerSecond: deliveredMs > 0 ? Math.round((received.length * 1000) / deliveredMs) : 0
      }
    })
  } finally {
    await Promise.all([recipient, ...writers].map((c) => c.kill()))
  }
}

/** Waits `ms`: the pause between two scenarios, so one's leftovers (exiting processes) do not weigh on the next. */
export const pause = (ms: number): Promise<void> => sleep(ms)

/** The steps of one claim, timed one at a time in this process with no one racing: medians, ms. */
export interface ClaimStepFigures {
  /** Tasks in the list (a claim reads them all: the busy and blocked checks). */
  tasks: number
  samples: number
  /** `tasks.get`: the read of one task, what a claimant that finds the task taken pays. */
  getMs: number
  /** `tasks.list`: every task of the list, what a claimant that finds the task free reads before it writes. */
  listMs: number
  /** A whole uncontended `tasks.claim` (read, list, compare-and-set). */
  claimMs: number
}

/**
 * Times the steps of a claim on a list of `tasks` tasks, `samples` times each, in this process
 * with nothing racing: where a claim's time goes, beside the races' rates.
 */
export async function claimSteps(target: Target, o: { tasks: number; samples: number }): Promise<ClaimStepFigures> {
  const team = `steps-${uid()}`
  return withStore(target, async (store) => {
    const ids: number[] = []
    for (let i = 0; i < o.tasks; i++) ids.push((await store.tasks.create(team, { subject: `task ${i}` })).id)
    const timed = async (fn: (i: number) => Promise<unknown>): Promise<number> => {
      const ms: number[] = []
      for (let i = 0; i < o.samples; i++) {
        const t0 = performance.now()
        await fn(i)
        ms.push(performance.now() - t0)
      }
      return r2(percentile(ms, 50))
    }
    const getMs = await timed((i) => store.tasks.get(team, ids[i % ids.length]!))
    const listMs = await timed(() => store.tasks.list(team))
    const claimMs = await timed(async (i) => {
      const r = await store.tasks.claim(team, ids[i % ids.length]!, `solo-${i}`)
      if (!r.ok) throw new Error(`uncontended claim of #${ids[i % ids.length]} refused: ${r.reason}`)
    })
    return { tasks: o.tasks, samples: o.samples, getMs, listMs, claimMs }
  })
}
