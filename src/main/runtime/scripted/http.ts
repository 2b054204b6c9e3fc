import type { IncomingMessage, ServerResponse } from 'node:http'

/** Largest request body accepted, in bytes: far above any real prompt, low enough to stop a runaway client. */
export const MAX_BODY_BYTES = 64 * 1024 * 1024

/** The API's error types the scripted server answers with, plus its own `scenario_error`. */
export type ApiErrorType =
  | 'invalid_request_error'
  | 'authentication_error'
  | 'not_found_error'
  | 'request_too_large'
  | 'rate_limit_error'
  | 'overloaded_error'
  | 'api_error'
  | 'scenario_error'

/**
 * Reads a request body as UTF-8; undefined when it passes {@link MAX_BODY_BYTES}. The rest of an
 * oversized body is drained rather than the socket destroyed, so the client still gets its 413.
 */
export function readBody(req: IncomingMessage): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    req.on('data', (chunk: Buffer) => {
      size += chunk.length
      if (size <= MAX_BODY_BYTES) chunks.push(chunk)
    })
    req.on('end', () => resolve(size > MAX_BODY_BYTES ? undefined : Buffer.concat(chunks).toString('utf8')))
    req.on('error', reject)
  })
}

/** A header's value as one string (repeated headers joined by ', '), or undefined when absent or empty. */
export function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name]
  const joined = Array.isArray(value) ? value.join(', ') : value
  return joined ? joined : undefined
}

/** Every header as a plain string record (the form the request log keeps). */
export function headerRecord(req: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {}
  for (const name of Object.keys(req.headers)) out[name] = header(req, name) ?? ''
  return out
}

/** Sends a JSON body with a status and extra headers. */
export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {}
): void {
  const text = JSON.stringify(body)
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers })
  res.end(text)
}

/**
 * Sends an error in the API's shape: `{type:"error", error:{type, message}, request_id}` with a
 * `request-id` header, as the SDK expects to build its `APIError` (`.type`, `.requestID`).
 */
export function sendError(
  res: ServerResponse,
  requestId: string,
  status: number,
  type: ApiErrorType,
  message: string,
  headers: Record<string, string> = {}
): void {
  sendJson(
    res,
    status,
    { type: 'error', error: { type, message }, request_id: requestId },
    { 'request-id': requestId, ...headers }
  )
}
