import { z } from 'zod'
import type { RuntimeEvent } from './events'

/**
 * What the team dashboard shows about an agent beyond its view (docs/ui.md#the-workspace-ui team dashboard): when it
 * last produced an event (for the "stuck" marker), the last thing it said, and how full its
 * context is. Main keeps it per agent for the snapshot; the renderer keeps it current with the
 * same reducer, {@link noteActivity}, so both sides agree on what "last message" means.
 */
export const MemberActivitySchema = z.object({
  /** Time (ISO) of the newest event the agent produced. */
  lastEventAt: z.string(),
  /** `seq` of that event: of two records of one agent, the higher wins. */
  seq: z.number().int().nonnegative(),
  /**
   * The last thing it said: its last finished assistant text, or the summary (else the text) of
   * its last SendMessage, with the recipient. At most {@link MAX_MESSAGE_CHARS} characters.
   */
  lastMessage: z.object({ text: z.string(), to: z.string().optional() }).optional(),
  /**
   * Tokens of its last model request's prompt: input + cache reads + cache writes (units: tokens).
   * Over the model's window ({@link ../contextWindows}) it is the context used.
   */
  contextTokens: z.number().int().nonnegative().optional(),
  /** The model of that request, when the usage event named it. */
  contextModel: z.string().optional()
})
export type MemberActivity = z.infer<typeof MemberActivitySchema>

/** Longest last message kept (characters): a dashboard row shows one line of it. */
export const MAX_MESSAGE_CHARS = 280

/** Runtime events an agent produces itself or has produced on its behalf; the rest (a person's edits) do not count. */
const NOT_ACTIVITY: ReadonlySet<RuntimeEvent['type']> = new Set<RuntimeEvent['type']>([
  'run_finished',
  'scenario_error'
])

/**
 * The activity after `event`, or `prev` itself when the event says nothing about its agent (so a
 * store update can be skipped). Events older than `prev` (by `seq`) change nothing.
 */
export function noteActivity(prev: MemberActivity | undefined, event: RuntimeEvent): MemberActivity | undefined {
  if (NOT_ACTIVITY.has(event.type)) return prev
  if (prev && event.seq <= prev.seq) return prev
  const next: MemberActivity = { ...prev, lastEventAt: event.time, seq: event.seq }
  if (event.type === 'assistant_text') {
    const text = oneLine(event.text)
    if (text) next.lastMessage = { text }
  } else if (event.type === 'tool_call' && event.name === 'SendMessage') {
    const said = sendMessageText(event.input)
    if (said) next.lastMessage = said
  } else if (event.type === 'usage') {
    next.contextTokens = event.inputTokens + event.cacheReadInputTokens + event.cacheCreationInputTokens
    if (event.model) next.contextModel = event.model
  }
  return next
}

/** The readable part of a SendMessage input `{to, message, summary?}` (docs/teams.md#sendmessage-between-teammates); undefined when it has none. */
export function sendMessageText(input: unknown): { text: string; to?: string } | undefined {
  if (typeof input !== 'object' || input === null) return undefined
  const { to, message, summary } = input as { to?: unknown; message?: unknown; summary?: unknown }
  const recipient = typeof to === 'string' && to.trim() ? { to: to.trim() } : {}
  if (typeof summary === 'string' && summary.trim()) return { text: oneLine(summary), ...recipient }
  if (typeof message === 'string' && message.trim()) return { text: oneLine(message), ...recipient }
  if (typeof message === 'object' && message !== null) {
    const text = structuredText(message as Record<string, unknown>)
    if (text) return { text, ...recipient }
  }
  return undefined
}

/** A protocol message in words (never raw JSON, STYLE: nothing a user sees is raw JSON). */
function structuredText(m: Record<string, unknown>): string | undefined {
  const reason = typeof m.reason === 'string' && m.reason.trim() ? `: ${oneLine(m.reason)}` : ''
  const feedback = typeof m.feedback === 'string' && m.feedback.trim() ? `: ${oneLine(m.feedback)}` : ''
  switch (m.type) {
    case 'shutdown_request':
      return `asked to shut down${reason}`
    case 'shutdown_response':
      return m.approve === false ? `declined to shut down${reason}` : 'agreed to shut down'
    case 'plan_approval_response':
      return m.approve === false ? `rejected the plan${feedback}` : 'approved the plan'
    default:
      return typeof m.type === 'string' ? m.type.replace(/_/g, ' ') : undefined
  }
}

/** Whitespace collapsed to single spaces, cut to {@link MAX_MESSAGE_CHARS} with an ellipsis. */
function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim()
  return flat.length > MAX_MESSAGE_CHARS ? `${flat.slice(0, MAX_MESSAGE_CHARS - 1)}…` : flat
}
