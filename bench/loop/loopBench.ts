import { mkdtempSync, realpathSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Anthropic from '@anthropic-ai/sdk'
import { z } from 'zod'
import { probeTool, runQuery, startLoopHarness } from '../../src/main/runtime/loop/testing'
import type { Tool } from '../../src/main/runtime/tools/types'

/** Figures of one loop benchmark run. Times in ms. */
export interface LoopBenchResult {
  name: 'loop'
  turns: number
  /** Requests the scripted server answered during the loop run (must equal `turns`). */
  loopRequestsServed: number
  /** Tool calls the loop executed (must equal `turns - 1`). */
  toolCallsExecuted: number
  loopMs: number
  /** The same number of streamed requests sent straight through the SDK, no loop: the baseline. */
  baselineMs: number
  baselineRequestsServed: number
  /** (loopMs − baselineMs) / turns: what the loop adds per turn on top of the HTTP round trip. */
  overheadPerTurnMs: number
  /** Scripted-server throughput measured by the baseline: streamed requests per second. */
  serverRequestsPerSecond: number
  target: string
  verdict: 'pass' | 'fail'
}

/** Target: the loop adds under 5 ms per turn; the scripted server answers at least 100 streamed requests/s. */
export const LOOP_OVERHEAD_TARGET_MS = 5
export const SERVER_RPS_TARGET = 100

/**
 * Runs N turns of a trivial tool through `query()` against the scripted model (no delay), and,
 * side by side in the same process, the same number of streamed requests through the bare SDK.
 */
export async function runLoopBenchmark(turns: number): Promise<LoopBenchResult> {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'swarmdesk-bench-loop-')))
  const script = [
    ...Array.from({ length: turns - 1 }, (_, i) => ({ tools: [{ name: 'Noop', input: { id: `t${i}`, ms: 0 } }] })),
    { text: 'done' }
  ]
  const harness = await startLoopHarness({ agents: { 'team-lead': script, '*': Array.from({ length: turns }, () => ({ text: 'baseline answer' })) } })
  try {
    const log: Array<{ id: string; start: number; end: number }> = []
    const tools: Tool[] = [probeTool('Noop', true, log)]
    const sdk = new Anthropic({ apiKey: 'bench', baseURL: harness.server.url })
    const history = [{ role: 'user' as const, content: 'go' }]
    const sdkRequest = async (agentId: string): Promise<void> => {
      const stream = await sdk.messages.create(
        { model: 'claude-sonnet-5-5', max_tokens: 1024, messages: history, stream: true, tools: [{ name: 'Noop', input_schema: z.toJSONSchema(z.object({})) as Anthropic.Tool['input_schema'] }] },
        { headers: { 'x-swarmdesk-agent-name': agentId, 'x-swarmdesk-agent-id': agentId } }
      )
      for await (const _event of stream) void _event
    }
    // Warm-up (JIT, sockets) so neither side pays it; then neither request count includes it.
    for (let i = 0; i < 5; i++) await sdkRequest('warmup')
    harness.server.reset()
    const t0 = performance.now()
    const { end } = await runQuery(harness, { cwd: dir, tools })
    const loopMs = performance.now() - t0
    if (end.reason !== 'completed') throw new Error(`loop run ended with ${end.reason}`)
    const loopRequestsServed = harness.server.requests().length

    const t1 = performance.now()
    for (let i = 0; i < turns; i++) await sdkRequest('baseline')
    const baselineMs = performance.now() - t1
    const baselineRequestsServed = harness.server.requests().length - loopRequestsServed
    const overheadPerTurnMs = (loopMs - baselineMs) / turns
    const serverRequestsPerSecond = (baselineRequestsServed / baselineMs) * 1000
    const pass = overheadPerTurnMs < LOOP_OVERHEAD_TARGET_MS && serverRequestsPerSecond >= SERVER_RPS_TARGET
    return {
      name: 'loop',
      turns,
      loopRequestsServed,
      toolCallsExecuted: log.length,
      loopMs: round(loopMs),
      baselineMs: round(baselineMs),
      baselineRequestsServed,
      overheadPerTurnMs: round(overheadPerTurnMs),
      serverRequestsPerSecond: round(serverRequestsPerSecond),
      target: `overheadPerTurnMs < ${LOOP_OVERHEAD_TARGET_MS} and serverRequestsPerSecond >= ${SERVER_RPS_TARGET}`,
      verdict: pass ? 'pass' : 'fail'
    }
  } finally {
    await harness.close()
    rmSync(dir, { recursive: true, force: true })
  }
}

function round(n: number): number {
  return Math.round(n * 100) / 100
}
