import { runBashBenchmark } from './bashBench'

// 6 tools runs per product (12 Bash gaps each) and 30 rounds of the steps: about a minute on 2 cores.
// BENCH_BASH_PEER=0 leaves Claude Code out; BENCH_BASH_COMPARE=<checkout> adds that checkout's
// Swarmdesk, run in turn with this one's (a before/after in the same run).
const result = await runBashBenchmark({
  runs: Number(process.env.BENCH_BASH_RUNS ?? 6),
  rounds: Number(process.env.BENCH_BASH_ROUNDS ?? 30),
  claudeCode: process.env.BENCH_BASH_PEER !== '0',
  ...(process.env.BENCH_BASH_COMPARE ? { compareBin: `${process.env.BENCH_BASH_COMPARE}/bin/swarmdesk` } : {})
})
process.stdout.write(JSON.stringify(result) + '\n')
