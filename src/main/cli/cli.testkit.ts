import { execFileSync, spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, realpathSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterEach, beforeEach } from 'vitest'
import { parseRuntimeEvent, type EventOf, type RuntimeEvent } from '../../shared/events'

/** The `swarmdesk` executable of this checkout, as `npm ci` leaves it. */
export const SWARMDESK_BIN = fileURLToPath(new URL('../../../bin/swarmdesk', import.meta.url))

/** What one CLI run printed and how it exited. */
export interface CliRun {
  code: number | null
  stdout: string
  stderr: string
  /** stdout parsed as the event stream (for `--json` runs); lines that are not events are skipped. */
  events: RuntimeEvent[]
}

/**
 * Runs `bin/swarmdesk ...args` as a user would (no TTY: stdin is closed), with `env` over the
 * process environment (pass SWARMDESK_HOME to isolate it); `uid` as in {@link startCli}.
 * Resolves when it exits.
 */
export function runCli(
  args: string[],
  options: { env?: Record<string, string>; cwd?: string; input?: string; uid?: number } = {}
): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = startCli(args, options)
    let stdout = ''
    let stderr = ''
    child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()))
    child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()))
    child.on('error', reject)
    child.on('close', (code) => resolve({ code, stdout, stderr, events: parseEvents(stdout) }))
    child.stdin!.end(options.input ?? '')
  })
}

/**
 * Runs `bin/swarmdesk ...argv` with `home` as its data directory, for commands whose stdout is
 * JSON or text rather than an event stream (`tasks`, `team`). Resolves when it exits.
 */
export function runCliText(
  home: string,
  argv: string[]
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = startCli(argv, { env: { SWARMDESK_HOME: home } })
    let stdout = ''
    let stderr = ''
    child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()))
    child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()))
    child.on('error', reject)
    child.on('close', (code) => resolve({ code, stdout, stderr }))
    child.stdin!.end()
  })
}

/**
 * Starts the CLI without waiting (for kill tests). stdio is piped. With `uid`, it runs as that
 * user (and the group of the same number, no supplementary groups) through `setpriv`, which the
 * caller checks is present: tests run as root, whom permission bits never stop.
 */
export function startCli(
  args: string[],
  options: { env?: Record<string, string>; cwd?: string; uid?: number } = {}
): ChildProcess {
  const env = { ...process.env, NO_COLOR: '1', ...options.env }
  delete (env as Record<string, string | undefined>).FORCE_COLOR
  const command = [process.execPath, SWARMDESK_BIN, ...args]
  const [file, ...argv] =
    options.uid === undefined
      ? command
      : ['setpriv', `--reuid=${options.uid}`, `--regid=${options.uid}`, '--clear-groups', ...command]
  return spawn(file!, argv, { cwd: options.cwd, env, stdio: ['pipe', 'pipe', 'pipe'] })
}

/** Parses JSON lines into events, validating each against the shared schema. */
export function parseEvents(stdout: string): RuntimeEvent[] {
  const events: RuntimeEvent[] = []
  for (const line of stdout.split('\n')) {
    if (!line.startsWith('{')) continue
    const event = parseRuntimeEvent(JSON.parse(line))
    if (event) events.push(event)
  }
  return events
}

/**
 * A private Swarmdesk home and a fresh git repository to run the CLI in (temp dirs, canonical
 * paths); `cleanup` removes both.
 */
export function tempWorkspace(): { home: string; work: string; cleanup: () => void } {
  const home = realpathSync(mkdtempSync(join(tmpdir(), 'swarmdesk-home-')))
  const work = realpathSync(mkdtempSync(join(tmpdir(), 'swarmdesk-work-')))
  execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: work })
  return {
    home,
    work,
    cleanup: () => {
      rmSync(home, { recursive: true, force: true })
      rmSync(work, { recursive: true, force: true })
    }
  }
}

/** The events of one type in a run's stream, typed by it. */
export const ofType = <T extends RuntimeEvent['type']>(events: RuntimeEvent[], type: T): EventOf<T>[] =>
  events.filter((e): e is EventOf<T> => e.type === type)

/**
 * A fresh {@link tempWorkspace} for every test of the calling file (registers vitest's
 * `beforeEach`/`afterEach`). Read `home` and `work` from the returned object inside a test; they
 * change from test to test. `prepare` runs after each is made (e.g. to copy a project in).
 */
export function useTempWorkspace(prepare?: (dirs: { home: string; work: string }) => void): {
  readonly home: string
  readonly work: string
} {
  let current: ReturnType<typeof tempWorkspace> | undefined
  beforeEach(() => {
    current = tempWorkspace()
    prepare?.(current)
  })
  afterEach(() => {
    current?.cleanup()
    current = undefined
  })
  const get = (): ReturnType<typeof tempWorkspace> => {
    if (!current) throw new Error('useTempWorkspace: the workspace exists only inside a test')
    return current
  }
  return {
    get home() {
      return get().home
    },
    get work() {
      return get().work
    }
  }
}
