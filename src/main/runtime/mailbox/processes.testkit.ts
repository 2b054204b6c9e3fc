import { spawn, type ChildProcess } from 'node:child_process'
import { createInterface } from 'node:readline'
import { Worker } from 'node:worker_threads'

/** What a writer reported: acknowledged ids, failures, and whether it finished. */
export interface WriterReport {
  acked: string[]
  failed: string[]
  done: boolean
}

function onLine(report: WriterReport, line: string, onReady?: () => void): void {
  if (line === 'ready') onReady?.()
  else if (line === 'done') report.done = true
  else if (line.startsWith('ack ')) report.acked.push(line.slice(4))
  else if (line.startsWith('fail ')) report.failed.push(line.slice(5))
}

/** A writer child process over the bundled writer; `exited` resolves after its stdout is drained. */
export function spawnWriter(
  script: string,
  args: string[],
  onReady?: () => void
): { child: ChildProcess; report: WriterReport; exited: Promise<void> } {
  const child = spawn(process.execPath, [script, ...args], { stdio: ['ignore', 'pipe', 'inherit'] })
  const report: WriterReport = { acked: [], failed: [], done: false }
  const lines = createInterface({ input: child.stdout! })
  lines.on('line', (l) => onLine(report, l, onReady))
  const exited = new Promise<void>((resolve) =>
    lines.once('close', () =>
      child.exitCode !== null || child.signalCode !== null ? resolve() : child.once('exit', () => resolve())
    )
  )
  return { child, report, exited }
}

/** A writer worker thread over the bundled writer. */
export function startWorkerWriter(
  script: string,
  args: string[]
): { worker: Worker; report: WriterReport; exited: Promise<void> } {
  const worker = new Worker(script, { argv: args })
  const report: WriterReport = { acked: [], failed: [], done: false }
  worker.on('message', (l: string) => onLine(report, l))
  const exited = new Promise<void>((resolve, reject) => {
    worker.once('error', reject)
    worker.once('exit', () => resolve())
  })
  return { worker, report, exited }
}
