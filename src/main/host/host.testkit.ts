import { request } from 'node:http'
import { WebSocket } from 'ws'

/** One HTTP answer as a test sees it. */
export interface HttpAnswer {
  status: number
  headers: Record<string, string | string[] | undefined>
  body: string
}

/**
 * A GET over a real socket with exactly the headers given (fetch would refuse to set `Host` and
 * may add its own `Origin`); `path` is sent verbatim, so `..` and encoded separators reach the host.
 */
export function httpGet(
  port: number,
  path: string,
  headers: Record<string, string> = {},
  method = 'GET'
): Promise<HttpAnswer> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, path, method, headers: { Host: `127.0.0.1:${port}`, ...headers }, agent: false },
      (res) => {
        let body = ''
        res.setEncoding('utf8')
        res.on('data', (chunk: string) => (body += chunk))
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }))
      }
    )
    req.on('error', reject)
    req.end()
  })
}

/** How a WebSocket attempt ended: open (the caller closes it) or refused with an HTTP status. */
export type SocketAttempt = { kind: 'open'; socket: WebSocket } | { kind: 'refused'; status: number }

/** Opens `ws://127.0.0.1:port{path}` with the given headers; resolves open or refused (never hangs on a refusal). */
export function openSocket(port: number, path: string, headers: Record<string, string> = {}): Promise<SocketAttempt> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`ws://127.0.0.1:${port}${path}`, { headers })
    socket.once('open', () => resolve({ kind: 'open', socket }))
    socket.once('unexpected-response', (_req, res) => {
      resolve({ kind: 'refused', status: res.statusCode ?? 0 })
      res.resume()
      socket.terminate()
    })
    socket.once('error', (error) => reject(error))
  })
}

/**
 * Collects a socket's frames, parsed, so a test can wait for one that matches. A `pushes` frame
 * (several pushes sent together) is logged as one `push` frame per push, in order, in `frames`;
 * `received` keeps the frames as they came.
 */
export class FrameLog {
  readonly frames: unknown[] = []
  readonly received: unknown[] = []
  private waiters: Array<() => void> = []

  constructor(socket: WebSocket) {
    socket.on('message', (data) => {
      const frame = JSON.parse(String(data)) as {
        kind?: unknown
        pushes?: Array<{ channel: unknown; payload: unknown }>
      }
      this.received.push(frame)
      if (frame.kind === 'pushes' && Array.isArray(frame.pushes))
        for (const push of frame.pushes)
          this.frames.push({ kind: 'push', channel: push.channel, payload: push.payload })
      else this.frames.push(frame)
      for (const wake of this.waiters.splice(0)) wake()
    })
  }

  /** Resolves the first frame (already received or to come) that satisfies `match`; rejects after `ms`. */
  async next<T>(match: (frame: any) => boolean, ms = 10_000): Promise<T> {
    const deadline = Date.now() + ms
    for (;;) {
      const found = this.frames.find(match)
      if (found !== undefined) return found as T
      const left = deadline - Date.now()
      if (left <= 0)
        throw new Error(`no matching frame within ${ms} ms; got ${JSON.stringify(this.frames).slice(0, 2000)}`)
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left)
        this.waiters.push(() => {
          clearTimeout(timer)
          resolve()
        })
      })
    }
  }
}

/** Resolves the close code once the socket is closed. */
export function closed(socket: WebSocket): Promise<number> {
  return new Promise((resolve) => {
    if (socket.readyState === socket.CLOSED) return resolve(1006)
    socket.once('close', (code) => resolve(code))
  })
}

/** Polls `probe` every 20 ms until it holds. @throws Error naming `what` after `ms` milliseconds. */
export async function until(probe: () => boolean, ms: number, what: string): Promise<void> {
  const deadline = Date.now() + ms
  while (!probe()) {
    if (Date.now() > deadline) throw new Error(`timed out: ${what}`)
    await new Promise((r) => setTimeout(r, 20))
  }
}
