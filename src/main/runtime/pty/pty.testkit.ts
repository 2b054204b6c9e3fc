import { readFileSync } from 'node:fs'
import { snapshotProcesses } from '../processes/procfs'

/**
 * Test support: live pids whose command line contains `fragment`. Tests start sleeps with a
 * unique duration (`sleep 301.4821`) and count them here, so orphans are counted exactly even
 * while other suites run processes of their own.
 */
export function pidsWithCommandLine(fragment: string): number[] {
  const found: number[] = []
  for (const row of snapshotProcesses()) {
    if (row.pid === process.pid || row.state === 'Z' || row.state === 'X') continue
    try {
      const args = readFileSync(`/proc/${row.pid}/cmdline`, 'utf8').split('\0').join(' ')
      if (args.includes(fragment)) found.push(row.pid)
    } catch {
      // Exited while we looked.
    }
  }
  return found
}

/** Live `sleep <seconds>` processes (also while still `setsid sleep <seconds>`), not the shells that started them. */
export function sleepPids(seconds: string): number[] {
  return pidsWithCommandLine(`sleep ${seconds}`).filter((pid) => {
    try {
      const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean).join(' ')
      return argv === `sleep ${seconds}` || argv === `setsid sleep ${seconds}`
    } catch {
      return false
    }
  })
}

/** A sleep duration no other test uses, e.g. `300.48213`, for {@link pidsWithCommandLine}. */
export function uniqueSleepSeconds(): string {
  return `300.${String(Math.floor(Math.random() * 1e6)).padStart(6, '0')}1`
}

/** Resolves once `predicate` holds, polling every 20 ms; rejects after `timeoutMs`. */
export async function waitFor(predicate: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error('waitFor: condition not met in time')
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

/**
 * Polls `check` every 25 ms until it returns something other than undefined or false, and
 * resolves to that value (async checks are awaited).
 * @throws Error "timed out waiting for <what>" after `ms` (default 20 s).
 */
export async function until<T>(
  what: string,
  check: () => T | undefined | false | Promise<T | undefined | false>,
  ms = 20_000
): Promise<T> {
  const deadline = Date.now() + ms
  for (;;) {
    const value = await check()
    if (value !== undefined && value !== false) return value
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 25))
  }
}
