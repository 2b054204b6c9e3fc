import { runTeammatesBenchmark } from './teammatesBench'

// 1, 8 and 16 teammates started at once on each backend (issue), each size in its own process;
// 24 permission requests per backend. One to two minutes on 2 cores.
const result = await runTeammatesBenchmark({ levels: [1, 8, 16], permissionSamples: 24 })
process.stdout.write(JSON.stringify(result) + '\n')
