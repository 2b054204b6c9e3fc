import { type PtyHost, type PtyProcess } from '../../pty'
import type { MainToWorker, SpawnReply, WorkerToMain } from './protocol'

/** The PTY requests of the protocol (docs/design.md#process-model), the part of a worker's traffic a {@link PtyServer} serves. */
export type PtyRequest = Extract<
  WorkerToMain,
  { type: 'pty.run' | 'pty.abort' | 'pty.spawn' | 'pty.kill' | 'pty.dispose' }
>

/** What {@link PtyServer.dispose} found after killing everything. */
export interface PtyServerDisposeResult {
  /** Pids (process group leaders) the worker had started that were still running and were killed. */
  killed: number[]
  /** Pids the host still lists as live after their kill settled; empty unless the host failed to kill them. */
  survivors: number[]
}

/**
 * The main-thread side of one worker teammate's PTY RPC (docs/design.md#process-model): serves its `pty.*` requests with
 * the process's real {@link PtyHost} (node-pty never runs in a worker, STACK.md) and tracks every
 * process that worker started, so that {@link dispose} can kill them all when the worker dies —
 * a crashed teammate leaves no orphan shell.
 */
export interface PtyServer {
  /**
   * Serves one request (already validated). Answers go out through `post`; a spawn's pid goes on
   * its own reply port and wakes the worker through its SharedArrayBuffer. Never throws: a failure
   * is answered as `pty.failed` or a `{ok: false}` spawn reply.
   */
  handle(request: PtyRequest): void
  /** Pids of the worker's processes still running (runs whose pid is known, and background shells). */
  livePids(): number[]
  /**
   * Stops serving (later runs fail, later spawns are refused), aborts every run and kills every
   * background shell the worker started, and resolves once the host says each one is gone (its
   * process group and every process it started killed and verified, then reaped). Idempotent.
   */
  dispose(): Promise<PtyServerDisposeResult>
}

interface RunEntry {
  controller: AbortController
  pid: number | undefined
  settled: Promise<void>
}

interface ShellEntry {
  proc: PtyProcess
}

/**
 * Creates the {@link PtyServer} of one worker.
 * @param host the process's PTY host; not disposed here (it belongs to the process).
 * @param post sends a message to the worker (a no-op once its port is closed).
 */
export function createPtyServer(host: PtyHost, post: (message: MainToWorker) => void): PtyServer {
  const runs = new Map<number, RunEntry>()
  const shells = new Map<number, ShellEntry>()
  let closed = false
  let disposing: Promise<PtyServerDisposeResult> | undefined

  function run(request: Extract<PtyRequest, { type: 'pty.run' }>): void {
    const { id, options } = request
    if (closed) {
      post({ type: 'pty.failed', id, message: 'The teammate is being stopped; no more commands run for it.' })
      return
    }
    const controller = new AbortController()
    // The host starts the PTY synchronously inside run() (before its first await): the one new
    // pid is the run's. Nothing else can spawn in between on this thread.
    const before = new Set(host.livePids())
    let promise: Promise<unknown>
    try {
      promise = host
        .run({ ...options, signal: controller.signal, onData: (data) => post({ type: 'pty.data', id, data }) })
        .then(
          (result) => post({ type: 'pty.result', id, result }),
          (error: unknown) =>
            post({
              type: 'pty.failed',
              id,
              message: `The PTY host could not run the command: ${(error as Error)?.message ?? String(error)}`
            })
        )
    } catch (error) {
      post({
        type: 'pty.failed',
        id,
        message: `The PTY host could not run the command: ${(error as Error)?.message ?? String(error)}`
      })
      return
    }
    const pid = host.livePids().find((p) => !before.has(p))
    if (pid !== undefined) post({ type: 'pty.started', id, pid })
    const entry: RunEntry = { controller, pid, settled: promise.then(() => undefined) }
    runs.set(id, entry)
    void entry.settled.then(() => runs.delete(id))
  }

  function spawn(request: Extract<PtyRequest, { type: 'pty.spawn' }>): void {
    const { id, options, reply, signal } = request
    let answer: SpawnReply
    if (closed) answer = { ok: false, message: 'The teammate is being stopped; no background shell can start for it.' }
    else {
      try {
        const proc = host.spawn({
          ...options,
          onData: (data) => post({ type: 'pty.data', id, data }),
          onExit: ({ exitCode, signal: sig }) => {
            shells.delete(id)
            post({ type: 'pty.exit', id, exitCode, signal: sig })
          }
        })
        shells.set(id, { proc })
        answer = { ok: true, pid: proc.pid }
      } catch (error) {
        answer = {
          ok: false,
          message: `The PTY host could not start the background shell: ${(error as Error)?.message ?? String(error)}`
        }
      }
    }
    // the reply first, then the wake-up: the worker reads the reply as soon as it wakes
    reply.postMessage(answer)
    reply.close()
    const flag = new Int32Array(signal)
    Atomics.store(flag, 0, 1)
    Atomics.notify(flag, 0)
  }

  function kill(id: number): void {
    const entry = shells.get(id)
    if (!entry) {
      post({ type: 'pty.killed', id })
      return
    }
    void entry.proc.kill().then(
      () => post({ type: 'pty.killed', id }),
      () => post({ type: 'pty.killed', id })
    )
  }

  /** Aborts every run and kills every shell; resolves when all are gone. */
  async function killAll(): Promise<PtyServerDisposeResult> {
    const runEntries = [...runs.values()]
    const shellEntries = [...shells.values()]
    const pids = [
      ...runEntries.flatMap((r) => (r.pid === undefined ? [] : [r.pid])),
      ...shellEntries.map((s) => s.proc.pid)
    ]
    for (const r of runEntries) r.controller.abort()
    await Promise.all([
      ...runEntries.map((r) => r.settled),
      // the host's kill resolves once the group is verifiably gone and reaped
      ...shellEntries.map((s) => s.proc.kill().catch(() => undefined))
    ])
    const live = new Set(host.livePids())
    return { killed: pids, survivors: pids.filter((pid) => live.has(pid)) }
  }

  return {
    handle(request) {
      switch (request.type) {
        case 'pty.run':
          return run(request)
        case 'pty.abort':
          runs.get(request.id)?.controller.abort()
          return
        case 'pty.spawn':
          return spawn(request)
        case 'pty.kill':
          return kill(request.id)
        case 'pty.dispose':
          void killAll().then(() => post({ type: 'pty.disposed', requestId: request.requestId }))
          return
      }
    },
    livePids: () => [
      ...[...runs.values()].flatMap((r) => (r.pid === undefined ? [] : [r.pid])),
      ...[...shells.values()].map((s) => s.proc.pid)
    ],
    dispose() {
      closed = true
      disposing ??= killAll()
      return disposing
    }
  }
}
