import { runTasksBenchmark } from './tasksBench'

// 100 tasks × 8 racing processes, 3 alternating rounds each, 2 creators × 100: enough to settle
// the rates on 2 cores.
const result = await runTasksBenchmark(
  Number(process.env.BENCH_TASKS_N ?? 100),
  8,
  2,
  100,
  Number(process.env.BENCH_TASKS_ROUNDS ?? 3)
)
process.stdout.write(JSON.stringify(result) + '\n')
