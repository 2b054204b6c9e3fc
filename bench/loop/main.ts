import { runLoopBenchmark } from './loopBench'

// 100 turns, best of 3: long enough for per-turn figures to settle, short enough for 2 cores.
const result = await runLoopBenchmark(Number(process.env.BENCH_LOOP_TURNS ?? 100), 3, 200)
process.stdout.write(JSON.stringify(result) + '\n')
