import { runPeerBenchmark } from './peerBench'

// 5 alternating pairs of 3 scenarios (6 whole-process runs a pair, and Swarmdesk's 4 team runs)
// plus a warm-up run each: a few minutes on 2 cores; never more than the budget (8 minutes).
const result = await runPeerBenchmark({
  pairs: Number(process.env.BENCH_PEER_PAIRS ?? 5),
  budgetMs: Number(process.env.BENCH_PEER_BUDGET_MS ?? 8 * 60_000),
  teamSkipReason:
    "Claude Code's side not measured: its agent teams need its interactive mode driven in a PTY, which this benchmark does not drive yet"
})
process.stdout.write(JSON.stringify(result) + '\n')
