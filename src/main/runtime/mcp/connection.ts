/**
 * One connection to one MCP server through the SDK's client (docs/tools.md#mcp-servers): stdio,
 * streamable HTTP or SSE. A failed or timed-out call closes the connection, so the next use
 * starts the server again; a stdio server's stderr is kept (last 8 KiB) for failure reports.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import type { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js'
import { RunUsageError } from '../base'
import type { McpServerConfig } from './config'

/**
 * The SDK's client side, loaded when the first connection starts: a process (or worker teammate)
 * that never connects to a server — a worker reaches MCP through its port to the main thread —
 * does not hold the SDK and its schemas in memory.
 */
async function loadSdk() {
  const [client, sse, stdio, http, types] = await Promise.all([
    import('@modelcontextprotocol/sdk/client/index.js'),
    import('@modelcontextprotocol/sdk/client/sse.js'),
    import('@modelcontextprotocol/sdk/client/stdio.js'),
    import('@modelcontextprotocol/sdk/client/streamableHttp.js'),
    import('@modelcontextprotocol/sdk/types.js')
  ])
  return {
    Client: client.Client,
    SSEClientTransport: sse.SSEClientTransport,
    StdioClientTransport: stdio.StdioClientTransport,
    StreamableHTTPClientTransport: http.StreamableHTTPClientTransport,
    PromptListChangedNotificationSchema: types.PromptListChangedNotificationSchema,
    ToolListChangedNotificationSchema: types.ToolListChangedNotificationSchema
  }
}
type Sdk = Awaited<ReturnType<typeof loadSdk>>

/** One tool as the server lists it (`tools/list`). */
export type McpToolInfo = Awaited<ReturnType<Client['listTools']>>['tools'][number]
/** One prompt as the server lists it (`prompts/list`). */
export type McpPromptInfo = Awaited<ReturnType<Client['listPrompts']>>['prompts'][number]
/** A prompt's messages as the server renders them (`prompts/get`). */
export type McpPromptResult = Awaited<ReturnType<Client['getPrompt']>>
/** One resource as the server lists it (`resources/list`). */
export type McpResourceInfo = Awaited<ReturnType<Client['listResources']>>['resources'][number]

/** Default start timeout in ms (Claude Code's MCP_TIMEOUT default is 30 s). */
export const DEFAULT_MCP_START_TIMEOUT_MS = 30_000
/** Default call timeout in ms. */
export const DEFAULT_MCP_CALL_TIMEOUT_MS = 120_000
const STDERR_KEEP = 8 * 1024
/**
 * Largest JSON-RPC line read from a stdio server, in bytes. The SDK's default (10 MiB) closes the
 * connection on one 10 MB answer; a bigger one is read and then cut to the output cap
 * (docs/tools.md#mcp-servers).
 */
const STDIO_MAX_MESSAGE_BYTES = 64 * 1024 * 1024

/** A server that failed to start or to answer; `stderr` is the server's recent stderr. */
export class McpServerError extends Error {
  /** `detail`: what failed, without the server's name (the message adds it); kept to carry the error across a worker's port. */
  constructor(
    readonly server: string,
    readonly detail: string,
    readonly stderr: string
  ) {
    super(`MCP server '${server}': ${detail}${stderr ? `\n--- stderr ---\n${stderr}` : ''}`)
    this.name = 'McpServerError'
  }
}

/** Timeouts of a connection, in ms. */
export interface McpTimeouts {
  startMs?: number
  callMs?: number
}

/** Environment variable of the start timeout in ms, as Claude Code names it. */
export const MCP_START_TIMEOUT_ENV = 'MCP_TIMEOUT'
/** Environment variable of the call timeout in ms, as Claude Code names it. */
export const MCP_CALL_TIMEOUT_ENV = 'MCP_TOOL_TIMEOUT'

/**
 * The timeouts set by `MCP_TIMEOUT` (start) and `MCP_TOOL_TIMEOUT` (call), whole milliseconds
 * (Claude Code's variables; docs/tools.md#mcp-servers). An unset or empty variable leaves the
 * default ({@link DEFAULT_MCP_START_TIMEOUT_MS}, {@link DEFAULT_MCP_CALL_TIMEOUT_MS}).
 * @throws RunUsageError naming the variable when its value is not a positive whole number.
 */
export function mcpTimeoutsFromEnv(env: NodeJS.ProcessEnv = process.env): McpTimeouts {
  const read = (name: string): number | undefined => {
    const raw = env[name]?.trim()
    if (raw === undefined || raw === '') return undefined
    const n = Number(raw)
    if (!Number.isInteger(n) || n <= 0)
      throw new RunUsageError(
        `${name} must be a positive whole number of milliseconds (like 60000 for a minute); got ${JSON.stringify(raw.slice(0, 100))}.`
      )
    return n
  }
  const startMs = read(MCP_START_TIMEOUT_ENV)
  const callMs = read(MCP_CALL_TIMEOUT_ENV)
  return { ...(startMs !== undefined ? { startMs } : {}), ...(callMs !== undefined ? { callMs } : {}) }
}

/** A lazily started, self-restarting connection to one server. */
export class McpConnection {
  private client: Client | undefined
  private connecting: Promise<Client> | undefined
  private stderrTail = ''
  private transportRef: StdioClientTransport | undefined
  private stdioPid: number | undefined
  private readonly changeListeners = new Set<(list: 'tools' | 'prompts') => void>()

  constructor(
    readonly name: string,
    readonly config: McpServerConfig,
    private readonly timeouts: McpTimeouts = {}
  ) {}

  /**
   * Calls `listener` each time the server says its tool or prompt list changed
   * (`notifications/tools/list_changed`, `notifications/prompts/list_changed`), on every
   * connection this object makes. Returns the function that removes it.
   */
  onListChanged(listener: (list: 'tools' | 'prompts') => void): () => void {
    this.changeListeners.add(listener)
    return () => this.changeListeners.delete(listener)
  }

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

  private transport(sdk: Sdk): Transport {
    const { SSEClientTransport, StdioClientTransport, StreamableHTTPClientTransport } = sdk
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
    const t = new StdioClientTransport({
      command: c.command,
      args: c.args,
      env,
      stderr: 'pipe',
      maxBufferSize: STDIO_MAX_MESSAGE_BYTES
    })
    this.transportRef = t
    t.stderr?.on('data', (chunk: Buffer) => {
      this.stderrTail = (this.stderrTail + chunk.toString('utf8')).slice(-STDERR_KEEP)
    })
    return t
  }

  private async start(): Promise<Client> {
    const sdk = await loadSdk()
    const { PromptListChangedNotificationSchema, ToolListChangedNotificationSchema } = sdk
    const client = new sdk.Client({ name: 'swarmdesk', version: '0.1.0' })
    client.onclose = () => {
      if (this.client === client) this.client = undefined
    }
    const changed = (list: 'tools' | 'prompts') => () => {
      for (const l of [...this.changeListeners]) l(list)
    }
    client.setNotificationHandler(ToolListChangedNotificationSchema, changed('tools'))
    client.setNotificationHandler(PromptListChangedNotificationSchema, changed('prompts'))
    try {
      await client.connect(this.transport(sdk), { timeout: this.timeouts.startMs ?? DEFAULT_MCP_START_TIMEOUT_MS })
    } catch (error) {
      await client.close().catch(() => undefined)
      throw new McpServerError(this.name, `failed to start: ${(error as Error).message}`, this.stderrTail)
    }
    this.client = client
    this.stdioPid = this.transportRef?.pid ?? undefined
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
    return this.request(
      `tool '${tool}'`,
      (client, options) => client.callTool({ name: tool, arguments: args }, undefined, { ...options, signal }),
      signal
    )
  }

  /** The server's tools (`tools/list`, every page). Throws McpServerError as {@link callTool}. */
  async listTools(): Promise<McpToolInfo[]> {
    return this.request('tools/list', async (client, options) => {
      if (!client.getServerCapabilities()?.tools) return []
      const tools: McpToolInfo[] = []
      let cursor: string | undefined
      do {
        const page = await client.listTools(cursor ? { cursor } : undefined, options)
        tools.push(...page.tools)
        cursor = page.nextCursor
      } while (cursor)
      return tools
    })
  }

  /** The server's resources (`resources/list`, every page); empty when it offers none. */
  async listResources(): Promise<McpResourceInfo[]> {
    return this.request('resources/list', async (client, options) => {
      if (!client.getServerCapabilities()?.resources) return []
      const resources: McpResourceInfo[] = []
      let cursor: string | undefined
      do {
        const page = await client.listResources(cursor ? { cursor } : undefined, options)
        resources.push(...page.resources)
        cursor = page.nextCursor
      } while (cursor)
      return resources
    })
  }

  /** The server's prompts (`prompts/list`, every page); empty when it offers none. */
  async listPrompts(): Promise<McpPromptInfo[]> {
    return this.request('prompts/list', async (client, options) => {
      if (!client.getServerCapabilities()?.prompts) return []
      const prompts: McpPromptInfo[] = []
      let cursor: string | undefined
      do {
        const page = await client.listPrompts(cursor ? { cursor } : undefined, options)
        prompts.push(...page.prompts)
        cursor = page.nextCursor
      } while (cursor)
      return prompts
    })
  }

  /** Renders one prompt with its arguments (`prompts/get`). Throws McpServerError as {@link callTool}. */
  async getPrompt(prompt: string, args: Record<string, string>): Promise<McpPromptResult> {
    return this.request(`prompt '${prompt}'`, (client, options) =>
      client.getPrompt({ name: prompt, arguments: args }, options)
    )
  }

  /** Reads one resource by URI (`resources/read`). Throws McpServerError as {@link callTool}. */
  async readResource(uri: string, signal?: AbortSignal): Promise<Awaited<ReturnType<Client['readResource']>>> {
    return this.request(
      `resource '${uri}'`,
      (client, options) => client.readResource({ uri }, { ...options, signal }),
      signal
    )
  }

  /** Whether the server said it offers resources (connects first). */
  async hasResources(): Promise<boolean> {
    return Boolean((await this.connect()).getServerCapabilities()?.resources)
  }

  /** The stdio server's process id while connected, for checking it exited. */
  get pid(): number | undefined {
    return this.stdioPid
  }

  /** Runs one request; a failure closes the connection, except a caller's abort (the server is fine, others share it). */
  private async request<T>(
    what: string,
    run: (client: Client, options: { timeout: number }) => Promise<T>,
    signal?: AbortSignal
  ): Promise<T> {
    const client = await this.connect()
    try {
      return await run(client, { timeout: this.timeouts.callMs ?? DEFAULT_MCP_CALL_TIMEOUT_MS })
    } catch (error) {
      if (signal?.aborted) throw new McpServerError(this.name, `${what} was stopped`, '')
      await this.close()
      throw new McpServerError(this.name, `${what} failed: ${(error as Error).message}`, this.stderrTail)
    }
  }

  /**
   * Closes the connection. A stdio server gets the SDK's shutdown (stdin closed, then SIGTERM,
   * then SIGKILL, 2 s apart); this then waits until its process is gone (at most
   * {@link EXIT_WAIT_MS}), so no caller returns while a server it started still runs.
   */
  async close(): Promise<void> {
    const client = this.client
    const pid = this.stdioPid
    this.client = undefined
    this.stdioPid = undefined
    await client?.close().catch(() => undefined)
    if (pid !== undefined) await waitForExit(pid, EXIT_WAIT_MS)
  }
}

/** How long close() waits for a killed stdio server's process to disappear, in ms. */
const EXIT_WAIT_MS = 5_000

/** Resolves once `pid` no longer exists (signal 0 fails with ESRCH), or after `limitMs`. */
async function waitForExit(pid: number, limitMs: number): Promise<void> {
  const until = Date.now() + limitMs
  while (Date.now() < until) {
    try {
      process.kill(pid, 0)
    } catch {
      return
    }
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}
