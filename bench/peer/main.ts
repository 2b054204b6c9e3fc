import { runPeerBenchmark } from './peerBench'

// 5 alternating pairs: each pair runs 3 whole-process scenarios of both products (6 runs) and
// their team runs (a ping-pong and spawns of 4 and 8 teammates: Swarmdesk's as `swarmdesk run`,
// Claude Code's interactive in a PTY), plus a warm-up run each. A few minutes on 2 cores; a pair
// that would end past the budget (8.5 minutes, inside the runner's 10) is not started.
const result = await runPeerBenchmark({
  pairs: Number(process.env.BENCH_PEER_PAIRS ?? 5),
  budgetMs: Number(process.env.BENCH_PEER_BUDGET_MS ?? 8.5 * 60_000),
  teams: process.env.BENCH_PEER_TEAMS !== '0'
})
process.stdout.write(JSON.stringify(result) + '\n')
