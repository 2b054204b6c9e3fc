// One racing claimant or creator of the tasks benchmark, as its own process. argv[2]: a JSON job.
// Prints `"ready"`, waits for the go file, runs, prints one JSON line of counts.
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { setTimeout as sleep } from 'node:timers/promises'
import lockfile from 'proper-lockfile'
import { acquireLock } from '../../src/main/runtime/locks'
import { TaskStore } from '../../src/main/runtime/tasks'

/** A job for one benchmark process. */
export type Job =
  | {
      op: 'claim'
      impl: 'ours' | 'baseline'
      home: string
      team: string
      file: string
      ids: number[]
      worker: number
      go: string
    }
  | {
      op: 'create'
      impl: 'ours' | 'baseline'
      home: string
      team: string
      file: string
      count: number
      worker: number
      go: string
    }
  | { op: 'hold'; path: string }

/** What one process reports. */
export interface WorkerReport {
  attempts: number
  wins: number
  alreadyClaimed: number
  otherRefusals: number
  /** Operations that failed outright (baseline: lock not obtained within its retries). */
  failed: number
  created: number[]
}

interface BaselineTask {
  id: number
  subject: string
  owner?: string
  status: string
}

/** Claude Code's lock settings for its shared JSON files: 10 retries, 5–100 ms backoff. */
const BASELINE_LOCK = { retries: { retries: 10, minTimeout: 5, maxTimeout: 100 } }

async function baselineEdit<T>(file: string, edit: (tasks: BaselineTask[]) => T): Promise<T> {
  const release = await lockfile.lock(file, BASELINE_LOCK)
  try {
    const tasks = JSON.parse(readFileSync(file, 'utf8')) as BaselineTask[]
    const result = edit(tasks)
    writeFileSync(file, JSON.stringify(tasks))
    return result
  } finally {
    await release()
  }
}

async function run(job: Exclude<Job, { op: 'hold' }>): Promise<WorkerReport> {
  const report: WorkerReport = { attempts: 0, wins: 0, alreadyClaimed: 0, otherRefusals: 0, failed: 0, created: [] }
  const store = new TaskStore(job.home, job.team)
  if (job.op === 'claim') {
    for (const id of job.ids) {
      report.attempts++
      const agent = `w${job.worker}-${id}`
      try {
        const outcome =
          job.impl === 'ours'
            ? await store.claim(id, agent).then((r) => (r.ok ? 'won' : r.reason))
            : await baselineEdit(job.file, (tasks) => {
                const t = tasks.find((x) => x.id === id)
                if (!t) return 'not_found'
                if (t.owner) return 'already_claimed'
                t.owner = agent
                t.status = 'in_progress'
                return 'won'
              })
        if (outcome === 'won') report.wins++
        else if (outcome === 'already_claimed') report.alreadyClaimed++
        else report.otherRefusals++
      } catch {
        report.failed++
      }
    }
  } else {
    for (let i = 0; i < job.count; i++) {
      try {
        if (job.impl === 'ours') report.created.push((await store.create({ subject: `w${job.worker} ${i}` })).id)
        else
          report.created.push(
            await baselineEdit(job.file, (tasks) => {
              const id = tasks.reduce((m, t) => Math.max(m, t.id), 0) + 1
              tasks.push({ id, subject: `w${job.worker} ${i}`, status: 'pending' })
              return id
            })
          )
      } catch {
        report.failed++
      }
    }
  }
  return report
}

const job = JSON.parse(process.argv[2]) as Job
if (job.op === 'hold') {
  await acquireLock(job.path)
  process.stdout.write('"ready"\n')
  setInterval(() => {}, 60_000)
} else {
  process.stdout.write('"ready"\n')
  while (!existsSync(job.go)) await sleep(1)
  process.stdout.write(JSON.stringify(await run(job)) + '\n')
}
