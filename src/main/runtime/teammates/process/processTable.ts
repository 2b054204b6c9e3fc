import { readFileSync, existsSync } from 'node:fs'
import { findPidsWithEnv, killProcessTree, listDescendantPids, snapshotProcesses } from '../../processes'

/**
 * Variable set to a fresh value in each teammate process's environment. Its shell commands inherit
 * it (the teammate's own PTY host replaces SWARMDESK_PTY_TAG, not this), so after the teammate is
 * gone the executor finds and kills what it started even when it escaped its terminal's process
 * group and lost its parent (a `setsid nohup …` left running when the teammate was `kill -9`ed).
 */
export const TEAMMATE_RUN_TAG_VARIABLE = 'SWARMDESK_TEAMMATE_RUN'

/**
 * The pid of a process teammate's Node process: the descendant of its terminal's shell
 * (`shellPid`) whose argv holds the CLI bundle `cliPath` (the wrapper's inner shell `exec`s it).
 * Without /proc, the shell's pid. Undefined when it did not appear within `timeoutMs`; the shell's
 * pid when the terminal already ended (`alive()` false: its exit is reported through `exited`).
 */
export async function findTeammateNode(
  shellPid: number,
  cliPath: string,
  alive: () => boolean,
  timeoutMs: number
): Promise<number | undefined> {
  if (process.platform !== 'linux' || !existsSync('/proc/self/cmdline')) return shellPid
  const deadline = Date.now() + timeoutMs
  for (;;) {
    for (const pid of listDescendantPids(shellPid)) {
      const argv = readArgv(pid)
      if (argv && argv[0] !== 'bash' && argv.includes(cliPath) && argv.includes('teammate')) return pid
    }
    if (!alive()) return shellPid
    if (Date.now() > deadline) return undefined
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
}

/**
 * SIGKILLs every live process carrying the teammate's run tag ({@link TEAMMATE_RUN_TAG_VARIABLE}
 * = `runTag`, started at or after `startedAt`, clock ticks since boot, when known) and waits until
 * they are gone; returns the pids that survived. Linux only (elsewhere nothing is found).
 */
export async function killByRunTag(runTag: string, startedAt: number | undefined): Promise<number[]> {
  if (process.platform !== 'linux') return []
  const tag = { name: TEAMMATE_RUN_TAG_VARIABLE, value: runTag, ...(startedAt !== undefined ? { startedAt } : {}) }
  const rows = snapshotProcesses().filter((row) => startedAt === undefined || row.startTime >= startedAt)
  const found = findPidsWithEnv(tag.name, tag.value, rows)
  if (found.length === 0) return []
  // each found process is alive now (not reaped), so its pid is safe to signal
  const result = await killProcessTree(found[0], { envTag: tag })
  return result.survivors
}

/** A process's argv from /proc, or undefined when it is gone. */
function readArgv(pid: number): string[] | undefined {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean)
  } catch {
    return undefined
  }
}
