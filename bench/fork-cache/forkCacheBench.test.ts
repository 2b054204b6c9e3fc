import { describe, expect, it } from 'vitest'
import { runForkCacheBenchmark } from './forkCacheBench'

describe('fork-cache benchmark', () => {
  it('does the work it reports: every child made a first request in both runs', async () => {
    const result = await runForkCacheBenchmark([2])
    const [level] = result.levels
    expect(level!.forks.children).toBe(2)
    expect(level!.fresh.children).toBe(2)
    expect(level!.forks.inputTokens + level!.forks.cacheReadTokens + level!.forks.cacheWriteTokens).toBeGreaterThan(
      result.parentHistoryTokens
    )
    expect(level!.costRatio).toBeGreaterThan(0)
  })
})
