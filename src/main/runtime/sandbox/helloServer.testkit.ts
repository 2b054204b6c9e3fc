import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll } from 'vitest'

/** A loopback HTTP server of the test file's: its port once started, and every path it served. */
export interface HelloServer {
  port(): number
  /** The request paths served, in order (`/team-lead`, …). */
  readonly served: string[]
}

/**
 * Starts, for the test file (vitest beforeAll/afterAll), an HTTP server on 127.0.0.1 at a free port
 * that answers `GET /NAME` with `hello NAME`: a host the sandbox's network tests reach or are kept from.
 */
export function useHelloServer(): HelloServer {
  let server: http.Server | undefined
  let port = 0
  const served: string[] = []
  beforeAll(async () => {
    const started = http.createServer((req, res) => {
      served.push(req.url ?? '')
      res.end(`hello ${req.url?.slice(1)}`)
    })
    await new Promise<void>((resolve) => started.listen(0, '127.0.0.1', resolve))
    port = (started.address() as AddressInfo).port
    server = started
  })
  afterAll(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())))
  return { port: () => port, served }
}
