import { Agent, createServer, request, type IncomingMessage } from 'node:http'
import type { AddressInfo } from 'node:net'

/** One model request as the timing proxy saw it. Times are `performance.now()` of the bench process, ms. */
export interface Timing {
  /** The `x-bench-seq` header given to the forwarded request: joins this to the scripted server's log entry. */
  seq: number
  /** When the request's headers arrived. */
  arrivedAt: number
  /** When the last byte of the answer was handed to the client's socket; undefined when it never finished. */
  endedAt?: number
  /** Bytes of the request body. */
  bodyBytes: number
}

/** A timing proxy in front of a scripted server: every product talks to it as to the API. */
export interface TimingProxy {
  url: string
  /** The POST /v1/messages requests seen so far, in arrival order. */
  timings(): Timing[]
  close(): Promise<void>
}

/**
 * Starts an HTTP proxy on 127.0.0.1 in front of `upstream` (a scripted server's URL) that stamps
 * each model request's arrival and the end of its answer, and tags the forwarded request with
 * `x-bench-seq` (the scripted server keeps every header in its log). Both products go through it,
 * so the hop costs each the same.
 */
export async function startTimingProxy(upstream: string): Promise<TimingProxy> {
  const target = new URL(upstream)
  const agent = new Agent({ keepAlive: true })
  const log: Timing[] = []
  const server = createServer((req, res) => {
    const arrivedAt = performance.now()
    const timed =
      req.method === 'POST' && (req.url ?? '').startsWith('/v1/messages') && !req.url!.includes('count_tokens')
    const entry: Timing | undefined = timed ? { seq: log.length, arrivedAt, bodyBytes: 0 } : undefined
    if (entry) log.push(entry)
    const headers: Record<string, string | string[]> = {}
    for (const [k, v] of Object.entries(req.headers)) if (v !== undefined) headers[k] = v
    if (entry) headers['x-bench-seq'] = String(entry.seq)
    const up = request(
      { host: target.hostname, port: target.port, path: req.url, method: req.method, headers, agent },
      (answer: IncomingMessage) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers)
        answer.pipe(res)
      }
    )
    up.on('error', (error) => {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' })
      res.end(`bench proxy: ${error.message}`)
    })
    req.on('data', (chunk: Buffer) => {
      if (entry) entry.bodyBytes += chunk.length
    })
    req.pipe(up)
    if (entry) res.on('finish', () => (entry.endedAt = performance.now()))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    timings: () => log.map((t) => ({ ...t })),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
        agent.destroy()
      })
  }
}
