import { describe, expect, it } from 'vitest'
import { runLoopBenchmark } from './loopBench'

describe('loop benchmark', () => {
  it('does the work it reports: every turn is a served request and every tool call ran', async () => {
    const result = await runLoopBenchmark(12, 2, 20)
    expect(result.turns).toBe(12)
    expect(result.rounds).toBe(2)
    expect(result.serverRequestsMeasured).toBe(20)
    expect(result.cannedServerRequestsPerSecond).toBeGreaterThan(0)
    expect(result.loopRequestsServed).toBe(12)
    expect(result.toolCallsExecuted).toBe(11)
    expect(result.baselineRequestsServed).toBe(12)
    expect(result.loopMs).toBeGreaterThan(0)
    expect(result.baselineMs).toBeGreaterThan(0)
    expect(['pass', 'fail']).toContain(result.verdict)
  })
})
