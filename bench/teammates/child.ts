// One measurement of the teammates benchmark in a fresh Node process (bundled by teammatesBench.ts
// and run with --expose-gc): `node child.mjs '<job JSON>'`. Prints one line `{"teammatesJob": ...}`
// on stdout (worker teammates share this stdout, so the orchestrator looks for that key), or
// `{"teammatesJobError": "..."}` and exits 1. A fresh process per measurement keeps memory
// figures from being flattered by memory an earlier measurement freed but the allocator kept.
import type { Job } from './jobs'
import { measurePermission } from './permission'
import { measureBareLevel, measureSpawnLevel } from './spawn'

const job = JSON.parse(process.argv[2] ?? '{}') as Job
try {
  const result =
    job.kind === 'spawn'
      ? await measureSpawnLevel(job.backend, job.teammates, job.warmSpare, job.codeCache)
      : job.kind === 'bare'
        ? await measureBareLevel(job.backend, job.teammates)
        : await measurePermission(job.backend, job.samples)
  process.stdout.write(JSON.stringify({ teammatesJob: result }) + '\n')
  process.exitCode = 0
} catch (error) {
  process.stdout.write(JSON.stringify({ teammatesJobError: (error as Error)?.stack ?? String(error) }) + '\n')
  process.exitCode = 1
}
