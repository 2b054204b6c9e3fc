import { createRequire } from 'node:module'
import { describe, expect, it } from 'vitest'
import { McpConnection, McpServerError } from './index'

const everything = createRequire(import.meta.url).resolve('@modelcontextprotocol/server-everything/dist/index.js')

describe('McpConnection over stdio against server-everything', () => {
  it('calls a tool, turns a hang past the call timeout into an error, and restarts on next use', async () => {
    const conn = new McpConnection(
      'everything',
      { command: process.execPath, args: [everything, 'stdio'], env: {} },
      { callMs: 1500 }
    )
    try {
      const echo = await conn.callTool('echo', { message: 'hi' })
      expect(echo.content).toEqual([{ type: 'text', text: 'Echo: hi' }])
      const slow = await conn.callTool('trigger-long-running-operation', { duration: 10, steps: 2 }).then(
        () => 'answered',
        (e: unknown) => e
      )
      expect(slow).toBeInstanceOf(McpServerError)
      expect(String((slow as Error).message)).toMatch(
        /MCP server 'everything': tool 'trigger-long-running-operation' failed/
      )
      const again = await conn.callTool('echo', { message: 'back' })
      expect(again.content).toEqual([{ type: 'text', text: 'Echo: back' }])
    } finally {
      await conn.close()
    }
  }, 30_000)

  it('a server that fails to start is reported with its stderr', async () => {
    const conn = new McpConnection(
      'broken',
      { command: process.execPath, args: ['-e', 'console.error("boom: no config"); process.exit(3)'], env: {} },
      { startMs: 5000 }
    )
    const error = await conn.connect().then(
      () => 'started',
      (e: unknown) => e
    )
    expect(error).toBeInstanceOf(McpServerError)
    expect((error as Error).message).toMatch(/failed to start[\s\S]*boom: no config/)
  }, 15_000)
})
