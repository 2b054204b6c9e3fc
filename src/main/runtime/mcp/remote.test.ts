/**
 * MCP over the network transports (docs/tools.md#mcp-servers): server-everything served over
 * streamable HTTP and over SSE in a real process on a free port, called through McpConnection.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { createServer } from 'node:net'
import { createRequire } from 'node:module'
import { afterEach, describe, expect, it } from 'vitest'
import { McpConnection } from './index'

const everything = createRequire(import.meta.url).resolve('@modelcontextprotocol/server-everything/dist/index.js')

let child: ChildProcess | undefined
afterEach(async () => {
  if (child && child.exitCode === null) {
    const gone = new Promise((r) => child!.once('exit', r))
    child.kill('SIGKILL')
    await gone
  }
  child = undefined
})

/** A port nothing listens on now. */
async function freePort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  const port = (server.address() as { port: number }).port
  await new Promise((r) => server.close(r))
  return port
}

/** Starts server-everything with `transport` on a free port; resolves once it says it listens. */
async function serveEverything(transport: 'streamableHttp' | 'sse'): Promise<number> {
  const port = await freePort()
  child = spawn(process.execPath, [everything, transport], { env: { ...process.env, PORT: String(port) } })
  let said = ''
  await new Promise<void>((resolve, reject) => {
    child!.stderr!.on('data', (chunk: Buffer) => {
      said += chunk.toString()
      if (/listening on port|running on port/i.test(said)) resolve()
    })
    child!.once('exit', (code) => reject(new Error(`server-everything exited ${code}: ${said}`)))
  })
  return port
}

describe('McpConnection over the network', () => {
  for (const [transport, type, path] of [
    ['streamableHttp', 'http', '/mcp'],
    ['sse', 'sse', '/sse']
  ] as const)
    it(`calls tools and reads resources of server-everything over ${type}`, async () => {
      const port = await serveEverything(transport)
      const conn = new McpConnection(
        'everything',
        { type, url: `http://127.0.0.1:${port}${path}`, headers: {} },
        { callMs: 20_000 }
      )
      try {
        const tools = await conn.listTools()
        expect(tools.map((t) => t.name)).toContain('echo')
        const echo = await conn.callTool('echo', { message: `over ${type}` })
        expect(echo.content).toEqual([{ type: 'text', text: `Echo: over ${type}` }])
        expect(await conn.hasResources()).toBe(true)
        expect((await conn.listResources()).length).toBeGreaterThan(0)
      } finally {
        await conn.close()
      }
    }, 30_000)
})
