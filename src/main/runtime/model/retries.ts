import type { Middleware } from '@anthropic-ai/sdk'

/**
 * The record of one request's failed attempts, SDK retries and Swarmdesk's own alike (docs/loop.md#the-agent-loop:
 * the SDK retries HTTP 408/409/429/5xx/529 and connection failures before a response starts;
 * {@link ModelClient} retries an in-band `overloaded_error` or a cut before any content). A failed
 * model call reports which retries happened, so a person sees "HTTP 529 ×4" instead of an agent
 * that silently went idle.
 *
 * The SDK has no retry callback; its per-request middleware runs once per HTTP attempt, inside its
 * retry loop (`@anthropic-ai/sdk` core/middleware.ts), so {@link AttemptLog.middleware} sees every
 * attempt and what it came back with.
 */
export class AttemptLog {
  /** Why each failed attempt failed, oldest first (`HTTP 529`, `connection failed`, …). */
  private readonly failures: string[] = []
  /** How many of {@link failures} were already reported as retries. */
  private reported = 0

  /** The SDK middleware recording each attempt's failure; the response or error passes through unchanged. */
  readonly middleware: Middleware = async (request, next) => {
    try {
      const response = await next(request)
      if (!response.ok) this.failures.push(`HTTP ${response.status}`)
      return response
    } catch (error) {
      this.failures.push('connection failed')
      throw error
    }
  }

  /** Records a failure this client retries itself (an in-band overload, a cut before content). */
  noteOwnRetry(cause: string): void {
    this.failures.push(cause)
    this.reported = this.failures.length
  }

  /**
   * The failures the SDK retried since the last call, once a later attempt got a response: every
   * failure recorded so far, since a response followed them.
   */
  takeRetried(): string[] {
    const fresh = this.failures.slice(this.reported)
    this.reported = this.failures.length
    return fresh
  }

  /**
   * The failures that were retried when the request finally failed: all but the last one, which
   * is the failure itself. `finalRecorded`: whether the final failure is among the recorded ones
   * (an HTTP or connection failure is; a stream that broke after its headers is not).
   */
  retriedBeforeFailure(finalRecorded: boolean): string[] {
    return finalRecorded ? this.failures.slice(0, -1) : [...this.failures]
  }
}

/**
 * One sentence saying which retries happened, for a failure's message: `Retried 4 times before
 * giving up (HTTP 529 ×4).`, or `It was not retried.` when none was made.
 */
export function retrySentence(retries: readonly string[]): string {
  if (retries.length === 0) return 'It was not retried.'
  return `Retried ${retries.length} time${retries.length === 1 ? '' : 's'} before giving up (${countCauses(retries)}).`
}

/** `HTTP 529 ×3, connection failed` — consecutive equal causes counted. */
export function countCauses(causes: readonly string[]): string {
  const runs: Array<{ cause: string; n: number }> = []
  for (const cause of causes) {
    const last = runs.at(-1)
    if (last?.cause === cause) last.n++
    else runs.push({ cause, n: 1 })
  }
  return runs.map((r) => (r.n > 1 ? `${r.cause} ×${r.n}` : r.cause)).join(', ')
}
