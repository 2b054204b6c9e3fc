import { listDescendantPids, readProcEntry } from '../../src/main/runtime/processes'
import { type PtyHost } from '../../src/main/runtime/pty/types'
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { EventBus } from '../../src/main/runtime/events/bus'
import { nodeBundlePath } from '../../src/main/runtime/install/packageRoot'
import { WorkerTeammateExecutor } from '../../src/main/runtime/teammates/worker'
import { WorkerCodeCache } from '../../src/main/runtime/teammates/worker/codeCache'

import type { PermissionPromptAnswer } from '../../src/shared/permissions'
import type { PermissionPrompter } from '../../src/main/runtime/permissions/prompter'

/** Model id every teammate of the benchmark uses (the scripted server answers any). */
export const MODEL = 'claude-sonnet-5-5'

/**
 * Variable the orchestrator sets in every benchmark child's environment (and so in every teammate
 * process and shell it starts, which inherit it through the PTY host): after a child is gone,
 * anything still carrying it escaped the cleanup and is killed and counted.
 */
export const RUN_TAG_VARIABLE = 'SWARMDESK_BENCH_TEAMMATES_RUN'

/** A temporary Swarmdesk home and workspace, removed by `dispose`. */
export interface Workspace {
  home: string
  /** Canonical (realpath'd): teammates compare paths against it. */
  work: string
  dispose(): void
}

export function createWorkspace(label: string): Workspace {
  const home = mkdtempSync(join(tmpdir(), `swarmdesk-bench-teammates-${label}-home-`))
  const work = realpathSync(mkdtempSync(join(tmpdir(), `swarmdesk-bench-teammates-${label}-work-`)))
  return {
    home,
    work,
    dispose() {
      rmSync(home, { recursive: true, force: true })
      rmSync(work, { recursive: true, force: true })
    }
  }
}

/** Polls `probe` every 10 ms until it is true. @throws Error naming `what` after `timeoutMs`. */
export async function until(what: string, probe: () => boolean | Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!(await probe())) {
    if (Date.now() > deadline)
      throw new Error(`teammates benchmark timed out after ${timeoutMs} ms waiting for ${what}`)
    await sleep(10)
  }
}

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))

/** Full collections of this isolate (the benchmark runs with --expose-gc; without it, a no-op). */
export function gcNow(): void {
  const gc = (globalThis as { gc?: () => void }).gc
  gc?.()
  gc?.()
}

/** The p-th percentile (0–100) of `values`, nearest rank; NaN for none. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!
}

/** Rounds to 0.01. */
export const r2 = (n: number): number => Math.round(n * 100) / 100

/** p50 / p95 / max of latencies in ms, rounded to 0.01. */
export function spread(values: readonly number[]): { p50Ms: number; p95Ms: number; maxMs: number } {
  return {
    p50Ms: r2(percentile(values, 50)),
    p95Ms: r2(percentile(values, 95)),
    maxMs: r2(values.length ? Math.max(...values) : Number.NaN)
  }
}

/** Resident memory of one process from /proc/<pid>/status, bytes: all of it (VmRSS) and its private anonymous part (RssAnon). */
export interface ProcMemory {
  vmRss: number
  rssAnon: number
}

/** @returns zeros for a process that is gone. */
export function procMemory(pid: number): ProcMemory {
  let text: string
  try {
    text = readFileSync(`/proc/${pid}/status`, 'utf8')
  } catch {
    return { vmRss: 0, rssAnon: 0 }
  }
  const kb = (key: string): number => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(text)?.[1] ?? 0) * 1024
  return { vmRss: kb('VmRSS'), rssAnon: kb('RssAnon') }
}

/** Summed memory of `pid` and all its live descendants. */
export function treeMemory(pid: number): ProcMemory & { processes: number } {
  const pids = [pid, ...listDescendantPids(pid)]
  const total = { vmRss: 0, rssAnon: 0, processes: pids.length }
  for (const p of pids) {
    const m = procMemory(p)
    total.vmRss += m.vmRss
    total.rssAnon += m.rssAnon
  }
  return total
}

/** Pids between this process (exclusive) and `pid` (exclusive): the shells a pty put above a teammate's Node process. */
export function wrapperPids(pid: number): number[] {
  const out: number[] = []
  for (
    let at = readProcEntry(pid)?.ppid;
    at !== undefined && at > 1 && at !== process.pid;
    at = readProcEntry(at)?.ppid
  )
    out.push(at)
  return out
}

/** A leader prompter for runs where nobody should be asked: it denies and counts. */
export class RefusingPrompter implements PermissionPrompter {
  asked = 0
  async prompt(): Promise<PermissionPromptAnswer> {
    this.asked++
    return { decision: 'deny', by: 'user', reason: 'the benchmark expects no permission question here' }
  }
}

/** Channel on which the instrumented worker entry reports when its bridge posted each permission question. */
export const STAMP_CHANNEL = 'swarmdesk-bench-teammates-permission'

/** Channel on which the benchmark asks every instrumented worker for its isolate's heap, and on which they answer. */
export const HEAP_CHANNEL = 'swarmdesk-bench-teammates-heap'

/** A worker isolate's heap after a full GC in it, as `process.memoryUsage()` reports it inside the worker. */
export interface WorkerHeap {
  /** The worker's threadId. */
  threadId: number
  /** False for a spare worker (bundle loaded, no teammate given yet): it never posted `ready`. */
  teammate: boolean
  heapUsed: number
  heapTotal: number
  external: number
}

/**
 * Writes a worker prelude (the executor's `prelude` option, meant for this): a module each worker
 * imports before it loads the real bundle, so the bundle loads exactly as it ships (compiled with
 * its code cache). It changes nothing the worker does:
 * - stamps every `permission.prompt` the bridge posts on its port (process.hrtime, one monotonic
 *   clock for all threads of the process, taken right before the real post; the report goes out
 *   after it, off the measured path) and reports `{requestId, at}` on {@link STAMP_CHANNEL};
 * - answers `heap?` on {@link HEAP_CHANNEL}: a full GC in its own isolate (the benchmark runs with
 *   --expose-gc, which workers inherit), then `{threadId, teammate, heapUsed, heapTotal, external}`,
 *   `teammate` telling a teammate's worker (it posted `ready`) from the executor's spare.
 * Both channels are unref'd: they never keep a worker alive.
 * @returns the prelude's path, inside `dir`.
 */
export function writeInstrumentedWorkerPrelude(dir: string): string {
  // CommonJS, which the bootstrap `require`s: an ES module prelude would start the worker's ESM
  // loader (~4 ms a worker on 2 cores), a cost the app's workers, which have no prelude, never pay
  const path = join(dir, 'instrumented-worker-prelude.cjs')
  writeFileSync(
    path,
    [
      "const { BroadcastChannel, MessagePort, threadId } = require('node:worker_threads')",
      `const stamps = new BroadcastChannel(${JSON.stringify(STAMP_CHANNEL)})`,
      'stamps.unref()',
      'let teammate = false',
      'const post = MessagePort.prototype.postMessage',
      'MessagePort.prototype.postMessage = function (message, ...rest) {',
      "  if (message && message.type === 'ready') teammate = true",
      "  if (!message || message.type !== 'permission.prompt') return post.call(this, message, ...rest)",
      '  const at = process.hrtime.bigint()',
      '  const result = post.call(this, message, ...rest)',
      '  stamps.postMessage({ requestId: message.request.requestId, at: String(at) })',
      '  return result',
      '}',
      `const heap = new BroadcastChannel(${JSON.stringify(HEAP_CHANNEL)})`,
      'heap.unref()',
      'heap.onmessage = (event) => {',
      "  if (event.data !== 'heap?') return",
      '  globalThis.gc?.()',
      '  const m = process.memoryUsage()',
      '  heap.postMessage({ threadId, teammate, heapUsed: m.heapUsed, heapTotal: m.heapTotal, external: m.external })',
      '}',
      ''
    ].join('\n')
  )
  return path
}

/**
 * Fills `dir` with the worker bundle's V8 code cache for this process (as the app's first worker
 * of a build does): a spare worker compiles the bundle from source and the executor saves the
 * cache it posts. Resolves once the file is there.
 * @throws Error when the spare dies or no cache file appears within 30 s.
 */
export async function primeCodeCache(dir: string, pty: PtyHost): Promise<void> {
  const executor = new WorkerTeammateExecutor({
    bus: new EventBus(),
    pty,
    prompter: new RefusingPrompter(),
    codeCacheDir: dir
  })
  const file = new WorkerCodeCache(dir).fileFor(nodeBundlePath('teammate-worker'))
  try {
    executor.prewarm()
    if (!(await executor.whenSpareLoaded()))
      throw new Error('the spare worker died while loading the bundle to prime the code cache')
    await until("the worker bundle's code cache file", () => existsSync(file), 30_000)
  } finally {
    await executor.dispose()
  }
}
