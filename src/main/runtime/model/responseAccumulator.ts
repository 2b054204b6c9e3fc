import type { RawMessageStreamEvent } from '@anthropic-ai/sdk/resources/messages'
import { ZERO_USAGE, type Usage } from '../../../shared/events'
import type { AssistantMessage, ModelStreamEvent } from './types'

/** Builds the assistant message from raw stream events. */
export class ResponseAccumulator {
  private readonly blocks: Array<
    { type: 'text'; text: string } | { type: 'tool_use'; id: string; name: string; json: string }
  > = []
  private usage: Usage = { ...ZERO_USAGE }
  private stopReason: string | null = null
  private model = ''
  /** `message_stop` arrived: the response is whole. A stream that ends without it was cut. */
  complete = false

  /** Applies one event; returns the text delta it carried, if any. */
  apply(event: RawMessageStreamEvent): string | undefined {
    switch (event.type) {
      case 'message_start': {
        const u = event.message.usage
        this.model = event.message.model
        this.usage = {
          inputTokens: u.input_tokens ?? 0,
          outputTokens: u.output_tokens ?? 0,
          cacheCreationInputTokens: u.cache_creation_input_tokens ?? 0,
          cacheReadInputTokens: u.cache_read_input_tokens ?? 0
        }
        return undefined
      }
      case 'content_block_start': {
        const b = event.content_block
        if (b.type === 'text') this.blocks[event.index] = { type: 'text', text: b.text ?? '' }
        else if (b.type === 'tool_use')
          this.blocks[event.index] = { type: 'tool_use', id: b.id, name: b.name, json: '' }
        return undefined
      }
      case 'content_block_delta': {
        const block = this.blocks[event.index]
        if (event.delta.type === 'text_delta' && block?.type === 'text') {
          block.text += event.delta.text
          return event.delta.text
        }
        if (event.delta.type === 'input_json_delta' && block?.type === 'tool_use')
          block.json += event.delta.partial_json
        return undefined
      }
      case 'message_stop':
        this.complete = true
        return undefined
      case 'message_delta': {
        this.stopReason = event.delta.stop_reason ?? null
        const u = event.usage
        this.usage = {
          inputTokens: u.input_tokens ?? this.usage.inputTokens,
          outputTokens: u.output_tokens ?? this.usage.outputTokens,
          cacheCreationInputTokens: u.cache_creation_input_tokens ?? this.usage.cacheCreationInputTokens,
          cacheReadInputTokens: u.cache_read_input_tokens ?? this.usage.cacheReadInputTokens
        }
        return undefined
      }
      default:
        return undefined
    }
  }

  finish(requestedModel: string): ModelStreamEvent {
    const content: AssistantMessage['content'] = []
    for (const b of this.blocks) {
      if (!b) continue
      if (b.type === 'text') content.push({ type: 'text', text: b.text })
      else content.push({ type: 'tool_use', id: b.id, name: b.name, input: parseToolInput(b.json) })
    }
    return {
      type: 'response',
      message: { role: 'assistant', content },
      stopReason: this.stopReason,
      usage: this.usage,
      model: this.model || requestedModel
    }
  }
}

/** Tool input JSON as streamed; an empty string is `{}` (a tool with no arguments). */
function parseToolInput(json: string): unknown {
  if (json.trim() === '') return {}
  try {
    return JSON.parse(json)
  } catch {
    // Keep the raw text: the loop reports it to the model as an input error instead of crashing.
    return { __unparsable_input__: json }
  }
}
