import { execFile } from 'node:child_process'
import { GitCommandError } from './errors'

/**
 * Environment for every git call: never prompt (no terminal to answer), never page, C locale so
 * the lock-error patterns below match, and none of the repository-selecting variables a parent
 * process (a git hook, an IDE) may have exported — they would silently redirect every command.
 */
function gitEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, GIT_TERMINAL_PROMPT: '0', GIT_PAGER: 'cat', LC_ALL: 'C', LANG: 'C' }
  for (const k of [
    'GIT_DIR',
    'GIT_WORK_TREE',
    'GIT_INDEX_FILE',
    'GIT_COMMON_DIR',
    'GIT_OBJECT_DIRECTORY',
    'GIT_CEILING_DIRECTORIES'
  ])
    delete env[k]
  return env
}

/**
 * Git's messages when another process holds one of its lock files (`index.lock`, a ref's `.lock`,
 * `.git/worktrees/<name>/locked` races). Only these are retried; every other failure is final.
 */
const LOCK_ERROR = /index\.lock|\.lock'|\.lock":|unable to create .*\.lock|could not lock|cannot lock ref|lock file/i

/** Retry delays (ms) for lock errors: 5 attempts, about 1.5 s in all — long enough for a concurrent `git gc` or IDE refresh to finish, short enough not to stall an agent's start. */
const LOCK_RETRY_DELAYS_MS = [50, 100, 200, 400, 800]

/** Options of {@link runGit}. */
export interface RunGitOptions {
  /** Aborts the running git process (it gets SIGTERM). */
  signal?: AbortSignal
  /** Retry when git reports a held lock file (see `LOCK_RETRY_DELAYS_MS`). Default true. */
  retryOnLock?: boolean
}

function execGitOnce(args: readonly string[], cwd: string, signal?: AbortSignal): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      'git',
      args,
      { cwd, env: gitEnv(), signal, maxBuffer: 16 * 1024 * 1024, windowsHide: true },
      (err, stdout, stderr) => {
        if (!err) return resolve(stdout)
        const code = (err as NodeJS.ErrnoException & { code?: number | string }).code ?? null
        reject(new GitCommandError(args, cwd, code, String(stderr || err.message)))
      }
    )
  })
}

/**
 * Runs `git <args>` in `cwd` with no shell and returns stdout (untrimmed).
 * @throws GitCommandError on a non-zero exit, after retrying lock errors when enabled.
 */
export async function runGit(args: readonly string[], cwd: string, opts: RunGitOptions = {}): Promise<string> {
  const delays = opts.retryOnLock === false ? [] : LOCK_RETRY_DELAYS_MS
  for (let attempt = 0; ; attempt++) {
    try {
      return await execGitOnce(args, cwd, opts.signal)
    } catch (err) {
      const retriable = err instanceof GitCommandError && LOCK_ERROR.test(err.stderr) && attempt < delays.length
      if (!retriable || opts.signal?.aborted) throw err
      await new Promise((r) => setTimeout(r, delays[attempt]))
    }
  }
}

const queues = new Map<string, Promise<unknown>>()

/**
 * Runs `task` after every earlier task queued under the same `key` has settled. Keyed by the
 * repository's common git dir: `git worktree add/remove` and `git branch` all write under it
 * (`worktrees/`, `refs/`, `packed-refs`), and parallel writers there fail on each other's locks
 * instead of waiting. The lock retry above covers other processes; this queue covers our own.
 */
export function serialisePerRepo<T>(key: string, task: () => Promise<T>): Promise<T> {
  const prev = queues.get(key) ?? Promise.resolve()
  const run = prev.then(task, task)
  const settled = run.then(
    () => undefined,
    () => undefined
  )
  queues.set(key, settled)
  void settled.then(() => {
    if (queues.get(key) === settled) queues.delete(key)
  })
  return run
}
