import type { ModelError } from '../model'
import type { LoopRuntimeEvent } from './types'

/**
 * What a person sees when an agent's model call fails (issue 29: an error, never a silent
 * `idle`): a notice saying why — the {@link ModelError}'s message already names the retries
 * that happened — and the agent's `error` state carrying the same reason. The agent waits in
 * that state; its next prompt or message retries the call with the history as it stands.
 * A scenario error (the scripted model's script ran out) gets its own `scenario_error` event from
 * the caller, so it has no notice here.
 */
export function modelFailureEvents(error: ModelError): LoopRuntimeEvent[] {
  const reason = error.message
  const state: LoopRuntimeEvent = { type: 'agent_state', state: 'error', reason }
  if (error.kind === 'scenario') return [state]
  return [{ type: 'notice', level: 'error', message: modelFailureNotice(reason) }, state]
}

/** The error notice's words after a failed model call; `reason` is the error's message. */
export function modelFailureNotice(reason: string): string {
  return `The model call failed: ${reason} The next prompt or message retries it.`
}
