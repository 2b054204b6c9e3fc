import { existsSync, readdirSync, readFileSync, readlinkSync } from 'node:fs'

/**
 * Process-table reads through Linux `/proc`. They are how the PTY host finds every process a
 * command started (including those that left its process group) and proves they are gone: a
 * `kill` that returns is not evidence that the process has exited.
 */

/** When /proc is mounted, a missing /proc/<pid> means the process is gone. */
const PROC_MOUNTED = existsSync('/proc/self/stat')

/** One row of the process table (`/proc/<pid>/stat`). */
export interface ProcEntry {
  pid: number
  ppid: number
  /** Process group id. */
  pgid: number
  /** Session id. */
  sid: number
  /** One-letter state (`R`, `S`, `D`, `Z`, …); `Z`/`X` are dead. */
  state: string
  /** Start time in clock ticks since boot (field 22): a descendant never starts before its ancestor. */
  startTime: number
}

/**
 * Parses `/proc/<pid>/stat`. The command name (field 2) may contain spaces and parentheses,
 * so fields are counted from the last `)`.
 */
function parseStat(pid: number, text: string): ProcEntry | undefined {
  const close = text.lastIndexOf(')')
  if (close < 0) return undefined
  const fields = text.slice(close + 2).split(' ')
  return {
    pid,
    state: fields[0],
    ppid: Number(fields[1]),
    pgid: Number(fields[2]),
    sid: Number(fields[3]),
    startTime: Number(fields[19])
  }
}

/** The stat row of one process, or undefined when it does not exist (or /proc is unavailable). */
export function readProcEntry(pid: number): ProcEntry | undefined {
  try {
    return parseStat(pid, readFileSync(`/proc/${pid}/stat`, 'utf8'))
  } catch {
    return undefined
  }
}

/**
 * Every process visible in /proc, read synchronously so the snapshot is as close to one instant
 * as we can get (a few ms for a few hundred processes). Processes that exit while we read are
 * skipped.
 */
export function snapshotProcesses(): ProcEntry[] {
  let names: string[]
  try {
    names = readdirSync('/proc')
  } catch {
    return []
  }
  const rows: ProcEntry[] = []
  for (const name of names) {
    const pid = Number(name)
    if (!Number.isInteger(pid) || pid <= 0) continue
    const row = readProcEntry(pid)
    if (row) rows.push(row)
  }
  return rows
}

/**
 * True while `pid` exists and is not a zombie. A zombie has exited; it only waits for its
 * parent (often an init that never reaps in containers) and holds no resources worth waiting for.
 * Falls back to `kill(pid, 0)` where /proc is missing.
 */
export function isProcessAlive(pid: number): boolean {
  const row = readProcEntry(pid)
  if (row) return row.state !== 'Z' && row.state !== 'X'
  if (PROC_MOUNTED) return false
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/**
 * Pids of every live descendant of `pid` (children, grandchildren, …) found by following
 * `ppid` links in one snapshot; `pid` itself is not included. Processes already re-parented
 * away (their parent died) are not found this way, which is why callers collect before killing.
 */
export function listDescendantPids(pid: number, rows: ProcEntry[] = snapshotProcesses()): number[] {
  const children = new Map<number, number[]>()
  for (const row of rows) {
    if (row.state === 'Z' || row.state === 'X') continue
    const list = children.get(row.ppid)
    if (list) list.push(row.pid)
    else children.set(row.ppid, [row.pid])
  }
  const found = new Set<number>()
  const queue = [pid]
  while (queue.length > 0) {
    for (const child of children.get(queue.shift() as number) ?? []) {
      if (child === pid || found.has(child)) continue
      found.add(child)
      queue.push(child)
    }
  }
  return [...found]
}

/**
 * `pid` (while it lives) and every live descendant, found by following the kernel's per-thread
 * child lists (`/proc/<pid>/task/<tid>/children`, Linux 3.5+ with CONFIG_PROC_CHILDREN) instead of
 * reading the whole process table: the same `ppid` links {@link listDescendantPids} follows, for
 * a few reads per process of the tree. Zombies are left out. Undefined when the lists are
 * unavailable (no /proc, or a kernel without them), so the caller reads a snapshot instead.
 */
export function listTreeFromChildren(pid: number): number[] | undefined {
  if (!CHILDREN_LISTS) return undefined
  const found = new Set<number>()
  const queue = [pid]
  while (queue.length > 0) {
    const next = queue.shift() as number
    if (!isProcessAlive(next)) continue
    found.add(next)
    let tasks: string[]
    try {
      tasks = readdirSync(`/proc/${next}/task`)
    } catch {
      continue // gone meanwhile
    }
    for (const tid of tasks) {
      let text = ''
      try {
        text = readFileSync(`/proc/${next}/task/${tid}/children`, 'utf8')
      } catch {
        // the thread or the process ended meanwhile
      }
      for (const word of text.split(' ')) {
        const child = Number(word)
        if (word !== '' && Number.isInteger(child) && !found.has(child)) queue.push(child)
      }
    }
  }
  return [...found]
}

/** Whether this kernel lists each thread's children in /proc (checked once, on this process). */
const CHILDREN_LISTS = existsSync(`/proc/${process.pid}/task/${process.pid}/children`)

/**
 * Pids of processes whose environment holds `name=value`. Every PTY command is started with a
 * unique tag variable, so this finds descendants that both left the process group (`setsid`)
 * and lost their parent (re-parented to init), unless they cleared their environment.
 */
export function findPidsWithEnv(name: string, value: string, rows: ProcEntry[] = snapshotProcesses()): number[] {
  const needle = Buffer.from(`\0${name}=${value}\0`)
  const found: number[] = []
  for (const row of rows) {
    if (row.pid === process.pid || row.state === 'Z' || row.state === 'X') continue
    try {
      const environ = Buffer.concat([Buffer.from([0]), readFileSync(`/proc/${row.pid}/environ`), Buffer.from([0])])
      if (environ.includes(needle)) found.push(row.pid)
    } catch {
      // Gone, or a kernel thread: nothing to find.
    }
  }
  return found
}

/**
 * Whether /proc is this process's own pid namespace's (`/proc/self` names our pid): only then are
 * the pids of /proc/loadavg and /proc/<pid> comparable with each other and with ours.
 */
const OWN_PROC = ((): boolean => {
  try {
    return Number(readlinkSync('/proc/self')) === process.pid
  } catch {
    return false
  }
})()

/**
 * The last pid the kernel handed out in this pid namespace (/proc/loadavg's fifth field: a fork
 * or a thread takes the next free pid after it, cyclically up to pid_max), or undefined where
 * /proc does not say. Every process started after this read has a pid in the range that
 * {@link readProcRange} reads, which lets a sweep read only what started since instead of the
 * whole table.
 */
export function lastPid(): number | undefined {
  if (!OWN_PROC) return undefined
  try {
    const field = readFileSync('/proc/loadavg', 'utf8').split(' ')[4]
    const last = Number(field?.split('\n')[0])
    return Number.isInteger(last) && last > 0 ? last : undefined
  } catch {
    return undefined
  }
}

/** Most pids {@link readProcRange} reads one by one; a wider range is read as a whole snapshot. */
export const MAX_PID_RANGE = 2048

/**
 * The stat rows of every process with a pid handed out after `after` (a {@link lastPid} read)
 * up to the current last pid: the processes started since, and, as pids are reused, some older
 * ones, so callers still filter by group, parent and tag. Threads have pids too; a thread's row
 * is its process's, under the thread's id. Undefined when the pids wrapped around pid_max since,
 * or the range is over {@link MAX_PID_RANGE}, or /proc cannot tell: read {@link snapshotProcesses}
 * then.
 */
export function readProcRange(after: number): ProcEntry[] | undefined {
  const last = lastPid()
  if (last === undefined || last < after || last - after > MAX_PID_RANGE) return undefined
  const rows: ProcEntry[] = []
  for (let pid = after + 1; pid <= last; pid++) {
    if (!existsSync(`/proc/${pid}`)) continue // most of the range has exited; no exception to build
    const row = readProcEntry(pid)
    if (row) rows.push(row)
  }
  return rows
}
