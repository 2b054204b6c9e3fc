import type { IncomingMessage, ServerResponse } from 'node:http'
import { setTimeout as sleep } from 'node:timers/promises'
import { decodeIdentityHeader, IDENTITY_HEADERS, IdentityHeaderError } from './identityHeaders'
import { claudeCodeIdentity, spawnsOf, TITLE_SCRIPT } from './claudeCode'
import { acceptsModel, checkKey } from './endpoints'
import { ScriptUnavailableError } from './errors'
import { header, headerRecord, MAX_BODY_BYTES, readBody, sendError, sendJson } from './http'
import { fillDeep, fillString, placeholderValues } from './placeholders'
import { analysePrompt, promptBlocks } from './prompt'
import { MessagesRequestSchema, newestUserText, type MessagesRequest } from './request'
import { answerContent, answerMessage, apiUsage, outputTokens, randomId } from './response'
import type { Selection } from './scriptBook'
import {
  startStream,
  writeFirstTextThen,
  writeMalformedEvent,
  writeOverloadedMidStream,
  writeStreamedMessage
} from './sse'
import type { RecordedRequest, ScriptedState } from './state'
import { exampleForSchema, structuredOutputProblem } from './structured'
import { offeredWebSearch, webSearchBlocks } from './webSearch'

/** The API accepts at most 4 blocks with `cache_control` per request. */
export const MAX_BREAKPOINTS = 4

/**
 * Answers POST /v1/messages (docs/model.md#model-access, docs/scenarios.md#scripted-model-scenarios): records the request, checks key and model, picks the
 * agent's turn, waits its `delayMs`, injects its fault once, or answers (SSE when `stream`).
 * Check order follows the API: authentication, then body, then model.
 */
export async function handleMessages(state: ScriptedState, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const requestId = randomId('req_')
  const raw = await readBody(req)
  let body: unknown = null
  try {
    if (raw !== undefined) body = JSON.parse(raw)
  } catch {
    // Recorded as null and refused below, after authentication.
  }
  let identity: RequestIdentity = {}
  let badIdentity: IdentityHeaderError | undefined
  try {
    identity = requestIdentity(req)
  } catch (error) {
    if (!(error instanceof IdentityHeaderError)) throw error
    badIdentity = error // refused below, after authentication, as a malformed body is
  }
  const recorded: RecordedRequest = {
    index: state.log.length,
    time: new Date(state.clock()).toISOString(),
    headers: headerRecord(req),
    body,
    ...(raw !== undefined ? { rawBody: raw } : {}),
    ...definedIdentity(identity)
  }
  state.log.push(recorded)
  state.recordOf.set(req, recorded)
  state.stats.requests++

  if (!checkKey(state, req, res, requestId)) return
  if (badIdentity) return sendError(res, requestId, 400, 'invalid_request_error', badIdentity.message)
  if (raw === undefined)
    return sendError(
      res,
      requestId,
      413,
      'request_too_large',
      `Request exceeds the maximum size of ${MAX_BODY_BYTES} bytes`
    )
  const parsed = MessagesRequestSchema.safeParse(body)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    const where = issue.path.map(String).join('.')
    return sendError(
      res,
      requestId,
      400,
      'invalid_request_error',
      body === null ? 'request body is not valid JSON' : `${where}: ${issue.message}`
    )
  }
  const request = parsed.data
  // Claude Code says who is asking in its own headers; Swarmdesk's win where both are sent
  const claudeCode = Object.values(identity).every((value) => value === undefined)
    ? claudeCodeIdentity(req, request, state.spawns)
    : undefined
  if (claudeCode) {
    const { title, ...fields } = claudeCode
    identity = fields
    Object.assign(recorded, definedIdentity(identity))
    if (title && !state.scenario.agents[TITLE_SCRIPT]) {
      // the title call uses no agent's turns: a schema-valid JSON answers it
      const text = JSON.stringify(exampleForSchema(request.output_config?.format?.schema, 'Scripted session'))
      return answer(
        state,
        request,
        analysePrompt(request.model, promptBlocks(request)),
        { scriptKey: TITLE_SCRIPT, turnIndex: -1, turn: { text } },
        identity,
        requestId,
        res
      )
    }
  }
  const { cwd, ...agent } = identity
  if (!acceptsModel(state, request.model)) {
    return sendError(res, requestId, 404, 'not_found_error', `model: ${request.model}`)
  }
  const unanswered = unansweredToolUse(request)
  if (unanswered) return sendError(res, requestId, 400, 'invalid_request_error', unanswered)
  const blocks = promptBlocks(request)
  if (blocks.filter((block) => block.breakpoint).length > MAX_BREAKPOINTS) {
    return sendError(
      res,
      requestId,
      400,
      'invalid_request_error',
      `A maximum of ${MAX_BREAKPOINTS} blocks with cache_control may be provided.`
    )
  }
  const prompt = analysePrompt(request.model, blocks)
  recorded.promptTokens = prompt.totalTokens
  // the real API refuses a prompt over the model's window with this 400 (never retried), and so does the scripted model
  if (prompt.totalTokens > state.scenario.contextWindow) {
    return sendError(
      res,
      requestId,
      400,
      'invalid_request_error',
      `prompt is too long: ${prompt.totalTokens} tokens > ${state.scenario.contextWindow} maximum`
    )
  }

  let selection: Selection
  try {
    selection = state.book.select(agent, newestUserText(request))
  } catch (error) {
    if (!(error instanceof ScriptUnavailableError)) throw error
    return sendError(res, requestId, 400, 'scenario_error', error.message, { 'x-should-retry': 'false' })
  }
  recorded.script = selection.scriptKey
  recorded.turn = selection.turnIndex

  if (selection.turn.delayMs) {
    const gone = new AbortController()
    const onClose = () => gone.abort()
    res.once('close', onClose)
    try {
      await sleep(selection.turn.delayMs, undefined, { signal: gone.signal })
    } catch {
      return // the client went away (or the server closed) while we waited
    } finally {
      res.off('close', onClose)
    }
  }

  if (selection.fault) state.stats.faultsInjected++
  // the API's own pacing header, which the SDK honours over its backoff: a scenario sets it to keep retries quick
  const pacing: Record<string, string> =
    selection.turn.retryAfterMs !== undefined ? { 'retry-after-ms': String(selection.turn.retryAfterMs) } : {}
  switch (selection.fault) {
    case 'disconnect':
      req.socket.destroy()
      return
    case 'rate_limit':
      return sendError(
        res,
        requestId,
        429,
        'rate_limit_error',
        'Number of request tokens has exceeded your per-minute rate limit (scripted)',
        { 'retry-after': '0', ...pacing }
      )
    case 'rate_limit_no_retry_after':
      return sendError(
        res,
        requestId,
        429,
        'rate_limit_error',
        'Number of request tokens has exceeded your per-minute rate limit (scripted, no retry-after)',
        pacing
      )
    case 'overloaded':
      return sendError(res, requestId, 529, 'overloaded_error', 'Overloaded', pacing)
    case 'overloaded_mid_stream':
      // Without a stream there is no "middle": answer as the plain overloaded fault.
      if (!request.stream) return sendError(res, requestId, 529, 'overloaded_error', 'Overloaded')
      break
    case 'disconnect_mid_stream':
    case 'stall_mid_stream':
    case 'malformed_sse':
      // likewise: without a stream, the connection is cut before an answer
      if (!request.stream) {
        req.socket.destroy()
        return
      }
  }
  answer(state, request, prompt, selection, { ...agent, cwd }, requestId, res)
}

/** Who is asking, decoded from the identity headers (docs/scenarios.md#scripted-model-scenarios); each field absent when its header is. */
interface RequestIdentity {
  name?: string
  type?: string
  id?: string
  cwd?: string
}

/**
 * Reads and decodes the `x-swarmdesk-*` headers (percent-encoded UTF-8, identityHeaders.ts).
 * @throws IdentityHeaderError for a value that does not decode.
 */
function requestIdentity(req: IncomingMessage): RequestIdentity {
  const read = (name: string): string | undefined => {
    const value = header(req, name)
    return value === undefined ? undefined : decodeIdentityHeader(name, value)
  }
  return {
    name: read(IDENTITY_HEADERS.name),
    type: read(IDENTITY_HEADERS.type),
    id: read(IDENTITY_HEADERS.id),
    cwd: read(IDENTITY_HEADERS.cwd)
  }
}

/** The log entry's identity fields: only those the request carried. */
function definedIdentity(
  identity: RequestIdentity
): Pick<RecordedRequest, 'agentName' | 'agentType' | 'agentId' | 'cwd'> {
  return {
    ...(identity.name !== undefined ? { agentName: identity.name } : {}),
    ...(identity.type !== undefined ? { agentType: identity.type } : {}),
    ...(identity.id !== undefined ? { agentId: identity.id } : {}),
    ...(identity.cwd !== undefined ? { cwd: identity.cwd } : {})
  }
}

function answer(
  state: ScriptedState,
  request: MessagesRequest,
  prompt: ReturnType<typeof analysePrompt>,
  selection: Selection,
  agent: { name?: string; id?: string; cwd?: string },
  requestId: string,
  res: ServerResponse
): void {
  const values = placeholderValues(request, agent)
  const { turn } = selection
  const content = answerContent({
    text: turn.text === undefined ? undefined : fillString(turn.text, values),
    tools: turn.tools?.map((tool) => ({ name: tool.name, input: fillDeep(tool.input, values) }))
  })
  if (turn.webSearch) {
    const offered = offeredWebSearch(request)
    if (!offered) {
      return sendError(
        res,
        requestId,
        400,
        'scenario_error',
        `(web search) script '${selection.scriptKey}' turn ${selection.turnIndex} searches the web, but the request offers no web_search tool`,
        { 'x-should-retry': 'false' }
      )
    }
    content.unshift(...webSearchBlocks(fillDeep(turn.webSearch, values), offered, request))
  }
  const format = request.output_config?.format
  if (format && !content.some((block) => block.type === 'tool_use')) {
    const text = content.find((block) => block.type === 'text')?.text ?? ''
    const problem = structuredOutputProblem(text, format.schema)
    // the API never answers structured output with text off the schema; a scenario that does is at fault
    if (problem) {
      return sendError(
        res,
        requestId,
        400,
        'scenario_error',
        `(structured output) script '${selection.scriptKey}' turn ${selection.turnIndex}: ${problem}`,
        { 'x-should-retry': 'false' }
      )
    }
  }
  state.spawns.push(...spawnsOf(content))
  const cache = state.cache.use(prompt)
  state.stats.cacheWrites += cache.entriesWritten
  state.stats.cacheReadTokens += cache.cacheReadInputTokens
  state.stats.cacheCreationTokens += cache.cacheCreationInputTokens
  if (cache.cacheReadInputTokens > 0) state.stats.cacheHits++
  const message = answerMessage(request.model, content, apiUsage(cache, outputTokens(content)), turn.stopReason)

  if (!request.stream) return sendJson(res, 200, message, { 'request-id': requestId })
  startStream(res, requestId)
  if (selection.fault === 'overloaded_mid_stream') return writeOverloadedMidStream(res, message)
  // the cut comes once the first part is on the wire (a destroy would discard what is still queued)
  if (selection.fault === 'disconnect_mid_stream')
    return writeFirstTextThen(res, message, () => void res.write('', () => res.socket?.destroy()))
  // the response stays open, silent, until the client gives up (closing the server ends it too)
  if (selection.fault === 'stall_mid_stream') return writeFirstTextThen(res, message, () => undefined)
  if (selection.fault === 'malformed_sse') return writeMalformedEvent(res, message)
  writeStreamedMessage(res, message)
  res.end()
}

/**
 * The Messages API's rule that every `tool_use` block of an assistant message has its
 * `tool_result` in the next message (which the real API enforces with a 400, so the scripted
 * model does too: a client that resumes or repairs a history wrongly fails here as it would there).
 * @returns the API's error message for the first offending message, or undefined when none.
 */
export function unansweredToolUse(request: MessagesRequest): string | undefined {
  const { messages } = request
  for (let i = 0; i < messages.length - 1; i++) {
    const message = messages[i]!
    if (message.role !== 'assistant' || typeof message.content === 'string') continue
    const ids = message.content.flatMap((b) => (b.type === 'tool_use' && typeof b.id === 'string' ? [b.id] : []))
    if (ids.length === 0) continue
    // a mid-conversation system message may sit between a call and its results
    let n = i + 1
    while (n < messages.length - 1 && messages[n]!.role === 'system') n++
    const next = messages[n]!
    const answered = new Set(
      typeof next.content === 'string'
        ? []
        : next.content.flatMap((b) => (b.type === 'tool_result' ? [b.tool_use_id] : []))
    )
    const missing = ids.filter((id) => !answered.has(id))
    if (missing.length > 0) {
      return `messages.${n}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${missing.join(', ')}. Each \`tool_use\` block must have a corresponding \`tool_result\` block in the next message.`
    }
  }
  return undefined
}
