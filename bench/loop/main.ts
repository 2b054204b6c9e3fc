import { runLoopBenchmark } from './loopBench'

// 200 turns: long enough for per-turn figures to settle, short enough for a 2-core machine.
const result = await runLoopBenchmark(Number(process.env.BENCH_LOOP_TURNS ?? 200))
process.stdout.write(JSON.stringify(result) + '\n')
