import type { ServerResponse } from 'node:http'
import type { AnswerBlock, ApiMessage } from './response'

/**
 * Writes one server-sent event the way the SDK requires (STACK.md): `event: <type>` then
 * `data: <json>` then a blank line; data-only events are ignored by the SDK.
 */
export function writeEvent(res: ServerResponse, type: string, data: unknown): void {
  res.write(`event: ${type}\ndata: ${JSON.stringify(data)}\n\n`)
}

/** Splits a string into at most `parts` non-empty pieces of near-equal length (for deltas). */
export function splitInChunks(text: string, parts: number): string[] {
  if (text.length === 0) return []
  const size = Math.ceil(text.length / parts)
  const chunks: string[] = []
  for (let i = 0; i < text.length; i += size) chunks.push(text.slice(i, i + size))
  return chunks
}

/** Opens an SSE response: status 200 and the API's streaming headers. */
export function startStream(res: ServerResponse, requestId: string): void {
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
    'request-id': requestId
  })
}

/** `message_start`: the message with empty content, null stop reason and the input usage. */
export function writeMessageStart(res: ServerResponse, message: ApiMessage): void {
  writeEvent(res, 'message_start', {
    type: 'message_start',
    message: {
      ...message,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { ...message.usage, output_tokens: 1 }
    }
  })
}

/** One content block: start, deltas (text in ≤4 pieces, tool input JSON in ≤3), stop. */
export function writeBlock(res: ServerResponse, index: number, block: AnswerBlock): void {
  if (block.type === 'text') {
    writeEvent(res, 'content_block_start', {
      type: 'content_block_start',
      index,
      content_block: { type: 'text', text: '' }
    })
    for (const text of splitInChunks(block.text, 4)) {
      writeEvent(res, 'content_block_delta', {
        type: 'content_block_delta',
        index,
        delta: { type: 'text_delta', text }
      })
    }
  } else {
    writeEvent(res, 'content_block_start', {
      type: 'content_block_start',
      index,
      content_block: { type: 'tool_use', id: block.id, name: block.name, input: {} }
    })
    for (const partial_json of splitInChunks(JSON.stringify(block.input), 3)) {
      writeEvent(res, 'content_block_delta', {
        type: 'content_block_delta',
        index,
        delta: { type: 'input_json_delta', partial_json }
      })
    }
  }
  writeEvent(res, 'content_block_stop', { type: 'content_block_stop', index })
}

/** A whole streamed answer: message_start, every block, message_delta (stop reason, usage), message_stop. */
export function writeStreamedMessage(res: ServerResponse, message: ApiMessage): void {
  writeMessageStart(res, message)
  message.content.forEach((block, index) => writeBlock(res, index, block))
  writeEvent(res, 'message_delta', {
    type: 'message_delta',
    delta: { stop_reason: message.stop_reason, stop_sequence: null },
    usage: {
      output_tokens: message.usage.output_tokens,
      input_tokens: message.usage.input_tokens,
      cache_creation_input_tokens: message.usage.cache_creation_input_tokens,
      cache_read_input_tokens: message.usage.cache_read_input_tokens
    }
  })
  writeEvent(res, 'message_stop', { type: 'message_stop' })
}

/**
 * The `overloaded_mid_stream` fault: message_start and the first part of the text, then an in-band
 * `error` event and the end of the response, as the API does when it is overloaded mid-answer.
 * A turn without text streams a stand-in fragment, so the client has always seen some content.
 */
export function writeOverloadedMidStream(res: ServerResponse, message: ApiMessage): void {
  writeMessageStart(res, message)
  const first = message.content[0]
  const text = first?.type === 'text' ? first.text : 'Working on it'
  writeEvent(res, 'content_block_start', {
    type: 'content_block_start',
    index: 0,
    content_block: { type: 'text', text: '' }
  })
  writeEvent(res, 'content_block_delta', {
    type: 'content_block_delta',
    index: 0,
    delta: { type: 'text_delta', text: text.slice(0, Math.max(1, Math.ceil(text.length / 2))) }
  })
  writeEvent(res, 'error', { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } })
  res.end()
}

/**
 * The start of an answer — message_start and the first half of its first text (a stand-in when it
 * has none) — then `then()`: the `disconnect_mid_stream` and `stall_mid_stream` faults.
 */
export function writeFirstTextThen(res: ServerResponse, message: ApiMessage, then: () => void): void {
  writeMessageStart(res, message)
  const first = message.content[0]
  const text = first?.type === 'text' ? first.text : 'Working on it'
  writeEvent(res, 'content_block_start', {
    type: 'content_block_start',
    index: 0,
    content_block: { type: 'text', text: '' }
  })
  writeEvent(res, 'content_block_delta', {
    type: 'content_block_delta',
    index: 0,
    delta: { type: 'text_delta', text: text.slice(0, Math.max(1, Math.ceil(text.length / 2))) }
  })
  then()
}

/** The `malformed_sse` fault: message_start, then an event whose data is not JSON, then the end. */
export function writeMalformedEvent(res: ServerResponse, message: ApiMessage): void {
  writeMessageStart(res, message)
  res.write('event: content_block_start\ndata: {"type": "content_block_start", "index": 0, \n\n')
  res.end()
}
