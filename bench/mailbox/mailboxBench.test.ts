import { describe, expect, it } from 'vitest'
import { runMailboxBenchmark } from './mailboxBench'

describe('mailbox benchmark', () => {
  it('does the work it reports: every message counted was sent, received or found on disk', async () => {
    const r = await runMailboxBenchmark({
      latencyMessages: 10,
      gapMs: 5,
      burstWriters: [3],
      perWriter: 4,
      burstRounds: 2,
      crashTrials: 1,
      baselineCrashTrials: 1
    })
    expect(r.name).toBe('mailbox')
    for (const s of [r.mailbox, r.baseline]) {
      expect(s.latency).toMatchObject({ messages: 10, received: 10 })
      expect(s.latency.p50Ms).toBeGreaterThan(0)
      expect(s.latency.p99Ms).toBeGreaterThanOrEqual(s.latency.p50Ms)
      expect(s.bursts).toHaveLength(1)
      const b = s.bursts[0]!
      expect(b).toMatchObject({ writers: 3, perWriter: 4, rounds: 2 })
      expect(b.roundsMessagesPerSecond).toHaveLength(2)
      expect(b.acked + b.failed).toBe(24)
      expect(b.delivered).toBe(b.acked - b.lost)
      expect(b.wallMs).toBeGreaterThan(0)
      expect(s.crash.trials).toBe(1)
    }
    expect(r.mailbox.bursts[0]).toMatchObject({ acked: 24, failed: 0, lost: 0, delivered: 24 })
    // the baseline's killed lock holder blocks the next writer until proper-lockfile's 10 s stale time
    expect(r.baseline.crash.maxBlockedMs).toBeGreaterThan(4_000)
    expect(r.throughputRatio).toHaveLength(1)
    expect(['pass', 'fail']).toContain(r.verdict)
  }, 90_000)
})
