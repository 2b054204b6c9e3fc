/**
 * One connection to one MCP server through the SDK's client (docs/tools.md#mcp-servers): stdio,
 * streamable HTTP or SSE. A failed or timed-out call closes the connection, so the next use
 * starts the server again; a stdio server's stderr is kept (last 8 KiB) for failure reports.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js'
import type { McpServerConfig } from './config'

/** Default start timeout in ms (Claude Code's MCP_TIMEOUT default is 30 s). */
export const DEFAULT_MCP_START_TIMEOUT_MS = 30_000
/** Default call timeout in ms. */
export const DEFAULT_MCP_CALL_TIMEOUT_MS = 120_000
const STDERR_KEEP = 8 * 1024

/** A server that failed to start or to answer; `stderr` is the server's recent stderr. */
export class McpServerError extends Error {
  constructor(
    readonly server: string,
    message: string,
    readonly stderr: string
  ) {
    super(`MCP server '${server}': ${message}${stderr ? `\n--- stderr ---\n${stderr}` : ''}`)
    this.name = 'McpServerError'
  }
}

/** Timeouts of a connection, in ms. */
export interface McpTimeouts {
  startMs?: number
  callMs?: number
}

/** A lazily started, self-restarting connection to one server. */
export class McpConnection {
  private client: Client | undefined
  private connecting: Promise<Client> | undefined
  private stderrTail = ''

  constructor(
    readonly name: string,
    readonly config: McpServerConfig,
    private readonly timeouts: McpTimeouts = {}
  ) {}

  /** The server's recent stderr (stdio servers only). */
  get stderr(): string {
    return this.stderrTail
  }

  /** Connects if not connected. Throws McpServerError when the start fails or times out. */
  async connect(): Promise<Client> {
    if (this.client) return this.client
    this.connecting ??= this.start().finally(() => {
      this.connecting = undefined
    })
    return this.connecting
  }

  private transport(): Transport {
    const c = this.config
    if (!('command' in c)) {
      const init = { requestInit: { headers: c.headers } }
      return c.type === 'http'
        ? new StreamableHTTPClientTransport(new URL(c.url), init)
        : new SSEClientTransport(new URL(c.url), init)
    }
    const env = Object.fromEntries(
      Object.entries({ ...process.env, ...c.env }).filter((e): e is [string, string] => e[1] !== undefined)
    )
    const t = new StdioClientTransport({ command: c.command, args: c.args, env, stderr: 'pipe' })
    t.stderr?.on('data', (chunk: Buffer) => {
      this.stderrTail = (this.stderrTail + chunk.toString('utf8')).slice(-STDERR_KEEP)
    })
    return t
  }

  private async start(): Promise<Client> {
    const client = new Client({ name: 'swarmdesk', version: '0.1.0' })
    client.onclose = () => {
      if (this.client === client) this.client = undefined
    }
    try {
      await client.connect(this.transport(), { timeout: this.timeouts.startMs ?? DEFAULT_MCP_START_TIMEOUT_MS })
    } catch (error) {
      await client.close().catch(() => undefined)
      throw new McpServerError(this.name, `failed to start: ${(error as Error).message}`, this.stderrTail)
    }
    this.client = client
    return client
  }

  /**
   * Calls one tool. A crash, a hang past the call timeout or a protocol error closes the
   * connection (the next use restarts the server) and throws McpServerError.
   */
  async callTool(
    tool: string,
    args: Record<string, unknown>,
    signal?: AbortSignal
  ): Promise<Awaited<ReturnType<Client['callTool']>>> {
    const client = await this.connect()
    try {
      return await client.callTool({ name: tool, arguments: args }, undefined, {
        timeout: this.timeouts.callMs ?? DEFAULT_MCP_CALL_TIMEOUT_MS,
        signal
      })
    } catch (error) {
      await this.close()
      throw new McpServerError(this.name, `tool '${tool}' failed: ${(error as Error).message}`, this.stderrTail)
    }
  }

  /** Closes the connection; a stdio server's process is ended and awaited by the SDK. */
  async close(): Promise<void> {
    const client = this.client
    this.client = undefined
    await client?.close().catch(() => undefined)
  }
}
