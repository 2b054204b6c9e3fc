import { runForkCacheBenchmark } from './forkCacheBench'

const result = await runForkCacheBenchmark([1, 2, 4, 8])
process.stdout.write(JSON.stringify(result) + '\n')
