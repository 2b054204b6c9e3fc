/**
 * Errors of model access (docs/loop.md#the-agent-loop, docs/model.md#model-access). One base class; `kind` says whose fault it is and what
 * to do; `name` survives IPC and JSON. Messages tell the person what to do next.
 */
export type ModelErrorKind =
  | 'authentication'
  | 'connection'
  | 'model_not_found'
  | 'rate_limit'
  | 'overloaded'
  | 'scenario'
  | 'bad_request'
  | 'server'
  | 'timeout'
  | 'aborted'
  /** No API key is set (a first run): no request was made. */
  | 'no_api_key'

export class ModelError extends Error {
  override readonly name = 'ModelError'
  constructor(
    readonly kind: ModelErrorKind,
    message: string,
    /** `retries`: why each retried attempt failed, oldest first (`HTTP 529`, …); set on every failure of a stream. */
    readonly details: {
      status?: number
      requestId?: string | null
      baseUrl?: string
      model?: string
      retries?: readonly string[]
    } = {},
    options?: { cause?: unknown }
  ) {
    super(message, options)
  }

  /** Whether the same request may succeed later without any change by a person. */
  get retryable(): boolean {
    return (
      this.kind === 'rate_limit' || this.kind === 'overloaded' || this.kind === 'server' || this.kind === 'connection'
    )
  }
}
