import { describe, expect, it } from 'vitest'
import { runTasksBenchmark } from './tasksBench'

describe('tasks benchmark', () => {
  it('does the work it reports: every claimant tried every task, each task was won once, every create got its own id', async () => {
    const r = await runTasksBenchmark(12, 8, 2, 10)
    expect(r.claimAttempts).toBe(96)
    expect(r.claimWins).toBe(12)
    expect(r.claimAlreadyClaimed).toBe(84)
    expect(r.claimErrors).toBe(0)
    expect(r.baselineClaimWins).toBeGreaterThanOrEqual(12 - r.baselineFailedClaims)
    expect(r.baselineClaimWins).toBeLessThanOrEqual(12)
    expect(r.createdDistinctIds).toBe(20)
    expect(r.baselineCreatedDistinctIds).toBe(20 - r.baselineFailedCreates)
    expect(r.lockBreakReason).toBe('owner_dead')
    expect(r.claimAttemptsPerSecond).toBeGreaterThan(0)
    expect(r.baselineClaimAttemptsPerSecond).toBeGreaterThan(0)
    expect(['pass', 'fail']).toContain(r.verdict)
  }, 120_000)
})
