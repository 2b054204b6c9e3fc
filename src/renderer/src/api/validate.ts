import { parseRuntimeEvent } from '../../../shared/events'
import {
  pushChannels,
  requestChannels,
  type PushChannel,
  type PushOf,
  type RequestChannel,
  type RequestOf,
  type ResponseOf
} from '../../../shared/ipc'
import { issuesSentence } from '../lib/fieldIssues'
import { BridgeProtocolError, RequestInvalidError } from './errors'

/**
 * The renderer validates everything it receives (STYLE.md 3, 4): whatever comes over the preload
 * or the WebSocket is checked against the contract before the store sees it.
 */

/** True for a channel name the contract defines as a push channel. */
export function isPushChannel(name: string): name is PushChannel {
  return Object.hasOwn(pushChannels, name)
}

/** True for a channel name the contract defines as a request channel. */
export function isRequestChannel(name: string): name is RequestChannel {
  return Object.hasOwn(requestChannels, name)
}

/**
 * Parses a pushed payload.
 * @returns the payload; `undefined` for a runtime event of a type this version does not know
 *   (docs/events.md#event-stream-and-command-line: consumers ignore unknown types).
 * @throws z.ZodError when the payload does not match its schema.
 */
export function parsePush<C extends PushChannel>(channel: C, payload: unknown): PushOf<C> | undefined {
  if (channel === 'runtime.event') return parseRuntimeEvent(payload) as PushOf<C> | undefined
  return pushChannels[channel].parse(payload) as PushOf<C>
}

/**
 * Parses a response.
 * @throws BridgeProtocolError naming the channel and each field in words when it does not match the channel's response schema.
 */
export function parseResponse<C extends RequestChannel>(channel: C, result: unknown): ResponseOf<C> {
  const parsed = requestChannels[channel].response.safeParse(result)
  if (!parsed.success)
    throw new BridgeProtocolError(
      `The answer to '${channel}' does not fit the contract (${issuesSentence(parsed.error.issues)}); the page and the host are out of step: reload the page.`
    )
  return parsed.data as ResponseOf<C>
}

/**
 * Checks a request before it leaves, so a bad call fails here with a clear error.
 * @throws RequestInvalidError with each problem in words (its `issues` by field path, for a form).
 */
export function checkRequest<C extends RequestChannel>(channel: C, payload: RequestOf<C>): RequestOf<C> {
  const parsed = requestChannels[channel].request.safeParse(payload)
  if (!parsed.success) throw new RequestInvalidError(channel, parsed.error.issues)
  return parsed.data as RequestOf<C>
}
