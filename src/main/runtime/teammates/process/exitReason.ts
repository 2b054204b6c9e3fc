import { constants as osConstants } from 'node:os'
import { parseMessageBody } from '../../../../shared/mailbox'
import type { MailboxPort } from '../../teamStore'
import { cleanTerminalOutput, type TailBuffer } from '../../pty'
import { LEAD_NAME } from '../../teams'
import type { TeammateExitInfo, TeammateSpawnConfig } from '../executor'

/**
 * Exit codes of `swarmdesk teammate` (src/main/cli/commands/teammate.ts, docs/events.md#event-stream-and-command-line) as this
 * backend reads them:
 * - `0`: it approved a shutdown request; its runner released its tasks and marked it inactive
 *   → `{status: 'exited', reported: true}`.
 * - `1`: it was stopped (SIGTERM/SIGINT) or its loop caught an error. Both run the runner's
 *   cleanup, which ends by telling the leader with an `idle_notification` whose `idleReason` is
 *   `interrupted` (a stop) or `failed` (a crash). The executor looks for that report in the
 *   leader's inbox: `interrupted` → `exited`, `failed` → `crashed`, both `reported: true`; no
 *   report (it failed before it went active, or the cleanup could not write) → `crashed`,
 *   `reported: false`.
 * - `2`: bad usage (unknown team or member, a settings file that does not load, no API key):
 *   it never went active → `crashed`, `reported: false`.
 * - anything else, or death by a signal (`kill -9`: the wrapper shell reports 128+9): it died
 *   without cleanup → `crashed`, `reported: false`.
 * After {@link ProcessTeammateExecutor.kill}: `killed`, `reported: false` (unless the process had
 * already ended by itself with one of the codes above).
 */
export const TEAMMATE_EXIT_CODES = { shutdown: 0, stoppedOrCaughtCrash: 1, usage: 2 } as const

/** What {@link classifyExit} looks at once a process teammate's terminal is gone. */
export interface TeammateProcessEnd {
  exit: { exitCode: number | null; signal: number | null }
  /** Set when the executor killed it, with the reason given. */
  killReason: string | undefined
  /** The end of its terminal's output, to explain a crash. */
  output: TailBuffer
  /** The `idleReason` of its last report to the leader since it was spawned (see {@link lastReport}). */
  lastReport: () => Promise<'interrupted' | 'failed' | undefined>
}

/** How a process teammate ended, from its exit code or signal, a kill, its last report and its last output ({@link TEAMMATE_EXIT_CODES}). */
export async function classifyExit(end: TeammateProcessEnd): Promise<TeammateExitInfo> {
  const { exitCode, signal } = end.exit
  const clean = exitCode === TEAMMATE_EXIT_CODES.shutdown || exitCode === TEAMMATE_EXIT_CODES.stoppedOrCaughtCrash
  if (end.killReason !== undefined && !clean) return { status: 'killed', reported: false, reason: end.killReason }
  if (exitCode === TEAMMATE_EXIT_CODES.shutdown)
    return { status: 'exited', reported: true, reason: 'approved a shutdown request' }
  if (exitCode === TEAMMATE_EXIT_CODES.stoppedOrCaughtCrash) {
    const report = await end.lastReport()
    if (report === 'interrupted')
      return { status: 'exited', reported: true, reason: 'stopped before a shutdown was approved' }
    const crash = crashLine(end.output)
    if (report === 'failed') return { status: 'crashed', reported: true, reason: crash ?? 'crashed (exit code 1)' }
    return {
      status: 'crashed',
      reported: false,
      reason: `exit code 1 without telling the leader${crash ? `: ${crash}` : ''}`
    }
  }
  if (exitCode === TEAMMATE_EXIT_CODES.usage)
    return { status: 'crashed', reported: false, reason: `bad usage (exit code 2)${describeOutput(end.output, ': ')}` }
  if (signal !== null && signal !== 0)
    return { status: 'crashed', reported: false, reason: `killed by ${signalName(signal)}` }
  if (exitCode !== null && exitCode > 128 && exitCode < 128 + 65)
    return {
      status: 'crashed',
      reported: false,
      reason: `killed by ${signalName(exitCode - 128)} (exit code ${exitCode})`
    }
  return {
    status: 'crashed',
    reported: false,
    reason: `exit code ${exitCode ?? 'unknown'}${describeOutput(end.output, ': ')}`
  }
}

/**
 * The `idleReason` of the last `idle_notification` the teammate sent the leader since `since`
 * (ms since the epoch, its spawn): its runner's report of how it ended (`interrupted` or
 * `failed`), or undefined.
 */
export async function lastReport(
  mailbox: Pick<MailboxPort, 'read'>,
  config: Pick<TeammateSpawnConfig, 'team' | 'name'>,
  since: number
): Promise<'interrupted' | 'failed' | undefined> {
  const messages = await mailbox.read(config.team, LEAD_NAME)
  let found: 'interrupted' | 'failed' | undefined
  for (const { message } of messages) {
    if (message.from !== config.name || Date.parse(message.timestamp) < since) continue
    const body = parseMessageBody(message.text)
    if (body.kind !== 'structured' || body.body.type !== 'idle_notification') continue
    const reason = body.body.idleReason
    if (reason === 'interrupted' || reason === 'failed') found = reason
  }
  return found
}

/** `SIGKILL` for 9; `signal 77` for a number with no name. */
function signalName(signal: number): string {
  const name = Object.entries(osConstants.signals).find(([, n]) => n === signal)?.[0]
  return name ?? `signal ${signal}`
}

/** Lines of the terminal's text, ANSI removed, blank lines dropped. */
function outputLines(output: TailBuffer): string[] {
  return cleanTerminalOutput(output.peek())
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)
}

/** The last line the terminal showed, as context for a reason (`prefix` + line), or ''. */
export function describeOutput(output: TailBuffer, prefix = ' Last output: '): string {
  const last = outputLines(output).at(-1)
  return last ? `${prefix}${last.length > 300 ? `${last.slice(0, 297)}…` : last}` : ''
}

/** What `swarmdesk teammate` printed about a caught crash (`… crashed: Error: message`), or undefined. */
function crashLine(output: TailBuffer): string | undefined {
  const line = outputLines(output).findLast((l) => / crashed: /.test(l))
  if (!line) return undefined
  const what = line.slice(line.indexOf(' crashed: ') + ' crashed: '.length)
  return `crashed: ${what.length > 300 ? `${what.slice(0, 297)}…` : what}`
}
