import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { MessageChannel } from 'node:worker_threads'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Headers as WorkerHeaders } from 'headers-polyfill'
import { createHttpPortClient, type HttpPortClient } from './httpClient'
import { createHttpServer } from './httpServer'
import { parseMainMessage, parseWorkerMessage } from './protocol'

/**
 * The worker's model HTTP over its port (httpClient.ts, httpServer.ts): a real MessageChannel
 * between the two sides, each message parsed with the protocol's schemas as the worker and the
 * executor do, and a real HTTP server behind the main side's fetch.
 */
describe('model HTTP through the main thread', () => {
  let server: Server
  let base: string
  /** Resolves the body of the /hang request once it has started, to let a test end it. */
  let hanging: (() => void) | undefined

  beforeAll(async () => {
    server = createServer((req, res) => {
      if (req.url === '/stream') {
        res.writeHead(200, { 'content-type': 'text/event-stream', 'x-request-id': 'abc', 'set-cookie': ['a=1', 'b=2'] })
        res.write('data: one\n\n')
        setTimeout(() => res.end('data: two\n\n'), 20)
      } else if (req.url === '/echo') {
        let body = ''
        req.on('data', (d: Buffer) => (body += d.toString()))
        req.on('end', () => {
          res.writeHead(529, { 'content-type': 'application/json' })
          res.end(JSON.stringify({ method: req.method, body, auth: req.headers['x-api-key'] }))
        })
      } else if (req.url === '/hang') {
        res.writeHead(200, { 'content-type': 'text/event-stream' })
        res.write('data: first\n\n')
        hanging = () => res.end()
      } else {
        req.socket.destroy()
      }
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  })
  afterAll(async () => {
    hanging?.()
    await new Promise<void>((resolve) => server.close(() => resolve()))
  })

  /** A client and a server joined by a MessageChannel; `aborts` counts the `http.abort`s the server got. */
  function pair(): { client: HttpPortClient; aborts: number[]; close(): void } {
    const { port1, port2 } = new MessageChannel()
    const aborts: number[] = []
    const httpServer = createHttpServer((message) => port1.postMessage(message))
    port1.on('message', (raw) => {
      const message = parseWorkerMessage(raw)
      if (message.type === 'http.request') httpServer.request(message.id, message.request)
      else if (message.type === 'http.abort') {
        aborts.push(message.id)
        httpServer.abort(message.id)
      }
    })
    const client = createHttpPortClient((message) => port2.postMessage(message))
    port2.on('message', (raw) => client.handle(parseMainMessage(raw)))
    return {
      client,
      aborts,
      close: () => {
        httpServer.dispose()
        port1.close()
      }
    }
  }

  it('streams a response: status, headers and the body in order', async () => {
    const { client, close } = pair()
    try {
      const response = await client.fetch(`${base}/stream`, { method: 'get' })
      expect(response.status).toBe(200)
      expect(response.ok).toBe(true)
      expect(response.headers.get('X-Request-Id')).toBe('abc')
      expect(response.headers.getSetCookie()).toEqual(['a=1', 'b=2'])
      const pieces: string[] = []
      const decoder = new TextDecoder()
      const reader = response.body.getReader()
      for (let r = await reader.read(); !r.done; r = await reader.read()) pieces.push(decoder.decode(r.value))
      expect(pieces.join('')).toBe('data: one\n\ndata: two\n\n')
    } finally {
      close()
    }
  })

  it('sends the method, headers and body, and reads an error status as text or JSON', async () => {
    const { client, close } = pair()
    try {
      const headers = new WorkerHeaders({ 'X-Api-Key': 'k1', 'content-type': 'application/json' })
      const response = await client.fetch(new URL(`${base}/echo`), { method: 'post', headers, body: '{"a":1}' })
      expect(response.status).toBe(529)
      expect(response.ok).toBe(false)
      expect(await response.json()).toEqual({ method: 'POST', body: '{"a":1}', auth: 'k1' })
      expect(response.bodyUsed).toBe(true)
      await expect(response.text()).rejects.toThrow(/already been read/)
    } finally {
      close()
    }
  })

  it("a failed connection rejects as the main thread's fetch did: TypeError 'fetch failed' with its cause", async () => {
    const { client, close } = pair()
    try {
      const failure = await client.fetch(`${base}/drop`).catch((error: unknown) => error)
      expect(failure).toBeInstanceOf(TypeError)
      expect((failure as Error).message).toBe('fetch failed')
      expect((failure as Error).cause).toBeInstanceOf(Error)
    } finally {
      close()
    }
  })

  it('an abort during the body errors the body with the AbortError and tells the main side to stop', async () => {
    const { client, aborts, close } = pair()
    try {
      const controller = new AbortController()
      const response = await client.fetch(`${base}/hang`, { signal: controller.signal })
      const reader = response.body.getReader()
      expect(new TextDecoder().decode((await reader.read()).value)).toBe('data: first\n\n')
      controller.abort()
      const failure = await reader.read().catch((error: unknown) => error)
      expect((failure as Error).name).toBe('AbortError')
      await expect.poll(() => aborts.length).toBe(1)
      // already aborted: refused at once, nothing posted
      await expect(client.fetch(`${base}/stream`, { signal: controller.signal })).rejects.toMatchObject({
        name: 'AbortError'
      })
      expect(aborts).toHaveLength(1)
    } finally {
      close()
    }
  })
})
