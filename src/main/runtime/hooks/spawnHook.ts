import { spawn } from 'node:child_process'
import type { Readable } from 'node:stream'

/** Bytes of stdout and of stderr kept per hook command; the rest is dropped and flagged. */
export const HOOK_OUTPUT_LIMIT_BYTES = 64 * 1024

/**
 * How long to wait, after the shell exits, for its output pipes to close (ms). A hook that leaves
 * a background process holding them (`notify-send … &`) is not waited for beyond this.
 */
const DRAIN_GRACE_MS = 200

/** How one hook command ended. */
export type HookCommandEnd =
  | { kind: 'exited'; code: number }
  | { kind: 'signalled'; signal: string }
  /** Ran past its timeout: its whole process group was killed. */
  | { kind: 'timed_out'; afterMs: number }
  /** The caller's signal fired: its whole process group was killed. */
  | { kind: 'aborted' }
  | { kind: 'spawn_failed'; message: string }

/** What one command did: its end, its bounded output (UTF-8) and its wall time in ms. */
export interface HookCommandRun {
  end: HookCommandEnd
  stdout: string
  stderr: string
  /** True when stdout or stderr passed {@link HOOK_OUTPUT_LIMIT_BYTES}. */
  outputTruncated: boolean
  durationMs: number
}

/** Inputs of {@link runHookCommand}. `env` is the complete environment of the child. */
export interface RunHookCommandOptions {
  command: string
  cwd: string
  env: NodeJS.ProcessEnv
  /** Written on stdin, then stdin is closed. */
  input: string
  timeoutMs: number
  signal?: AbortSignal
}

/**
 * Run `bash -c <command>` in its own process group (detached), feed `input` on stdin, and wait
 * for it. A timeout or an abort kills the whole group with SIGKILL, so children the hook started
 * (`sleep 300 &`) die with it. Background processes a hook leaves behind after exiting on its own
 * are not killed (Claude Code does not either: hooks may start notifiers).
 * Never rejects: every failure is a {@link HookCommandEnd}.
 */
export async function runHookCommand(opts: RunHookCommandOptions): Promise<HookCommandRun> {
  const started = Date.now()
  const empty = { stdout: '', stderr: '', outputTruncated: false }
  if (opts.signal?.aborted) return { end: { kind: 'aborted' }, ...empty, durationMs: 0 }
  const child = spawn('bash', ['-c', opts.command], {
    cwd: opts.cwd,
    env: opts.env,
    detached: true,
    stdio: ['pipe', 'pipe', 'pipe']
  })
  const stdout = new BoundedOutput(child.stdout)
  const stderr = new BoundedOutput(child.stderr)
  let forced: HookCommandEnd | undefined
  const killGroup = (why: HookCommandEnd): void => {
    forced ??= why
    if (child.pid === undefined) return
    try {
      process.kill(-child.pid, 'SIGKILL')
    } catch {
      // ESRCH: the group is already gone.
    }
  }
  const timer = setTimeout(() => killGroup({ kind: 'timed_out', afterMs: opts.timeoutMs }), opts.timeoutMs)
  const onAbort = (): void => killGroup({ kind: 'aborted' })
  opts.signal?.addEventListener('abort', onAbort, { once: true })
  try {
    child.stdin.on('error', () => {
      /* EPIPE: the hook did not read its input; not a failure */
    })
    child.stdin.end(opts.input)
    const exit = await new Promise<HookCommandEnd>((resolve) => {
      child.once('error', (e) => resolve({ kind: 'spawn_failed', message: e.message }))
      child.once('exit', (code, signal) =>
        resolve(code !== null ? { kind: 'exited', code } : { kind: 'signalled', signal: signal ?? 'unknown' })
      )
    })
    await drained([stdout.closed, stderr.closed], DRAIN_GRACE_MS)
    stdout.stop()
    stderr.stop()
    return {
      end: forced ?? exit,
      stdout: stdout.text(),
      stderr: stderr.text(),
      outputTruncated: stdout.truncated || stderr.truncated,
      durationMs: Date.now() - started
    }
  } finally {
    clearTimeout(timer)
    opts.signal?.removeEventListener('abort', onAbort)
  }
}

/** Keeps the first {@link HOOK_OUTPUT_LIMIT_BYTES} of a stream, drains the rest. */
class BoundedOutput {
  private readonly chunks: Buffer[] = []
  private size = 0
  truncated = false
  readonly closed: Promise<void>

  constructor(private readonly stream: Readable) {
    stream.on('data', (chunk: Buffer) => {
      const room = HOOK_OUTPUT_LIMIT_BYTES - this.size
      if (chunk.length > room) this.truncated = true
      if (room <= 0) return
      const kept = chunk.subarray(0, room)
      this.chunks.push(kept)
      this.size += kept.length
    })
    this.closed = new Promise((resolve) => stream.once('close', () => resolve()))
  }

  /** Stop reading: a leftover background process may still hold the pipe. */
  stop(): void {
    this.stream.destroy()
  }

  text(): string {
    return Buffer.concat(this.chunks).toString('utf8')
  }
}

/** Resolves when every promise has, or after `ms`, whichever comes first. */
async function drained(closing: Promise<void>[], ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined
  try {
    await Promise.race([
      Promise.all(closing),
      new Promise((resolve) => {
        timer = setTimeout(resolve, ms)
      })
    ])
  } finally {
    clearTimeout(timer)
  }
}
