import { spawn, type ChildProcess } from 'node:child_process'
import { createInterface } from 'node:readline'

/** A benchmark child process speaking JSON lines on stdout. */
export interface Child {
  process: ChildProcess
  /** Takes the first line (parsed) having `key`, past or future; rejects if the child exits first. */
  waitFor<T = Record<string, unknown>>(key: string): Promise<T>
  /** Writes one line to the child's stdin. */
  tell(line: string): void
  /** SIGKILL, resolving once the child is gone. */
  kill(): Promise<void>
}

/** Starts `node script ...args` (the bundled child.ts). */
export function startChild(script: string, args: string[]): Child {
  return startProcess(process.execPath, [script, ...args], args[0] ?? script)
}

/**
 * Starts `file ...args` as a benchmark child (say `ssh … host 'node child.mjs …'`: a child on
 * another host); `label` names it in errors.
 */
export function startProcess(file: string, args: string[], label: string): Child {
  const proc = spawn(file, args, { stdio: ['pipe', 'pipe', 'inherit'] })
  // a line told to a child that has just gone is lost, not a crash of the benchmark
  proc.stdin!.on('error', () => undefined)
  const lines: Record<string, unknown>[] = []
  const waiters = new Set<() => void>()
  let exited = false
  const exit = new Promise<void>((resolve) => proc.once('exit', () => resolve()))
  void exit.then(() => {
    exited = true
    for (const w of waiters) w()
  })
  createInterface({ input: proc.stdout! }).on('line', (l) => {
    lines.push(JSON.parse(l) as Record<string, unknown>)
    for (const w of waiters) w()
  })
  return {
    process: proc,
    waitFor<T>(key: string): Promise<T> {
      return new Promise<T>((resolve, reject) => {
        const check = (): void => {
          const at = lines.findIndex((l) => key in l)
          if (at >= 0) {
            waiters.delete(check)
            resolve(lines.splice(at, 1)[0] as T)
          } else if (exited) {
            waiters.delete(check)
            reject(new Error(`benchmark child ${label} exited before '${key}'`))
          }
        }
        waiters.add(check)
        check()
      })
    },
    tell(line: string) {
      proc.stdin!.write(line + '\n')
    },
    async kill() {
      if (!exited) proc.kill('SIGKILL')
      await exit
    }
  }
}

/** The p-th percentile (0–100) of `values`, nearest rank; NaN for none. */
export function percentile(values: number[], p: number): number {
  if (values.length === 0) return Number.NaN
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!
}

/** Rounds to 0.01. */
export const r2 = (n: number): number => Math.round(n * 100) / 100
