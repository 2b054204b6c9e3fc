import { runSubagentsBenchmark } from './subagentsBench'

const result = await runSubagentsBenchmark([1, 8, 32])
process.stdout.write(JSON.stringify(result) + '\n')
