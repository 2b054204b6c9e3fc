import { createRequire } from 'node:module'
import { performance } from 'node:perf_hooks'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { McpManager, type McpServerEntry } from '../../src/main/runtime/mcp'
import { createMcpTool } from '../../src/main/runtime/tools/mcp'
import type { ToolContext } from '../../src/main/runtime/tools/types'

/** Figures of one MCP benchmark run. Times in ms. */
export interface McpBenchResult {
  name: 'mcp'
  server: string
  /** Calls measured on each path (after `warmup` unmeasured ones each). */
  calls: number
  warmup: number
  /** A call of `mcp__everything__echo` through Swarmdesk's tool (manager, connection, result conversion). */
  swarmdesk: { p50Ms: number; p99Ms: number }
  /** Baseline: the same call on a bare SDK client of its own server process, calls interleaved with Swarmdesk's. */
  baseline: { p50Ms: number; p99Ms: number }
  /** Swarmdesk's percentile minus the baseline's: what Swarmdesk adds per call. */
  overheadP50Ms: number
  overheadP99Ms: number
  /** Servers started at once for the start-up figure. */
  startupServers: number
  /** From the start until every server has answered `tools/list`, through McpManager.listTools (best of `startupRounds`). */
  startupMs: number
  /** Baseline: as many bare SDK clients connecting and listing in parallel (best of `startupRounds`). */
  baselineStartupMs: number
  startupRounds: number
  goals: { overheadP50Ms: number; overheadP99Ms: number; startupOverheadMs: number }
  target: string
  verdict: 'pass' | 'fail'
}

/** Goals: at most 1 ms per call over the bare SDK client (p50 and p99), and 8 servers up within 100 ms of the bare clients. */
export const MCP_CALL_OVERHEAD_GOAL_MS = 1
export const MCP_STARTUP_OVERHEAD_GOAL_MS = 100

const everything = createRequire(import.meta.url).resolve('@modelcontextprotocol/server-everything/dist/index.js')
const entry = (name: string): McpServerEntry => ({
  name,
  config: { command: process.execPath, args: [everything, 'stdio'], env: {} }
})

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!
}

const summary = (samples: number[]): { p50Ms: number; p99Ms: number } => {
  const sorted = [...samples].sort((a, b) => a - b)
  return { p50Ms: round(percentile(sorted, 50)), p99Ms: round(percentile(sorted, 99)) }
}
const round = (ms: number): number => Math.round(ms * 1000) / 1000

async function bareClient(): Promise<Client> {
  const client = new Client({ name: 'bench-baseline', version: '0.0.0' })
  // stderr piped, as Swarmdesk's connection does (it keeps the tail for failure reports)
  const transport = new StdioClientTransport({ command: process.execPath, args: [everything, 'stdio'], stderr: 'pipe' })
  transport.stderr?.on('data', () => undefined)
  await client.connect(transport)
  return client
}

/**
 * Runs the benchmark against `@modelcontextprotocol/server-everything` over stdio: `calls` echo
 * calls on each path, interleaved so both see the same machine load, then start-up of
 * `startupServers` servers at once through Swarmdesk and through bare SDK clients.
 */
export async function runMcpBenchmark(
  calls = 2000,
  warmup = 200,
  startupServers = 8,
  startupRounds = 3
): Promise<McpBenchResult> {
  const manager = new McpManager([entry('everything')])
  const [listed] = await manager.listTools()
  if (!listed?.ok)
    throw new Error(`server-everything did not start: ${listed?.ok === false ? listed.error.message : ''}`)
  const echo = listed.tools.find((t) => t.name === 'echo')
  if (!echo) throw new Error('server-everything lists no echo tool')
  const tool = createMcpTool(manager, 'everything', echo)
  // the MCP tool reads only the call's signal from its context
  const ctx = { signal: new AbortController().signal } as unknown as ToolContext
  const bare = await bareClient()
  const ours: number[] = []
  const theirs: number[] = []
  try {
    for (let i = 0; i < warmup + calls; i++) {
      const input = { message: `m${i}` }
      let t = performance.now()
      const result = await tool.call(input, ctx)
      const a = performance.now() - t
      t = performance.now()
      const raw = await bare.callTool({ name: 'echo', arguments: input })
      const b = performance.now() - t
      if (i === 0 && (!JSON.stringify(result).includes('m0') || !JSON.stringify(raw).includes('m0')))
        throw new Error('an echo call did not answer its message')
      if (i >= warmup) {
        ours.push(a)
        theirs.push(b)
      }
    }
  } finally {
    await bare.close()
    await manager.closeAll()
  }
  const swarmdesk = summary(ours)
  const baseline = summary(theirs)

  let startupMs = Infinity
  let baselineStartupMs = Infinity
  const ourStartup = async (): Promise<void> => {
    const many = new McpManager(Array.from({ length: startupServers }, (_, i) => entry(`s${i}`)))
    const t = performance.now()
    const all = await many.listTools()
    startupMs = Math.min(startupMs, performance.now() - t)
    await many.closeAll()
    if (!all.every((l) => l.ok)) throw new Error('a server of the start-up round failed to start')
  }
  const bareStartup = async (): Promise<void> => {
    const t = performance.now()
    const clients = await Promise.all(
      Array.from({ length: startupServers }, async () => {
        const c = await bareClient()
        await c.listTools()
        return c
      })
    )
    baselineStartupMs = Math.min(baselineStartupMs, performance.now() - t)
    await Promise.all(clients.map((c) => c.close()))
  }
  // the order alternates round by round, so neither path always runs on a machine the other warmed
  for (let r = 0; r < startupRounds; r++) {
    if (r % 2 === 0) await ourStartup().then(bareStartup)
    else await bareStartup().then(ourStartup)
  }
  const overheadP50Ms = round(swarmdesk.p50Ms - baseline.p50Ms)
  const overheadP99Ms = round(swarmdesk.p99Ms - baseline.p99Ms)
  const pass =
    overheadP50Ms <= MCP_CALL_OVERHEAD_GOAL_MS &&
    overheadP99Ms <= MCP_CALL_OVERHEAD_GOAL_MS &&
    startupMs - baselineStartupMs <= MCP_STARTUP_OVERHEAD_GOAL_MS
  return {
    name: 'mcp',
    server: '@modelcontextprotocol/server-everything (stdio), tool echo',
    calls,
    warmup,
    swarmdesk,
    baseline,
    overheadP50Ms,
    overheadP99Ms,
    startupServers,
    startupMs: Math.round(startupMs),
    baselineStartupMs: Math.round(baselineStartupMs),
    startupRounds,
    goals: {
      overheadP50Ms: MCP_CALL_OVERHEAD_GOAL_MS,
      overheadP99Ms: MCP_CALL_OVERHEAD_GOAL_MS,
      startupOverheadMs: MCP_STARTUP_OVERHEAD_GOAL_MS
    },
    target: `per call ≤ ${MCP_CALL_OVERHEAD_GOAL_MS} ms over the bare SDK client (p50 and p99); ${startupServers} servers up within ${MCP_STARTUP_OVERHEAD_GOAL_MS} ms of bare clients`,
    verdict: pass ? 'pass' : 'fail'
  }
}
