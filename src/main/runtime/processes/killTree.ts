import {
  findPidsWithEnv,
  isProcessAlive,
  listDescendantPids,
  listTreeFromChildren,
  readProcEntry,
  readProcRange,
  snapshotProcesses,
  type ProcEntry
} from './procfs'

/** Options of {@link killProcessTree}. */
export interface KillTreeOptions {
  /**
   * The tag variable the root was started with: finds escapees that were re-parented away.
   * `startedAt` (the root's start time in clock ticks, {@link ProcEntry.startTime}) limits the
   * environment reads to processes started since, which keeps a sweep cheap on a busy machine.
   */
  envTag?: { name: string; value: string; startedAt?: number }
  /**
   * A {@link import('./procfs').lastPid} read before `root` was started, or before it was handed
   * the command it runs (a shell that had started nothing else until then): every process of its
   * tree has a later pid, so a full pass reads only the pids handed out since
   * ({@link readProcRange}) instead of the whole process table; where that range cannot be read
   * (wrapped, too wide, no /proc) the pass reads the whole table.
   */
  pidsAfter?: number
  /** With `pidsAfter`: processes of the tree started before it (a spare shell's own), read as well. */
  startedBefore?: number[]
  /** Stop waiting for processes to disappear after this many ms (default 5000). */
  timeoutMs?: number
}

/** What {@link killProcessTree} did: every pid it signalled, and those still alive when it gave up. */
export interface KillTreeResult {
  killed: number[]
  /** Empty on success; otherwise processes that outlived SIGKILL for `timeoutMs` (e.g. stuck in `D` state). */
  survivors: number[]
}

/**
 * Polls while waiting for killed processes to disappear: SIGKILLed processes are usually gone
 * within a millisecond or two, so the wait starts at 1 ms and doubles up to 10 ms (a fixed 10 ms
 * poll made every foreground Bash call wait ~10 ms more than its processes took to die).
 */
const FIRST_POLL_MS = 1
const MAX_POLL_MS = 10
const DEFAULT_TIMEOUT_MS = 5_000

/**
 * Everything `root` started, from one snapshot: its process group and session (node-pty makes
 * the child a session leader, so pgid = sid = root), its descendants by `ppid` (which catches
 * `setsid` escapees while their parent lives), and processes carrying the env tag (which catches
 * escapees whose parent already died).
 */
function collectTargets(root: number, rows: ProcEntry[], envTag: KillTreeOptions['envTag']): Set<number> {
  const targets = new Set<number>()
  const addTree = (pid: number) => {
    if (isProcessAlive(pid)) targets.add(pid)
    for (const child of listDescendantPids(pid, rows)) targets.add(child)
  }
  addTree(root)
  for (const row of rows) {
    if ((row.pgid === root || row.sid === root) && row.state !== 'Z' && row.state !== 'X') targets.add(row.pid)
  }
  if (envTag) {
    const since = envTag.startedAt ?? 0
    const candidates = rows.filter((row) => row.startTime >= since && !targets.has(row.pid))
    for (const pid of findPidsWithEnv(envTag.name, envTag.value, candidates)) addTree(pid)
  }
  targets.delete(process.pid)
  return targets
}

function sigkill(target: number): void {
  try {
    process.kill(target, 'SIGKILL')
  } catch {
    // ESRCH: already gone, which is what we want.
  }
}

/**
 * SIGKILLs the process group of `root` and every process it started, including those that left
 * the group, and resolves once /proc shows them gone (zombies count as gone). Never throws.
 *
 * Targets are collected before anything is killed, because killing a parent re-parents its
 * children and hides them from a `ppid` walk. The first pass collects `root`'s descendants from
 * the kernel's per-thread `children` lists ({@link listTreeFromChildren}: the same `ppid` links a
 * snapshot would give, read from the tree alone); every later pass reads the whole process table
 * ({@link collectTargets}: group, session, `ppid` walk and env tag). The sweep repeats until such
 * a full snapshot finds nothing, so a child forked between a collection and the kill is caught,
 * as is an escapee whose parent was already gone (by its env tag). The common case costs one
 * full snapshot instead of two. Where the `children` lists are missing, every pass is a snapshot.
 * With `pidsAfter`, a snapshot is the rows of `root` and of the pids handed out since.
 */
export async function killProcessTree(root: number, options: KillTreeOptions = {}): Promise<KillTreeResult> {
  const deadline = Date.now() + (options.timeoutMs ?? DEFAULT_TIMEOUT_MS)
  const killed = new Set<number>()
  let survivors: number[]
  let first = true
  for (;;) {
    const tree = first ? listTreeFromChildren(root) : undefined
    const full = tree === undefined
    const targets = full ? collectTargets(root, processRows(root, options), options.envTag) : new Set(tree)
    targets.delete(process.pid)
    first = false
    sigkill(-root)
    for (const pid of targets) {
      sigkill(pid)
      killed.add(pid)
    }
    survivors = await waitUntilGone([...killed], deadline)
    if ((full && targets.size === 0) || survivors.length > 0 || Date.now() >= deadline) break
  }
  return { killed: [...killed], survivors }
}

/** Polls until none of `pids` is alive or `deadline` (ms since epoch) passes; returns the living. */
export async function waitUntilGone(pids: number[], deadline: number): Promise<number[]> {
  let alive = pids.filter(isProcessAlive)
  let poll = FIRST_POLL_MS
  while (alive.length > 0 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, poll))
    poll = Math.min(poll * 2, MAX_POLL_MS)
    alive = alive.filter(isProcessAlive)
  }
  return alive
}

/**
 * The rows a full pass looks at: `root`'s, those of `startedBefore` and those of every pid handed
 * out after `pidsAfter` (everything else `root` started, and possibly unrelated processes, which
 * the pass filters out), or the whole table.
 */
function processRows(root: number, options: KillTreeOptions): ProcEntry[] {
  const since = options.pidsAfter === undefined ? undefined : readProcRange(options.pidsAfter)
  if (since === undefined) return snapshotProcesses()
  const inRange = new Set(since.map((row) => row.pid))
  const before = [root, ...(options.startedBefore ?? [])].filter((pid) => !inRange.has(pid))
  return [...before.map(readProcEntry).filter((row) => row !== undefined), ...since]
}
