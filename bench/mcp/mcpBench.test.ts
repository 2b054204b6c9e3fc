import { describe, expect, it } from 'vitest'
import { runMcpBenchmark } from './mcpBench'

describe('mcp benchmark', () => {
  it('does the work it reports: calls on both paths, every server of the start-up listed', async () => {
    const result = await runMcpBenchmark(20, 5, 2, 1)
    expect(result.calls).toBe(20)
    expect(result.swarmdesk.p50Ms).toBeGreaterThan(0)
    expect(result.baseline.p50Ms).toBeGreaterThan(0)
    expect(result.swarmdesk.p99Ms).toBeGreaterThanOrEqual(result.swarmdesk.p50Ms)
    expect(result.startupMs).toBeGreaterThan(0)
    expect(result.baselineStartupMs).toBeGreaterThan(0)
    expect(['pass', 'fail']).toContain(result.verdict)
  }, 60_000)
})
