import { createInterface } from 'node:readline/promises'
import type { PermissionPromptAnswer, PermissionPromptRequest } from '../../shared/permissions'
import type { PermissionPrompter } from '../runtime/permissions/prompter'

/** `--approve` values (SPEC §14). */
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
 * asked one at a time, in arrival order.
 */
export class TerminalPrompter implements PermissionPrompter {
  private queue: Promise<unknown> = Promise.resolve()

  constructor(
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
    const rl = createInterface({ input: this.input, output: this.output, terminal: false })
    try {
      const always = request.suggestions[0]
      const choices = `[y] allow once${always ? `, [a] always allow ${always}` : ''}, [n] deny`
      for (;;) {
        const reply = (await rl.question(`Allow ${request.agentName} to use ${request.tool}? ${choices}: `, { signal })).trim().toLowerCase()
        if (reply === 'y' || reply === 'yes') return { decision: 'allow', by: 'user' }
        if (reply === 'a' && always) return { decision: 'allow', by: 'user', alwaysAllowRule: always }
        if (reply === 'n' || reply === 'no') {
          const reason = (await rl.question('Reason (optional, sent to the agent): ', { signal })).trim()
          return { decision: 'deny', by: 'user', ...(reason ? { reason } : {}) }
        }
      }
    } catch {
      return { decision: 'deny', by: 'cancelled', reason: signal.aborted ? 'the agent stopped' : 'no answer (input closed)' }
    } finally {
      rl.close()
    }
  }
}

/**
 * The prompter for `--approve FLAG` (SPEC §14): `ask` is interactive on a TTY and means `none`
 * elsewhere; the default is `ask`.
 */
export function prompterFor(flag: ApproveFlag, isTty: boolean): PermissionPrompter {
  if (flag === 'all') return new ApproveFlagPrompter('allow')
  if (flag === 'none' || !isTty) return new ApproveFlagPrompter('deny')
  return new TerminalPrompter()
}
