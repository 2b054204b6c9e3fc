import { useState } from 'react'
import { errorText } from './errorText'

/** What {@link usePendingAction} gives a button: whether its request runs, its last refusal, and the start. */
export interface PendingAction {
  pending: boolean
  /** The last refusal in words (the runtime's message), cleared when the action starts again. */
  error: string | undefined
  /** Starts the request; resolves once it settled, never rejects. */
  run: () => Promise<void>
}

/**
 * A button's one request (docs/ui.md#the-workspace-ui): `pending` while `request` runs, its refusal
 * kept as `error` to show beside the button. With `staysPending`, a request that succeeded leaves
 * `pending` on (it ends the page, as a new session does); `onError` runs after a refusal.
 */
export function usePendingAction(
  request: () => Promise<unknown>,
  options: { staysPending?: boolean; onError?: () => void } = {}
): PendingAction {
  const [pending, setPending] = useState(false)
  const [error, setError] = useState<string | undefined>()
  const run = async (): Promise<void> => {
    setPending(true)
    setError(undefined)
    try {
      await request()
      if (!options.staysPending) setPending(false)
    } catch (err) {
      setError(errorText(err))
      setPending(false)
      options.onError?.()
    }
  }
  return { pending, error, run }
}

/** A refusal beside its button, read in full on hover; nothing when there is none. */
export function ActionError({ error }: { error: string | undefined }) {
  return error ? (
    <span className="resume-error" role="status" title={error}>
      {error}
    </span>
  ) : null
}
