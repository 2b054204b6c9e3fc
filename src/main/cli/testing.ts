import { execFileSync, spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, realpathSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseRuntimeEvent, type RuntimeEvent } from '../../shared/events'

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
 * process environment (pass SWARMDESK_HOME to isolate it). Resolves when it exits.
 */
export function runCli(args: string[], options: { env?: Record<string, string>; cwd?: string; input?: string } = {}): Promise<CliRun> {
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

/** Starts the CLI without waiting (for kill tests). stdio is piped. */
export function startCli(args: string[], options: { env?: Record<string, string>; cwd?: string } = {}): ChildProcess {
  const env = { ...process.env, NO_COLOR: '1', ...options.env }
  delete (env as Record<string, string | undefined>).FORCE_COLOR
  return spawn(process.execPath, [SWARMDESK_BIN, ...args], { cwd: options.cwd, env, stdio: ['pipe', 'pipe', 'pipe'] })
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
