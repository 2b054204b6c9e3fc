import type { RuntimeEventInput } from '../../../shared/events'
import type { EventBus, WithoutAgent } from '../events'
import type { LoopEvent } from '../loop'
import type { TranscriptWriter } from '../transcripts'

/**
 * The notice a compaction shows in the agent's pane, from its `compact_boundary` record:
 * `replaced` earlier messages became a summary (when there is one), `cut` oversized texts were cut
 * (each kept whole in the file it names).
 */
export function compactionNotice(record: {
  replaced: number
  summary: string
  cut?: readonly { file: string }[]
}): string {
  const cut = record.cut ?? []
  const cutText =
    cut.length > 0
      ? `Cut ${cut.length} oversized text${cut.length === 1 ? '' : 's'} to fit the context window; the whole text is kept in ${cut.map((c) => c.file).join(', ')}.`
      : ''
  if (record.summary === '' && cut.length > 0 && record.replaced <= 1) return cutText
  return [`Compacted ${record.replaced} earlier messages into a summary.`, cutText].filter(Boolean).join(' ')
}

/**
 * Where one agent's loop events go: API messages to its transcript (a compaction as a
 * `compact_boundary` followed by the new history, append-only; an assistant line with its
 * response's usage and model), everything else (and a `notice` for a compaction) to the event bus stamped with the agent. Text deltas stay out of the stream (docs/events.md#event-stream-and-command-line).
 */
export function createAgentSink(options: {
  bus: EventBus
  transcript: () => TranscriptWriter
  agentId: string
  agentName: string
  onToolCall?: () => void
}): (event: LoopEvent) => void {
  // the usage of a response comes just before its assistant message; it is recorded on that line
  let response: { usage: Record<string, number>; model: string } | undefined
  return (event) => {
    switch (event.type) {
      case 'text_delta':
        return
      case 'message':
        if (event.role === 'assistant' && response)
          options.transcript().append('assistant', event.message, undefined, response)
        else options.transcript().append(event.role, event.message)
        if (event.role === 'assistant') response = undefined
        return
      case 'compacted':
        options.transcript().append(
          'system',
          {
            summary: event.summary,
            replacedMessages: event.replaced,
            ...(event.cut.length ? { cutTexts: event.cut } : {})
          },
          'compact_boundary'
        )
        for (const m of event.messages) options.transcript().append(m.role === 'assistant' ? 'assistant' : 'user', m)
        // the pane and the stream show that the agent's history was compacted (docs/loop.md#the-agent-loop)
        options.bus.emit({
          type: 'notice',
          level: 'info',
          message: compactionNotice({ replaced: event.replaced, summary: event.summary, cut: event.cut }),
          agentId: options.agentId,
          agentName: options.agentName
        })
        return
      default:
        if (event.type === 'usage' && event.model) {
          response = {
            model: event.model,
            usage: {
              input_tokens: event.inputTokens,
              output_tokens: event.outputTokens,
              cache_creation_input_tokens: event.cacheCreationInputTokens,
              cache_read_input_tokens: event.cacheReadInputTokens
            }
          }
        }
        if (event.type === 'tool_call') options.onToolCall?.()
        options.bus.emit({
          ...(event as WithoutAgent<RuntimeEventInput>),
          agentId: options.agentId,
          agentName: options.agentName
        } as RuntimeEventInput)
    }
  }
}
