import { execFileSync, type ChildProcess } from 'node:child_process'
import { existsSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { parseRuntimeEvent, type RuntimeEvent } from '../../shared/events'
import { workspaceSlug } from '../runtime/storage/paths'

/** One row of `ps -eo pid=,pgid=,stat=,args=`. */
export interface PsRow {
  pid: number
  pgid: number
  stat: string
  args: string
}

/** The live process table as `ps` prints it (zombies left out: they have exited). */
export function psRows(): PsRow[] {
  const out = execFileSync('ps', ['-eo', 'pid=,pgid=,stat=,args='], { encoding: 'utf8' })
  const rows: PsRow[] = []
  for (const line of out.split('\n')) {
    const m = /^\s*(\d+)\s+(\d+)\s+(\S+)\s+(.*)$/.exec(line)
    if (!m || m[3]!.startsWith('Z')) continue
    rows.push({ pid: Number(m[1]), pgid: Number(m[2]), stat: m[3]!, args: m[4]! })
  }
  return rows
}

/** Polls `probe` every 100 ms until it returns a value; throws naming `what` after `timeoutMs`. */
export async function waitFor<T>(
  what: string,
  probe: () => T | undefined | Promise<T | undefined>,
  timeoutMs = 60_000
): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await probe()
    if (value !== undefined) return value
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 100))
  }
}

/** The events a started CLI prints on stdout as they come (its `--json` stream). */
export function collectEvents(child: ChildProcess): { events: RuntimeEvent[]; stderr: () => string } {
  const events: RuntimeEvent[] = []
  let pending = ''
  let stderr = ''
  child.stdout!.on('data', (d: Buffer) => {
    pending += d.toString()
    const lines = pending.split('\n')
    pending = lines.pop()!
    for (const line of lines) {
      if (!line.startsWith('{')) continue
      const event = parseRuntimeEvent(JSON.parse(line))
      if (event) events.push(event)
    }
  })
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()))
  return { events, stderr: () => stderr }
}

/** The id of the one session a run in `work` recorded under `home` (its folder name), once it exists. */
export function onlySessionId(home: string, work: string): string | undefined {
  const dir = join(home, 'projects', workspaceSlug(work))
  if (!existsSync(dir)) return undefined
  const sessions = readdirSync(dir)
  return sessions.length === 1 ? sessions[0] : undefined
}

/** Resolves once `child` has exited (at once when it already has). */
export function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve()
  return new Promise((resolve) => child.once('exit', () => resolve()))
}
