import type { IncomingMessage, ServerResponse } from 'node:http'
import { header, readBody, sendError, sendJson, MAX_BODY_BYTES } from './http'
import { analysePrompt, promptBlocks } from './prompt'
import { MessagesRequestSchema } from './request'
import { randomId } from './response'
import type { ScriptedState } from './state'

/**
 * Models `GET /v1/models` lists when the scenario names none (docs/model.md#claude-code): Swarmdesk's
 * defaults and the ones Claude Code 2.1.197 asks for by default (its main model and its fast one).
 * Any other `claude-…` id is still accepted by `POST /v1/messages`.
 */
export const LISTED_MODELS = [
  'claude-opus-5-5',
  'claude-sonnet-5-5',
  'claude-haiku-5-5',
  'claude-opus-4-8',
  'claude-haiku-4-5-20251001'
] as const

/** A fixed creation time for the listed models (the API's `created_at`, RFC 3339): the listing is deterministic. */
const LISTED_AT = '2026-01-01T00:00:00Z'

/**
 * The request's key as the API reads it, or the 401 already sent. Either header counts
 * (`x-api-key`, `Authorization: Bearer`); a scenario's `apiKey` is the only one accepted.
 * @returns true when the request may go on.
 */
export function checkKey(state: ScriptedState, req: IncomingMessage, res: ServerResponse, requestId: string): boolean {
  const key = header(req, 'x-api-key') ?? /^Bearer\s+(.+)$/i.exec(header(req, 'authorization') ?? '')?.[1]
  if (!key) {
    sendError(res, requestId, 401, 'authentication_error', 'x-api-key header or Authorization: Bearer is required')
    return false
  }
  if (state.scenario.apiKey !== undefined && key !== state.scenario.apiKey) {
    sendError(
      res,
      requestId,
      401,
      'authentication_error',
      'invalid x-api-key: the key was rejected by the scripted model'
    )
    return false
  }
  return true
}

/** Whether the scenario accepts a model id: its `models` list, else any `claude-…` id. */
export function acceptsModel(state: ScriptedState, model: string): boolean {
  const models = state.scenario.models
  return models ? models.includes(model) : model.startsWith('claude-')
}

function modelInfo(id: string) {
  return { type: 'model', id, display_name: id, created_at: LISTED_AT }
}

/**
 * `GET /v1/models` (a page of every listed model: `{data, has_more:false, first_id, last_id}`) and
 * `GET /v1/models/{id}` (one model, 404 `not_found_error` for a model the scenario refuses).
 */
export function handleModels(
  state: ScriptedState,
  req: IncomingMessage,
  res: ServerResponse,
  id: string | undefined
): void {
  req.resume()
  const requestId = randomId('req_')
  if (!checkKey(state, req, res, requestId)) return
  if (id !== undefined) {
    if (!acceptsModel(state, id)) return sendError(res, requestId, 404, 'not_found_error', `model: ${id}`)
    return sendJson(res, 200, modelInfo(id), { 'request-id': requestId })
  }
  const ids = state.scenario.models ?? LISTED_MODELS
  sendJson(
    res,
    200,
    { data: ids.map(modelInfo), has_more: false, first_id: ids[0] ?? null, last_id: ids.at(-1) ?? null },
    { 'request-id': requestId }
  )
}

/**
 * `POST /v1/messages/count_tokens`: `{input_tokens}` of the prompt as the scripted model counts it
 * (UTF-8 bytes / 4, docs/scenarios.md#tokens-and-the-prompt-cache). The body is a Messages request
 * without `max_tokens`; no turn is used and nothing is logged as a request.
 */
export async function handleCountTokens(
  state: ScriptedState,
  req: IncomingMessage,
  res: ServerResponse
): Promise<void> {
  const requestId = randomId('req_')
  const raw = await readBody(req)
  if (!checkKey(state, req, res, requestId)) return
  if (raw === undefined)
    return sendError(
      res,
      requestId,
      413,
      'request_too_large',
      `Request exceeds the maximum size of ${MAX_BODY_BYTES} bytes`
    )
  let body: unknown
  try {
    body = JSON.parse(raw)
  } catch {
    return sendError(res, requestId, 400, 'invalid_request_error', 'request body is not valid JSON')
  }
  const parsed = MessagesRequestSchema.omit({ max_tokens: true }).safeParse(body)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    return sendError(
      res,
      requestId,
      400,
      'invalid_request_error',
      `${issue.path.map(String).join('.')}: ${issue.message}`
    )
  }
  if (!acceptsModel(state, parsed.data.model))
    return sendError(res, requestId, 404, 'not_found_error', `model: ${parsed.data.model}`)
  const prompt = analysePrompt(parsed.data.model, promptBlocks({ ...parsed.data, max_tokens: 1 }))
  sendJson(res, 200, { input_tokens: prompt.totalTokens }, { 'request-id': requestId })
}
