import { type ServerResponse, STATUS_CODES } from 'node:http'
import type { Duplex } from 'node:stream'

/** Answers a plain-text status (errors and refusals), never cached. */
export function sendText(
  res: ServerResponse,
  status: number,
  text: string,
  headers: Record<string, string> = {}
): void {
  const body = `${text}\n`
  res.writeHead(status, {
    ...headers,
    'Content-Type': 'text/plain; charset=utf-8',
    'Content-Length': Buffer.byteLength(body),
    'Cache-Control': 'no-store'
  })
  res.end(res.req.method === 'HEAD' ? undefined : body)
}

/**
 * Refuses a WebSocket upgrade on the raw socket with an HTTP status, before any handshake:
 * the browser's WebSocket then fails to open (the socket is ended, then destroyed).
 */
export function refuseUpgrade(socket: Duplex, status: number, text: string): void {
  const body = `${text}\n`
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}\r\n` +
      'Connection: close\r\n' +
      'Content-Type: text/plain; charset=utf-8\r\n' +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      'Cache-Control: no-store\r\n\r\n' +
      body,
    () => socket.destroy()
  )
}
