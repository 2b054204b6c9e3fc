import Anthropic from '@anthropic-ai/sdk'
import { runUntilSettled } from '../../src/main/runtime/session/headless'
import { agentSlug } from '../../src/main/runtime/subagents/ids'
import { startSubagentHarness } from '../../src/main/runtime/subagents/subagents.testkit'

/** Figures for one concurrency level. Times in ms, memory in bytes. */
export interface SubagentLevel {
  agents: number
  /** Child requests the scripted server received (must equal `agents`). */
  childRequestsSeen: number
  /** Agent tool call → that child's first model request: median and max. */
  spawnToFirstRequestP50Ms: number
  spawnToFirstRequestMaxMs: number
  /** Heap + external growth while every child waits on its first (delayed) answer, per agent. */
  memoryPerIdleAgentBytes: number
  /** Baseline: the same number of bare SDK requests held open on the same server, per request. */
  baselineMemoryPerRequestBytes: number
  /** Baseline: time from issuing a bare SDK request to the server receiving it, median. */
  baselineIssueToRequestP50Ms: number
}

export interface SubagentsBenchResult {
  name: 'subagents'
  levels: SubagentLevel[]
  target: string
  verdict: 'pass' | 'fail'
}

/** Targets: a child's first request within 250 ms of the call (p50, 32 agents); under 4 MB per idle agent. */
export const SPAWN_TARGET_MS = 250
export const MEMORY_TARGET_BYTES = 4 * 1024 * 1024

/** How long each child's first answer is held, so all of them sit idle at once, ms. */
const HOLD_MS = 2500

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b)
  return s.length === 0 ? 0 : s[Math.floor(s.length / 2)]!
}

function usedMemory(): number {
  ;(globalThis as { gc?: () => void }).gc?.()
  const m = process.memoryUsage()
  return m.heapUsed + m.external
}

async function until(probe: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!probe()) {
    if (Date.now() > deadline) throw new Error('benchmark timed out waiting for the agents')
    await new Promise((r) => setTimeout(r, 5))
  }
}

/** Runs N background agents at once and measures spawn latency and idle memory, beside bare SDK requests. */
export async function measureLevel(agents: number): Promise<SubagentLevel> {
  const children = Object.fromEntries(
    Array.from({ length: agents }, (_, i) => [`job-${i}`, [{ delayMs: HOLD_MS, text: `job ${i} done` }]])
  )
  const h = await startSubagentHarness(
    {
      agents: {
        'team-lead': [
          {
            tools: Array.from({ length: agents }, (_, i) => ({
              name: 'Agent',
              input: { description: `job ${i}`, prompt: 'wait', run_in_background: true }
            }))
          },
          { text: 'launched' },
          ...Array.from({ length: agents }, () => ({ when: '<task-notification>', text: 'noted' }))
        ],
        ...children,
        baseline: Array.from({ length: agents }, () => ({ delayMs: HOLD_MS, text: 'baseline' }))
      }
    },
    { mode: 'bypassPermissions' }
  )
  try {
    const callTimes = new Map<string, number>()
    h.bus.onEvent((e) => {
      if (e.type === 'tool_call' && e.name === 'Agent')
        callTimes.set(agentSlug(String((e.input as { description?: unknown }).description)), Date.parse(e.time))
    })
    const before = usedMemory()
    const run = runUntilSettled(h.session, 'launch')
    const childRequests = () => h.server.requests().filter((r) => r.agentName?.startsWith('job-'))
    await until(() => childRequests().length >= agents, 30_000)
    const during = usedMemory()
    const latencies = childRequests().map(
      (r) => Date.parse(r.time) - (callTimes.get(r.agentName!) ?? Date.parse(r.time))
    )
    await run

    // Baseline: the same number of bare streamed SDK requests held open by the same delay.
    const sdk = new Anthropic({ apiKey: 'bench', baseURL: h.server.url, maxRetries: 0 })
    const baseBefore = usedMemory()
    const issued = Date.now()
    const pending = Array.from({ length: agents }, async () => {
      const stream = await sdk.messages.create(
        { model: 'claude-sonnet-5-5', max_tokens: 100, stream: true, messages: [{ role: 'user', content: 'hold' }] },
        { headers: { 'x-swarmdesk-agent-name': 'baseline', 'x-swarmdesk-agent-id': 'baseline' } }
      )
      for await (const _ of stream) void _
    })
    const baselineRequests = () => h.server.requests().filter((r) => r.agentName === 'baseline')
    await until(() => baselineRequests().length >= agents, 30_000)
    const baseDuring = usedMemory()
    const baseLatency = median(baselineRequests().map((r) => Date.parse(r.time) - issued))
    await Promise.all(pending)
    return {
      agents,
      childRequestsSeen: childRequests().length,
      spawnToFirstRequestP50Ms: median(latencies),
      spawnToFirstRequestMaxMs: Math.max(...latencies),
      memoryPerIdleAgentBytes: Math.max(0, Math.round((during - before) / agents)),
      baselineMemoryPerRequestBytes: Math.max(0, Math.round((baseDuring - baseBefore) / agents)),
      baselineIssueToRequestP50Ms: baseLatency
    }
  } finally {
    await h.close()
  }
}

/** The benchmark of issue 4: 1, 8 and 32 concurrent background agents. */
export async function runSubagentsBenchmark(levels: number[] = [1, 8, 32]): Promise<SubagentsBenchResult> {
  const results: SubagentLevel[] = []
  for (const n of levels) results.push(await measureLevel(n))
  const top = results[results.length - 1]!
  const pass = top.spawnToFirstRequestP50Ms <= SPAWN_TARGET_MS && top.memoryPerIdleAgentBytes <= MEMORY_TARGET_BYTES
  return {
    name: 'subagents',
    levels: results,
    target: `at ${top.agents} agents: spawnToFirstRequestP50Ms <= ${SPAWN_TARGET_MS} and memoryPerIdleAgentBytes <= ${MEMORY_TARGET_BYTES}`,
    verdict: pass ? 'pass' : 'fail'
  }
}
