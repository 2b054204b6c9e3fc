import { runMcpBenchmark } from './mcpBench'

// 2000 calls a path after 200 of warm-up, and 8 servers started at once, best of 3
const result = await runMcpBenchmark(Number(process.env.BENCH_MCP_CALLS ?? 2000))
process.stdout.write(JSON.stringify(result) + '\n')
