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
export async function latency(system: 'ours' | 'base', script: string, home: string, n: number, gapMs: number): Promise<LatencyFigures> {
  const file = join(home, 'base', 'latency', 'inboxes', 'idle.json')
  const child = startChild(script, system === 'ours' ? ['recv-ours', home, 'latency', 'idle', String(n)] : ['recv-base', file, String(n)])
  await child.waitFor('ready')
  const mailbox = createMailbox({ home })
  for (let i = 0; i < n; i++) {
    const text = `lat-${i} ${now()}`
    if (system === 'ours') await mailbox.send('latency', 'idle', { from: 'bench', text })
    else await baselineSend(file, { id: `lat-${i}`, from: 'bench', text, timestamp: new Date().toISOString(), read: false })
    await sleep(gapMs)
  }
  const { latencies } = await child.waitFor<{ latencies: number[] }>('latencies')
  await child.kill()
  return { messages: n, received: latencies.length, p50Ms: r2(percentile(latencies, 50)), p99Ms: r2(percentile(latencies, 99)) }
}

/** A burst: `writers` processes × `perWriter` messages to one inbox, all started on one signal. */
export interface BurstFigures {
  writers: number
  perWriter: number
  acked: number
  failed: number
  /** Acknowledged but absent from the inbox afterwards. */
  lost: number
  /** Delivered messages found in the inbox. */
  delivered: number
  wallMs: number
  messagesPerSecond: number
}

/**
 * Bursts of `writers` processes × `perWriter` messages to one inbox, for each system in turn over
 * the same processes (so both pay the same start-up, outside the timing); all writers get their
 * command at once and the wall time runs from then to the last writer's report.
 */
export async function bursts(script: string, home: string, writers: number, perWriter: number): Promise<{ ours: BurstFigures; base: BurstFigures }> {
  const children = Array.from({ length: writers }, (_, i) => startChild(script, ['writer', home, `w${i}`]))
  try {
    await Promise.all(children.map((c) => c.waitFor('ready')))
    const team = `burst-${writers}`
    const file = join(home, 'base', team, 'inboxes', 'lead.json')
    const run = async (system: 'ours' | 'base'): Promise<BurstFigures> => {
      const command = system === 'ours' ? { system, team, to: 'lead', n: perWriter } : { system, file, n: perWriter }
      const t0 = performance.now()
      for (const c of children) c.tell(JSON.stringify(command))
      const results = await Promise.all(children.map((c) => c.waitFor<{ acked: string[]; failed: number }>('acked')))
      const wallMs = performance.now() - t0
      const acked = results.flatMap((r) => r.acked)
      const present = new Set(system === 'ours' ? (await createMailbox({ home }).read(team, 'lead')).messages.map((m) => m.message.id) : (await baselineRead(file)).map((m) => m.id))
      return {
        writers,
        perWriter,
        acked: acked.length,
        failed: results.reduce((s, r) => s + r.failed, 0),
        lost: acked.filter((id) => !present.has(id)).length,
        delivered: present.size,
        wallMs: r2(wallMs),
        messagesPerSecond: r2((present.size * 1000) / wallMs)
      }
    }
    return { ours: await run('ours'), base: await run('base') }
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

export async function crash(system: 'ours' | 'base', script: string, home: string, trials: number): Promise<CrashFigures> {
  let maxBlockedMs = 0
  let failedSends = 0
  const mailbox = createMailbox({ home })
  for (let t = 0; t < trials; t++) {
    const file = join(home, 'base', 'crash', 'inboxes', `lead-${t}.json`)
    const child = startChild(script, system === 'ours' ? ['loop-ours', home, 'crash', 'lead', `victim-${t}`] : ['hold-base', file])
    await child.waitFor(system === 'ours' ? 'ready' : 'locked')
    if (system === 'ours') await sleep(20 + Math.random() * 30) // mid-send: the victim sends back to back
    await child.kill()
    const t0 = performance.now()
    for (;;) {
      try {
        if (system === 'ours') await mailbox.send('crash', 'lead', { from: 'survivor', text: `after ${t}` })
        else await baselineSend(file, { id: `after-${t}`, from: 'survivor', text: `after ${t}`, timestamp: new Date().toISOString(), read: false })
        break
      } catch {
        failedSends++
      }
    }
    maxBlockedMs = Math.max(maxBlockedMs, performance.now() - t0)
  }
  return { trials, maxBlockedMs: r2(maxBlockedMs), failedSends }
}
