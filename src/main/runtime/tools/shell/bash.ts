import { type PtyRunResult } from '../../pty'
import { z } from 'zod'
import type { SandboxMark } from '../../../../shared/events'
import { ToolError, type Tool, type ToolContext, type ToolResult } from '../types'
import { formatOutputForModel } from './bashFormat'
import { mkdir } from 'node:fs/promises'
import {
  blockedWrites,
  refusedHostsSince,
  sandboxedCommand,
  sandboxRoute,
  watchGitRedirects,
  type GitGuard
} from '../../sandbox'

/** Default and maximum of Bash `timeout`, in ms (Claude Code's values: 2 and 10 minutes). */
export const BASH_DEFAULT_TIMEOUT_MS = 120_000
export const BASH_MAX_TIMEOUT_MS = 600_000

/** Bash input, Claude Code's fields (docs/tools.md#tools). */
export const BashInputSchema = z.object({
  command: z.string().min(1).describe('The command to run'),
  description: z.string().optional().describe('What the command does, in 5-10 words (shown to the user)'),
  timeout: z
    .number()
    .int()
    .positive()
    .max(BASH_MAX_TIMEOUT_MS)
    .optional()
    .describe(`Timeout in milliseconds (default ${BASH_DEFAULT_TIMEOUT_MS}, max ${BASH_MAX_TIMEOUT_MS})`),
  run_in_background: z
    .boolean()
    .optional()
    .describe('Start the command as a background shell and return at once; read it with BashOutput'),
  dangerouslyDisableSandbox: z
    .boolean()
    .optional()
    .describe(
      'Run this command outside the sandbox, only after the sandbox blocked something the command must do; the user is asked first'
    )
})
export type BashInput = z.infer<typeof BashInputSchema>

const DESCRIPTION = `Runs a shell command with bash in a fresh terminal and returns its output.

- Every call starts a new shell in the project root: nothing carries over between calls (no cd, no exported variables, no shell functions). Use absolute paths or chain commands with && in one call.
- Nobody can type into the terminal: stdin is empty, pagers are disabled (PAGER=cat) and git never prompts for credentials. Pass flags that make commands non-interactive (-y, --no-edit, -m).
- Output is returned with terminal colours removed and is cut to 30,000 characters (start and end kept); filter large output with head, tail or grep.
- Default timeout is 2 minutes, at most 10 minutes (timeout, in ms). When a command ends, times out or is stopped, every process it started is killed.
- For servers, watchers or long builds set run_in_background: true; you get a shell ID to use with BashOutput (read new output) and KillShell (stop it).
- Prefer the Read, Glob, Grep, Edit and Write tools over cat, find, grep, sed and echo redirection for files.`

/** The Bash tool (docs/tools.md#tools). Permission subject: the command, analysed by the permission engine. */
export const BashTool: Tool<BashInput> = {
  name: 'Bash',
  description: DESCRIPTION,
  inputSchema: BashInputSchema,
  // Read-only-ness of a command is the permission engine's call (docs/permissions.md#permissions), never a guess here.
  isReadOnly: () => false,
  isConcurrencySafe: () => false,
  permissionSubject: (input) => ({ kind: 'bash', command: input.command }),
  async call(input, ctx) {
    assertCommandFits(input.command)
    const { command, sandboxed, note, mark } = await confine(input, ctx)
    // after the wrapping (which creates the folders it holds), before the command starts
    const guard = sandboxed ? watchGitRedirects(ctx.cwd) : undefined
    if (input.run_in_background) return marked(startInBackground(input, command, note, ctx, guard), mark)
    const timeoutMs = input.timeout ?? BASH_DEFAULT_TIMEOUT_MS
    const started = Date.now()
    const result = await ctx.pty.run({
      command,
      cwd: ctx.cwd,
      timeoutMs,
      signal: ctx.signal,
      onData: ctx.onOutput
    })
    const formatted = formatRunResult(result, timeoutMs)
    const swept = guard?.sweep() ?? []
    const blocked = sandboxed ? blockedWrites(result.output) : []
    const socket = sandboxed ? ctx.sandbox?.proxySocket : undefined
    const refused = socket ? await refusedHostsSince(socket, started) : []
    const extra = [
      note,
      ...blocked.map((p) => blockedNote(p, ctx)),
      ...refused.map((host) => refusedNote(host, ctx)),
      ...swept.map(sweptNote)
    ].filter(Boolean)
    return marked(
      extra.length ? { ...formatted, content: `${formatted.content}\n${extra.join('\n')}` } : formatted,
      mark
    )
  }
}

/** `result` with the command's sandbox mark, when the sandbox is on (docs/sandbox.md#the-pane-mark). */
const marked = (result: ToolResult, mark: SandboxMark | undefined): ToolResult =>
  mark ? { ...result, sandbox: mark } : result

/**
 * The command as it runs (docs/permissions.md#the-bash-sandbox), by its {@link sandboxRoute}: under
 * bwrap when sandboxed (the result then names the writes it blocked); as written otherwise, with a
 * `note` for the result saying why it ran outside. `mark` says which, for the pane (absent when
 * the sandbox is off).
 * @throws ToolError when the sandbox cannot start and `failIfUnavailable` is set.
 */
async function confine(
  input: BashInput,
  ctx: ToolContext
): Promise<{ command: string; sandboxed: boolean; note?: string; mark?: SandboxMark }> {
  const sb = ctx.sandbox
  const command = input.command
  const route = sandboxRoute(command, sb?.settings, input.dangerouslyDisableSandbox)
  switch (route.kind) {
    case 'off':
      return { command, sandboxed: false }
    case 'excluded':
      return { command, sandboxed: false, mark: 'excluded', note: 'Ran outside the sandbox (excludedCommands)' }
    case 'unsandboxed':
      return {
        command,
        sandboxed: false,
        mark: 'unsandboxed',
        note: 'Ran outside the sandbox (dangerouslyDisableSandbox, approved)'
      }
    case 'unavailable':
      if (sb!.settings.failIfUnavailable)
        throw new ToolError(
          `The sandbox cannot start, and sandbox.failIfUnavailable is set, so the command did not run: ${route.problem}`
        )
      return {
        command,
        sandboxed: false,
        mark: 'unavailable',
        note: `Warning: ran without the sandbox: ${route.problem}`
      }
    case 'sandboxed':
      await mkdir(sb!.tmpDir, { recursive: true })
      return {
        command: sandboxedCommand(command, {
          root: ctx.cwd,
          tmpDir: sb!.tmpDir,
          settings: sb!.settings,
          ...(sb!.proxySocket ? { proxySocket: sb!.proxySocket } : {})
        }),
        sandboxed: true,
        mark: 'sandboxed',
        ...(route.ignoredDisable
          ? { note: 'dangerouslyDisableSandbox was ignored: sandbox.allowUnsandboxedCommands is false' }
          : {})
      }
  }
}

/** What the result says of each write the sandbox stopped, and how the model may go on. */
function blockedNote(path: string, ctx: ToolContext): string {
  const escape = ctx.sandbox?.settings.allowUnsandboxedCommands
    ? ' If the command must write there, call Bash again with dangerouslyDisableSandbox: true; the user is asked first.'
    : ''
  return `Sandbox blocked a write to ${path} (outside the agent's root and temp folder).${escape}`
}

/** What the result says of a host the sandbox's proxy refused (docs/sandbox.md#network). */
function refusedNote(host: string, ctx: ToolContext): string {
  const escape = ctx.sandbox?.settings.allowUnsandboxedCommands
    ? ' If the command must reach it, ask the user to allow the domain, or call Bash again with dangerouslyDisableSandbox: true; the user is asked first.'
    : ''
  return `Sandbox blocked a network connection to ${host} (not allowed by sandbox.network).${escape}`
}

/**
 * What the result says of a git file the command created where git, run later outside the
 * sandbox, would obey it (docs/sandbox.md#git), and that the sandbox removed.
 */
export function sweptNote(path: string): string {
  return `Sandbox removed ${path}: the command created it, and git run outside the sandbox would take its code or config from it.`
}

/**
 * The longest command the PTY host can hand to bash, in bytes: the command travels as one argument
 * of `bash -c` (pty/completionMarker.ts), and Linux refuses any single argument of
 * MAX_ARG_STRLEN = 32 pages = 131,072 bytes or more (`<linux/binfmts.h>`), the NUL included.
 */
export const MAX_COMMAND_BYTES = 131_071

/** @throws ToolError naming the size and the way out when `command` cannot be passed to bash. */
function assertCommandFits(command: string): void {
  const bytes = Buffer.byteLength(command)
  if (bytes > MAX_COMMAND_BYTES) {
    throw new ToolError(
      `The command is ${bytes} bytes; a command may be at most ${MAX_COMMAND_BYTES} bytes. Write long scripts or data to a file with the Write tool and run that file (e.g. bash script.sh).`
    )
  }
}

/** Text of a background start; BashOutput/KillShell take the id that follows `ID: `. */
export function backgroundStartedText(shellId: string): string {
  return `Command running in background with ID: ${shellId}`
}

/**
 * A background shell, confined like a foreground command; BashOutput and the shell list show the
 * command as the model wrote it. A sandboxed shell's git files are checked when it ends, and what
 * was removed is added to its output (docs/sandbox.md#git).
 */
function startInBackground(
  input: BashInput,
  command: string,
  note: string | undefined,
  ctx: ToolContext,
  guard: GitGuard | undefined
): ToolResult {
  const { shellId } = ctx.shells.start({
    command,
    label: input.command,
    cwd: ctx.cwd,
    onData: ctx.onOutput,
    ...(guard ? { onEnd: () => guard.sweep().map(sweptNote).join('\n') || undefined } : {})
  })
  return { content: note ? `${backgroundStartedText(shellId)}\n${note}` : backgroundStartedText(shellId) }
}

/**
 * A finished run as the model reads it: the cleaned, capped output ("(no output)" when empty),
 * then on failure one line saying why — `Exit code N`, `Killed by signal N`,
 * `Command timed out after N ms (process group killed)` or `Command was aborted`.
 */
export function formatRunResult(result: PtyRunResult, timeoutMs: number): ToolResult {
  const output = formatOutputForModel(result.output, result.omittedChars)
  let failure: string | undefined
  if (result.aborted) failure = 'Command was aborted'
  else if (result.timedOut) failure = `Command timed out after ${timeoutMs} ms (process group killed)`
  else if (result.signal !== null) failure = `Killed by signal ${result.signal}`
  else if (result.exitCode !== 0) failure = `Exit code ${result.exitCode}`
  if (failure === undefined) return { content: output === '' ? '(no output)' : output }
  return { content: output === '' ? failure : `${output}\n${failure}`, isError: true }
}
