import { join } from 'node:path'
import { createMailbox } from '../../src/main/runtime/mailbox'
import { baselineRead, baselineSend } from './baseline'
import { percentile, r2, startChild } from './harness'

/** Wall-clock ms with sub-ms resolution, comparable across processes. */
const now = (): number => performance.timeOrigin + performance.now()
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms))

/** Delivery latency figures, ms. */
export interface LatencyFigures {
  messages: number
  received: number
  p50Ms: number
  p99Ms: number
}

/**
 * Sends `n` messages, `gapMs` apart, from this process to an idle recipient in a child process;
 * latency = the recipient's receipt time − the send start time carried in the text.
 */
export async function latency(
  system: 'ours' | 'base',
  script: string,
  home: string,
  n: number,
  gapMs: number
): Promise<LatencyFigures> {
  const file = join(home, 'base', 'latency', 'inboxes', 'idle.json')
  const child = startChild(
    script,
    system === 'ours' ? ['recv-ours', home, 'latency', 'idle', String(n)] : ['recv-base', file, String(n)]
  )
  await child.waitFor('ready')
  const mailbox = createMailbox({ home })
  for (let i = 0; i < n; i++) {
    const text = `lat-${i} ${now()}`
    if (system === 'ours') await mailbox.send('latency', 'idle', { from: 'bench', text })
    else
      await baselineSend(file, {
        id: `lat-${i}`,
        from: 'bench',
        text,
        timestamp: new Date().toISOString(),
        read: false
      })
    await sleep(gapMs)
  }
  const { latencies } = await child.waitFor<{ latencies: number[] }>('latencies')
  await child.kill()
  return {
    messages: n,
    received: latencies.length,
    p50Ms: r2(percentile(latencies, 50)),
    p99Ms: r2(percentile(latencies, 99))
  }
}

/** A burst: `writers` processes × `perWriter` messages to one inbox, all started on one signal. */
export interface BurstFigures {
  writers: number
  perWriter: number
  /** Timed rounds; the counts below are totals over them, the times the median round's. */
  rounds: number
  acked: number
  failed: number
  /** Acknowledged but absent from the inbox afterwards. */
  lost: number
  /** Delivered messages found in the inboxes. */
  delivered: number
  /** The median round's wall time, ms. */
  wallMs: number
  /** The median round's delivered messages per second. */
  messagesPerSecond: number
  /** Every round's delivered messages per second, in the order run. */
  roundsMessagesPerSecond: number[]
}

/** One round of one system: what the writers acknowledged and what was found afterwards. */
interface Round {
  acked: number
  failed: number
  lost: number
  delivered: number
  wallMs: number
  messagesPerSecond: number
}

/**
 * Bursts of `writers` processes × `perWriter` messages to one inbox, for each system over the same
 * processes (so both pay the same start-up, outside the timing); all writers get their command at
 * once and the wall time runs from then to the last writer's report. Both systems first get one
 * untimed warm-up burst (JIT, first-use costs in every writer), then `rounds` timed rounds each,
 * alternating which system goes first, each round into an empty inbox of its own; the median round
 * is reported, and every round's figure beside it, so one lucky or unlucky round decides nothing.
 */
export async function bursts(
  script: string,
  home: string,
  writers: number,
  perWriter: number,
  rounds = 3
): Promise<{ ours: BurstFigures; base: BurstFigures }> {
  const children = Array.from({ length: writers }, (_, i) => startChild(script, ['writer', home, `w${i}`]))
  try {
    await Promise.all(children.map((c) => c.waitFor('ready')))
    const run = async (system: 'ours' | 'base', label: string, n: number): Promise<Round> => {
      const team = `burst-${writers}-${label}`
      const file = join(home, 'base', team, 'inboxes', 'lead.json')
      const command = system === 'ours' ? { system, team, to: 'lead', n } : { system, file, n }
      const t0 = performance.now()
      for (const c of children) c.tell(JSON.stringify(command))
      const results = await Promise.all(children.map((c) => c.waitFor<{ acked: string[]; failed: number }>('acked')))
      const wallMs = performance.now() - t0
      const acked = results.flatMap((r) => r.acked)
      const present = new Set(
        system === 'ours'
          ? (await createMailbox({ home }).read(team, 'lead')).messages.map((m) => m.message.id)
          : (await baselineRead(file)).map((m) => m.id)
      )
      return {
        acked: acked.length,
        failed: results.reduce((s, r) => s + r.failed, 0),
        lost: acked.filter((id) => !present.has(id)).length,
        delivered: present.size,
        wallMs,
        messagesPerSecond: (present.size * 1000) / wallMs
      }
    }
    await run('ours', 'warmup', 5)
    await run('base', 'warmup', 5)
    const done: Record<'ours' | 'base', Round[]> = { ours: [], base: [] }
    for (let r = 0; r < rounds; r++) {
      const order: Array<'ours' | 'base'> = r % 2 === 0 ? ['ours', 'base'] : ['base', 'ours']
      for (const system of order) done[system].push(await run(system, `round${r}`, perWriter))
    }
    const figures = (list: Round[]): BurstFigures => {
      const median = [...list].sort((a, b) => a.messagesPerSecond - b.messagesPerSecond)[Math.floor(list.length / 2)]!
      const sum = (k: 'acked' | 'failed' | 'lost' | 'delivered'): number => list.reduce((s, x) => s + x[k], 0)
      return {
        writers,
        perWriter,
        rounds: list.length,
        acked: sum('acked'),
        failed: sum('failed'),
        lost: sum('lost'),
        delivered: sum('delivered'),
        wallMs: r2(median.wallMs),
        messagesPerSecond: r2(median.messagesPerSecond),
        roundsMessagesPerSecond: list.map((x) => r2(x.messagesPerSecond))
      }
    }
    return { ours: figures(done.ours), base: figures(done.base) }
  } finally {
    await Promise.all(children.map((c) => c.kill()))
  }
}

/** After a writer is killed mid-send: how long until another writer's send succeeds. */
export interface CrashFigures {
  trials: number
  /** Worst time from the kill to the first successful send by another writer, ms. */
  maxBlockedMs: number
  /** Sends that failed (lock not obtained) while waiting. */
  failedSends: number
}

export async function crash(
  system: 'ours' | 'base',
  script: string,
  home: string,
  trials: number
): Promise<CrashFigures> {
  let maxBlockedMs = 0
  let failedSends = 0
  const mailbox = createMailbox({ home })
  for (let t = 0; t < trials; t++) {
    const file = join(home, 'base', 'crash', 'inboxes', `lead-${t}.json`)
    const child = startChild(
      script,
      system === 'ours' ? ['loop-ours', home, 'crash', 'lead', `victim-${t}`] : ['hold-base', file]
    )
    await child.waitFor(system === 'ours' ? 'ready' : 'locked')
    if (system === 'ours') await sleep(20 + Math.random() * 30) // mid-send: the victim sends back to back
    await child.kill()
    const t0 = performance.now()
    for (;;) {
      try {
        if (system === 'ours') await mailbox.send('crash', 'lead', { from: 'survivor', text: `after ${t}` })
        else
          await baselineSend(file, {
            id: `after-${t}`,
            from: 'survivor',
            text: `after ${t}`,
            timestamp: new Date().toISOString(),
            read: false
          })
        break
      } catch {
        failedSends++
      }
    }
    maxBlockedMs = Math.max(maxBlockedMs, performance.now() - t0)
  }
  return { trials, maxBlockedMs: r2(maxBlockedMs), failedSends }
}
