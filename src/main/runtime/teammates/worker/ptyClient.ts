import { type PtyHost, type PtyProcess, type PtyRunOptions, type PtyRunResult, type PtySpawnOptions } from '../../pty'
import { MessageChannel, receiveMessageOnPort } from 'node:worker_threads'

import { MAX_TIMER_MS, SpawnReplySchema, type MainToWorker, type WorkerToMain } from './protocol'

/** Thrown by `run`/`spawn` after `dispose()`, as the real host's `PtyHostDisposedError`. */
export class PtyClientDisposedError extends Error {
  override readonly name = 'PtyClientDisposedError'
  constructor() {
    super("This worker's PTY client is disposed: its teammate is ending, so no command can run for it.")
  }
}

/** Options of {@link createPtyClient}. */
export interface PtyClientOptions {
  /**
   * Sends a message to the main thread (the worker's port). `transfer` lists the ports that move
   * with it (a spawn's reply port).
   */
  post: (message: WorkerToMain, transfer?: readonly import('node:worker_threads').MessagePort[]) => void
  /**
   * How long `spawn` blocks the worker waiting for the main thread's pid, ms. Past it, `spawn`
   * throws and asks the main thread to kill the shell should it still start.
   */
  spawnReplyTimeoutMs: number
}

/** A {@link PtyHost} inside a worker whose answers arrive through {@link PtyClient.handle}. */
export interface PtyClient extends PtyHost {
  /**
   * Feeds one message from the main thread to the client.
   * @returns true when it was a PTY message (whether or not its id was still known).
   */
  handle(message: MainToWorker): boolean
}

interface PendingRun {
  pid: number | undefined
  onData: ((data: string) => void) | undefined
  resolve: (result: PtyRunResult) => void
  reject: (error: Error) => void
}

interface RemoteShell {
  pid: number
  exited: boolean
  onData: ((data: string) => void) | undefined
  onExit: PtySpawnOptions['onExit']
  /** `kill()` calls waiting for `pty.killed`. */
  killWaiters: Array<() => void>
}

/**
 * The PTY host of a worker teammate (docs/design.md#process-model): every call is forwarded over the worker's port to
 * the main thread's real PTY host (node-pty must never load in a worker thread, STACK.md), so the
 * semantics are the host's — `bash -c` in a fresh PTY, the process group killed and verified gone
 * when a command ends, times out or is aborted.
 *
 * `spawn` must return a real pid synchronously: it posts the request with a SharedArrayBuffer and
 * a fresh reply port, blocks in `Atomics.wait` (at most `spawnReplyTimeoutMs`) until the main
 * thread has spawned and notified, then takes the pid from the reply port with
 * `receiveMessageOnPort`.
 * @throws from `spawn`: PtyClientDisposedError after dispose; Error when the main thread refused
 *   the shell (its message says why) or did not answer in time.
 */
export function createPtyClient(options: PtyClientOptions): PtyClient {
  const { post, spawnReplyTimeoutMs } = options
  const runs = new Map<number, PendingRun>()
  const shells = new Map<number, RemoteShell>()
  const disposals = new Map<number, () => void>()
  let nextId = 1
  let disposed = false
  let disposing: Promise<void> | undefined

  function run(runOptions: PtyRunOptions): Promise<PtyRunResult> {
    if (disposed) return Promise.reject(new PtyClientDisposedError())
    if (runOptions.signal?.aborted) {
      return Promise.resolve({ pid: 0, exitCode: null, signal: null, output: '', timedOut: false, aborted: true })
    }
    const id = nextId++
    const { signal } = runOptions
    const onAbort = (): void => post({ type: 'pty.abort', id })
    return new Promise<PtyRunResult>((resolve, reject) => {
      const done = (): void => {
        runs.delete(id)
        signal?.removeEventListener('abort', onAbort)
      }
      runs.set(id, {
        pid: undefined,
        onData: runOptions.onData,
        resolve: (result) => {
          done()
          resolve(result)
        },
        reject: (error) => {
          done()
          reject(error)
        }
      })
      post({
        type: 'pty.run',
        id,
        options: {
          command: runOptions.command,
          cwd: runOptions.cwd,
          ...(runOptions.env ? { env: runOptions.env } : {}),
          // the host clamps to the same bound; a timer cannot wait longer
          timeoutMs: Math.min(runOptions.timeoutMs, MAX_TIMER_MS),
          ...(runOptions.cols ? { cols: runOptions.cols } : {}),
          ...(runOptions.rows ? { rows: runOptions.rows } : {})
        }
      })
      signal?.addEventListener('abort', onAbort, { once: true })
    })
  }

  function spawn(spawnOptions: PtySpawnOptions): PtyProcess {
    if (disposed) throw new PtyClientDisposedError()
    const id = nextId++
    const flag = new Int32Array(new SharedArrayBuffer(4))
    const { port1, port2 } = new MessageChannel()
    post(
      {
        type: 'pty.spawn',
        id,
        options: {
          command: spawnOptions.command,
          cwd: spawnOptions.cwd,
          ...(spawnOptions.env ? { env: spawnOptions.env } : {}),
          ...(spawnOptions.cols ? { cols: spawnOptions.cols } : {}),
          ...(spawnOptions.rows ? { rows: spawnOptions.rows } : {})
        },
        reply: port2,
        signal: flag.buffer as SharedArrayBuffer
      },
      [port2]
    )
    let raw: unknown
    try {
      Atomics.wait(flag, 0, 0, spawnReplyTimeoutMs)
      raw = receiveMessageOnPort(port1)?.message
    } finally {
      port1.close()
    }
    if (raw === undefined) {
      // should it start after all, it must not outlive us unseen
      post({ type: 'pty.kill', id })
      throw new Error(
        `The main thread did not start the background shell within ${spawnReplyTimeoutMs} ms (it may be overloaded); try the command again.`
      )
    }
    const reply = SpawnReplySchema.parse(raw)
    if (!reply.ok) throw new Error(reply.message)
    const shell: RemoteShell = {
      pid: reply.pid,
      exited: false,
      onData: spawnOptions.onData,
      onExit: spawnOptions.onExit,
      killWaiters: []
    }
    shells.set(id, shell)
    return {
      pid: reply.pid,
      kill: () =>
        new Promise<void>((resolve) => {
          if (shell.exited) return resolve()
          shell.killWaiters.push(resolve)
          post({ type: 'pty.kill', id })
        })
    }
  }

  function handle(message: MainToWorker): boolean {
    switch (message.type) {
      case 'pty.started': {
        const pending = runs.get(message.id)
        if (pending) pending.pid = message.pid
        return true
      }
      case 'pty.data':
        runs.get(message.id)?.onData?.(message.data)
        shells.get(message.id)?.onData?.(message.data)
        return true
      case 'pty.result':
        runs.get(message.id)?.resolve(message.result)
        return true
      case 'pty.failed':
        runs.get(message.id)?.reject(new Error(message.message))
        return true
      case 'pty.exit': {
        const shell = shells.get(message.id)
        if (shell) {
          shell.exited = true
          shells.delete(message.id)
          shell.onExit?.({ exitCode: message.exitCode, signal: message.signal })
          for (const resolve of shell.killWaiters.splice(0)) resolve()
        }
        return true
      }
      case 'pty.killed': {
        const shell = shells.get(message.id)
        if (shell) for (const resolve of shell.killWaiters.splice(0)) resolve()
        return true
      }
      case 'pty.disposed': {
        disposals.get(message.requestId)?.()
        disposals.delete(message.requestId)
        return true
      }
      default:
        return false
    }
  }

  return {
    run,
    spawn,
    handle,
    livePids: () => [
      ...[...runs.values()].flatMap((r) => (r.pid === undefined ? [] : [r.pid])),
      ...[...shells.values()].map((s) => s.pid)
    ],
    /** Kills every process this worker started (in the main thread's host) and waits until they are gone. */
    dispose() {
      disposed = true
      disposing ??= new Promise<void>((resolve) => {
        const requestId = nextId++
        disposals.set(requestId, resolve)
        post({ type: 'pty.dispose', requestId })
      })
      return disposing
    }
  }
}
