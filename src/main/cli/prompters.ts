import { createInterface } from 'node:readline/promises'
import type { PermissionPromptAnswer, PermissionPromptRequest } from '../../shared/permissions'
import type { PermissionPrompter } from '../runtime/permissions'
import { diffOf } from '../app/uiPrompter'
import { useColor } from './io'

/** `--approve` values (docs/events.md#event-stream-and-command-line). */
export type ApproveFlag = 'all' | 'none' | 'ask'

/**
 * Answers every permission question with the same decision, without a person (`--approve all`
 * or `none`). The question is still emitted and its answer recorded as `by: "approve-flag"`.
 */
export class ApproveFlagPrompter implements PermissionPrompter {
  constructor(private readonly decision: 'allow' | 'deny') {}

  async prompt(_request: PermissionPromptRequest, signal: AbortSignal): Promise<PermissionPromptAnswer> {
    if (signal.aborted) return { decision: 'deny', by: 'cancelled', reason: 'the agent stopped' }
    return this.decision === 'allow'
      ? { decision: 'allow', by: 'approve-flag' }
      : { decision: 'deny', by: 'approve-flag', reason: 'denied by --approve none' }
  }
}

/**
 * Asks the person at the terminal (`--approve ask` on a TTY): y = allow once, a = always allow
 * (the first suggested rule, for this session), n = deny with an optional reason. Questions are
 * asked one at a time, in arrival order. Before each question it shows, on lines of their own,
 * what is asked about: an edit's diff, a command and the directory it runs in, a plan, or the
 * tool's input (see {@link describeRequest}).
 */
export class TerminalPrompter implements PermissionPrompter {
  private queue: Promise<unknown> = Promise.resolve()

  /** @param cwd where the run works: the directory shown when a request does not name its agent's own. */
  constructor(
    private readonly cwd: string,
    private readonly input: NodeJS.ReadableStream = process.stdin,
    private readonly output: NodeJS.WritableStream = process.stderr
  ) {}

  prompt(request: PermissionPromptRequest, signal: AbortSignal): Promise<PermissionPromptAnswer> {
    const next = this.queue.then(() => this.ask(request, signal))
    this.queue = next.catch(() => undefined)
    return next
  }

  private async ask(request: PermissionPromptRequest, signal: AbortSignal): Promise<PermissionPromptAnswer> {
    if (signal.aborted) return { decision: 'deny', by: 'cancelled', reason: 'the agent stopped' }
    const color = useColor(this.output as NodeJS.WriteStream)
    this.output.write(await describeRequest(request, request.cwd ?? this.cwd, color))
    const rl = createInterface({ input: this.input, output: this.output, terminal: false })
    try {
      const always = request.suggestions[0]
      const choices = `[y] allow once${always ? `, [a] always allow ${always}` : ''}, [n] deny`
      for (;;) {
        const reply = (await rl.question(`Allow ${request.agentName} to use ${request.tool}? ${choices}: `, { signal }))
          .trim()
          .toLowerCase()
        if (reply === 'y' || reply === 'yes') return { decision: 'allow', by: 'user' }
        if (reply === 'a' && always) return { decision: 'allow', by: 'user', alwaysAllowRule: always }
        if (reply === 'n' || reply === 'no') {
          const reason = (await rl.question('Reason (optional, sent to the agent): ', { signal })).trim()
          return { decision: 'deny', by: 'user', ...(reason ? { reason } : {}) }
        }
      }
    } catch {
      return {
        decision: 'deny',
        by: 'cancelled',
        reason: signal.aborted ? 'the agent stopped' : 'no answer (input closed)'
      }
    } finally {
      rl.close()
    }
  }
}

/**
 * The prompter for `--approve FLAG` (docs/events.md#event-stream-and-command-line): `ask` is interactive on a TTY and means `none`
 * elsewhere; the default is `ask`. `cwd` is the run's workspace.
 */
export function prompterFor(flag: ApproveFlag, isTty: boolean, cwd: string): PermissionPrompter {
  if (flag === 'all') return new ApproveFlagPrompter('allow')
  if (flag === 'none' || !isTty) return new ApproveFlagPrompter('deny')
  return new TerminalPrompter(cwd)
}

/** Lines of a diff, plan or input shown before a question; the rest is counted, not printed. */
const MAX_SHOWN_LINES = 60

/**
 * What a permission question is about, as terminal lines ending in a newline: a header naming
 * the agent, the tool and the engine's reason, then an Edit's or Write's unified diff (computed
 * from the file on disk, coloured when `color`), a Bash command with the directory it runs in,
 * a plan, or the input as JSON for any other tool.
 */
export async function describeRequest(request: PermissionPromptRequest, cwd: string, color: boolean): Promise<string> {
  const paint = (code: number) => (text: string) => (color ? `\x1b[${code}m${text}\x1b[39m` : text)
  const [red, green, yellow, cyan] = [paint(31), paint(32), paint(33), paint(36)]
  const input = (request.input ?? {}) as Record<string, unknown>
  const lines = [
    yellow(`? ${request.agentName} asks to use ${request.tool}${request.reason ? ` — ${request.reason}` : ''}`)
  ]
  const body: string[] = []
  const diff = await diffOf(request.tool, request.input, cwd)
  if (diff !== undefined) {
    lines.push(`  ${String(input.file_path)}  (in ${cwd})`)
    // createTwoFilesPatch's first line is a row of '=': noise on a terminal
    for (const l of diff
      .replace(/\n$/, '')
      .split('\n')
      .filter((l) => !/^=+$/.test(l))) {
      body.push(l.startsWith('+') ? green(l) : l.startsWith('-') ? red(l) : l.startsWith('@@') ? cyan(l) : l)
    }
  } else if (request.tool === 'Bash' && typeof input.command === 'string') {
    body.push(...input.command.split('\n').map((l, i) => `${i === 0 ? '$' : '>'} ${l}`))
    lines.push(...clip(body).map((l) => `  ${l}`), `  in ${cwd}`)
    return lines.join('\n') + '\n'
  } else if (typeof input.plan === 'string') {
    body.push(...input.plan.replace(/\n$/, '').split('\n'))
  } else {
    body.push(...JSON.stringify(request.input ?? null, null, 2).split('\n'))
  }
  lines.push(...clip(body).map((l) => `  ${l}`))
  return lines.join('\n') + '\n'
}

function clip(lines: string[]): string[] {
  return lines.length <= MAX_SHOWN_LINES
    ? lines
    : [...lines.slice(0, MAX_SHOWN_LINES), `… ${lines.length - MAX_SHOWN_LINES} more lines`]
}
