import { runPeerBenchmark } from './peerBench'

// 5 alternating pairs of 3 scenarios (6 whole-process runs a pair) plus a warm-up run each: about
// 2-4 minutes on 2 cores. The team figures need interactive Claude Code in a PTY, not driven here yet.
const result = await runPeerBenchmark({
  pairs: Number(process.env.BENCH_PEER_PAIRS ?? 5),
  teamSkipReason:
    'not measured: the team figures need interactive Claude Code driven in a PTY, which this benchmark does not drive yet'
})
process.stdout.write(JSON.stringify(result) + '\n')
