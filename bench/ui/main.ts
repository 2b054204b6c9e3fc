import { runUiBenchmark } from './uiBench'

const result = await runUiBenchmark()
process.stdout.write(JSON.stringify(result) + '\n')
