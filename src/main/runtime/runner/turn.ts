import type { ContentBlockParam, MessageParam } from '@anthropic-ai/sdk/resources/messages'
import type { RuntimeEventInput } from '../../../shared/events'
import type { EventBus, WithoutAgent } from '../events'
import {
  modelFailureEvents,
  query,
  type LoopEvent,
  type LoopRuntimeEvent,
  type QueryEnd,
  type QueryParams
} from '../loop'
import type { TranscriptWriter } from '../transcripts'
import { createAgentSink } from './agentSink'

/**
 * How one turn of an agent ended: the loop's own end ({@link QueryEnd}), or `failed` when the
 * turn could not go on for a reason outside the model — its transcript could not be written (a
 * full disk, TranscriptWriteError) or a tool threw an unexpected exception (a bug). A failed turn
 * was stopped and drained: its tool calls ended, nothing of it runs on unrecorded. Its history
 * was cut back to what the transcript holds; `repair` answers the tool calls of its last recorded
 * answer that got no recorded result (see {@link failedCallResults}): the host leads its next
 * opening message with them, as after a restart, so the next turn's history is valid and the same
 * as the transcript's.
 */
export type TurnEnd =
  QueryEnd | { reason: 'failed'; error: Error; finalText: string; turns: number; repair?: ContentBlockParam[] }

/** What {@link runAgentTurn} needs: one agent's loop inputs and where its turn goes. */
export interface AgentTurn {
  /** The loop's inputs, but its signal (see `controller`). */
  query: Omit<QueryParams, 'signal'>
  /**
   * The turn's stop: aborting it stops the turn like Esc (the end is `aborted`). The runner aborts
   * it too when the turn fails, so whatever follows the turn's signal (a sync subagent) stops with it.
   */
  controller: AbortController
  /** Another stop of the turn the host owns (a teammate's own stop signal), if any. */
  signal?: AbortSignal
  bus: EventBus
  transcript: TranscriptWriter
  /**
   * The user message that opens the turn, when the host has one: recorded first, then appended
   * to the history. A transcript that refuses it fails the turn with the history unchanged.
   */
  opening?: MessageParam
  /** Runs once the opening message is recorded (the host consumes what it put in it). */
  onOpened?: () => void
  /** Runs once the turn shows as `running`, before the first model request (a teammate marks its messages read here). */
  onStarted?: () => Promise<unknown>
  /** Emit `running` at the start (default true; a subagent continuing its own run is running already). */
  announce?: boolean
  /** Emit `idle` after a turn that did not fail (default true; a subagent ends with its own cleanup). */
  idleAfter?: boolean
  /** True when nothing more may be said of the agent (the host closed it): the end's state events are left out. */
  silent?: () => boolean
  /**
   * The pane's note when the turn was stopped by the agent's interrupt (Esc), undefined for any
   * other stop (a shutdown, a close): an `aborted` end then emits it as an info notice before the
   * agent's `idle` — the same for every kind of agent (docs/loop.md#failure-paths).
   */
  interruption?: () => string | undefined
  /** Counts tool calls (a subagent's notification reports them). */
  onToolCall?: () => void
}

/**
 * Runs one turn of one agent — the leader, a subagent or fork, a teammate of either backend — the
 * same way for all of them (docs/loop.md): records the opening message, emits `running`, runs
 * `query()`, sends its events through the agent's sink (API messages to the transcript, everything
 * else to the bus stamped with the agent; compactions as `compact_boundary`), and ends with the
 * agent's state: `idle`, or `error` with the reason after a model error or a failed turn.
 *
 * Every failure path ends the same way for every kind of agent:
 * - a transcript line that cannot be written stops the turn at once (its controller is aborted,
 *   so running tools and the model stream stop), lets the loop finish its cleanup without
 *   recording more, and ends `failed` with the TranscriptWriteError;
 * - a tool that throws an unexpected exception (not a ToolError) aborts the turn's other tool
 *   calls and ends `failed` with that exception;
 * - a model error ends `model_error` (the loop already tried its retries);
 * - the host's stop (`controller`, `signal`) ends `aborted`.
 * A failed turn emits an error notice and `error` with the reason; the agent stays usable (its
 * next prompt or message starts a new turn). Never rejects.
 */
export async function runAgentTurn(turn: AgentTurn): Promise<TurnEnd> {
  const who = { agentId: turn.query.toolContext.agentId, agentName: turn.query.toolContext.agentName }
  const emit = (event: WithoutAgent<RuntimeEventInput>): void => {
    turn.bus.emit({ ...event, ...who } as RuntimeEventInput)
  }
  const recorded = { length: turn.query.messages.length }
  const end = settle(await drive(turn, emit, recorded), turn.query.messages, recorded.length)
  if (turn.silent?.()) return end
  const note = end.reason === 'aborted' ? turn.interruption?.() : undefined
  if (note) emit({ type: 'notice', level: 'info', message: `Interrupted: ${note}` })
  for (const event of endEvents(end, turn.idleAfter !== false)) emit(event)
  return end
}

async function drive(
  turn: AgentTurn,
  emit: (event: WithoutAgent<RuntimeEventInput>) => void,
  recorded: { length: number }
): Promise<TurnEnd> {
  const stop = turn.controller
  const failed = (error: unknown, finalText = '', turns = 0): TurnEnd => ({
    reason: 'failed',
    error: error instanceof Error ? error : new Error(String(error)),
    finalText,
    turns
  })
  if (turn.opening) {
    // recorded first: a transcript that cannot be written refuses the turn with nothing changed
    try {
      turn.transcript.append('user', turn.opening)
    } catch (error) {
      return failed(error)
    }
    turn.query.messages.push(turn.opening)
    recorded.length = turn.query.messages.length
    turn.onOpened?.()
  }
  if (turn.announce !== false) emit({ type: 'agent_state', state: 'running' })
  const sink = createAgentSink({
    bus: turn.bus,
    transcript: () => turn.transcript,
    agentId: turn.query.toolContext.agentId,
    agentName: turn.query.toolContext.agentName,
    ...(turn.onToolCall ? { onToolCall: turn.onToolCall } : {})
  })
  let loop: AsyncGenerator<LoopEvent, QueryEnd> | undefined
  let seen = { finalText: '', turns: 0 }
  try {
    await turn.onStarted?.()
    loop = query({ ...turn.query, signal: turn.signal ? AbortSignal.any([turn.signal, stop.signal]) : stop.signal })
    for (;;) {
      const step = await loop.next()
      if (step.done) return step.value
      if (step.value.type === 'assistant_text') seen = { ...seen, finalText: step.value.text }
      if (step.value.type === 'usage') seen = { ...seen, turns: seen.turns + 1 }
      try {
        sink(step.value)
        // the loop pushes each API message to the history before it yields it: recorded now
        if (step.value.type === 'message') recorded.length = turn.query.messages.length
      } catch (error) {
        // The turn cannot be recorded: stop it, and let it end — its tools stopped — before failing.
        stop.abort()
        await drain(loop)
        return failed(error, seen.finalText, seen.turns)
      }
    }
  } catch (error) {
    // a tool's unexpected exception (or a failing onStarted): its sibling calls are stopped too
    stop.abort()
    return failed(error, seen.finalText, seen.turns)
  }
}

/** The text of a placeholder result of a tool call a failed turn left unanswered. */
export const FAILED_TURN_TOOL_RESULT =
  'Not finished: the turn failed while this tool call ran; its effects, if any, are unknown. Check before repeating it.'

/**
 * After a failed turn, makes the history what the transcript holds: the messages the loop added
 * but the transcript refused (or that a stopped loop added after that) are dropped, and the tool
 * calls of a recorded last answer without a recorded result get placeholder results
 * ({@link FAILED_TURN_TOOL_RESULT}) in the end's `repair` — the Messages API rejects a `tool_use`
 * whose next message has no matching `tool_result`. Other ends are returned as they are.
 */
function settle(end: TurnEnd, messages: MessageParam[], recordedLength: number): TurnEnd {
  if (end.reason !== 'failed') return end
  messages.length = Math.min(messages.length, recordedLength)
  const repair = failedCallResults(messages.at(-1))
  return repair ? { ...end, repair } : end
}

/** Error results for every `tool_use` of `last` when it is an assistant answer; undefined otherwise. */
function failedCallResults(last: MessageParam | undefined): ContentBlockParam[] | undefined {
  if (!last || last.role !== 'assistant' || typeof last.content === 'string') return undefined
  const calls = last.content.filter((b) => b.type === 'tool_use')
  if (calls.length === 0) return undefined
  return calls.map((b) => ({
    type: 'tool_result' as const,
    tool_use_id: (b as { id: string }).id,
    is_error: true,
    content: FAILED_TURN_TOOL_RESULT
  }))
}

/** Runs a stopped loop to its end without recording what it still yields; its own failure is not the one to report. */
async function drain(loop: AsyncGenerator<LoopEvent, QueryEnd>): Promise<void> {
  try {
    while (!(await loop.next()).done) {
      // events of a stopped turn are not recorded
    }
  } catch {
    // the recording failure is the error to report
  }
}

/**
 * The events that end a turn: after a model error its notice and `error` state (loop/failure.ts);
 * after a failed turn an error notice and `error` with the same reason; else `idle` when asked.
 */
export function endEvents(end: TurnEnd, idle: boolean): LoopRuntimeEvent[] {
  if (end.reason === 'model_error') return modelFailureEvents(end.error)
  if (end.reason === 'failed') {
    const reason = end.error.message
    return [
      { type: 'notice', level: 'error', message: failedTurnNotice(reason) },
      { type: 'agent_state', state: 'error', reason }
    ]
  }
  return idle ? [{ type: 'agent_state', state: 'idle' }] : []
}

/** The error notice's words after a turn failed around its model call (see {@link endEvents}); `reason` is the error's message. */
export function failedTurnNotice(reason: string): string {
  return `The turn failed and was stopped: ${reason} The next prompt or message starts a new turn.`
}

/** Why a turn did not complete, in words (a notification's or an idle message's reason); undefined for a completed or stopped turn. */
export function turnFailure(end: TurnEnd): string | undefined {
  if (end.reason === 'model_error' || end.reason === 'failed') return end.error.message
  return end.reason === 'completed' || end.reason === 'aborted' ? undefined : end.reason
}
