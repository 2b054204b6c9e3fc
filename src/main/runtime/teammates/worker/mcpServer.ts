import { McpManager, McpServerError, type McpServerSet, type McpServerTools, type McpTimeouts } from '../../mcp'
import type { McpToolPool } from '../../tools'
import type { MainToWorker, McpReply, McpRequest } from './protocol'

/** The session's MCP servers as worker teammates share them: its set and their tools as listed at its start. */
export interface SharedMcp {
  servers: McpServerSet
  listed: readonly McpServerTools[]
  /** Timeouts of the servers a teammate's definition starts for it. */
  timeouts?: McpTimeouts
  /** The same servers' tools kept current on their list-changed notifications (docs/tools.md#mcp-servers); absent = `listed` never changes. */
  pool?: McpToolPool
}

/** The answer to a `changes` request: the session's listing when it changed since the version asked about. */
export interface McpChanges {
  /** Absent when the session's lists never change (it has no servers). */
  version?: number
  /** The servers that listed, when the listing changed (or `since` was -1). */
  listed?: McpListingEntry[]
}

/** A listing entry as it crosses the port: a failure as its parts. */
export type McpListingEntry =
  | Extract<McpServerTools, { ok: true }>
  | { server: string; ok: false; failure: { server: string; detail: string; stderr: string } }

/**
 * The main-thread side of one worker teammate's MCP requests (docs/tools.md#mcp-servers): the
 * session's servers through their one shared connection each, and the servers the teammate's
 * definition starts for it (`open`), which live here, in the main process, like its terminals —
 * so {@link dispose}, run when the worker ends however it ends (shutdown, crash, hang, kill),
 * stops every one of them. Never throws: a failure is answered as a failed `mcp.reply`.
 */
export interface McpServer {
  handle(id: number, request: McpRequest): void
  /** A request's signal fired in the worker: abort its call. */
  cancel(id: number): void
  /** Stops serving, aborts open calls and stops every server started for the teammate; resolves once their processes are gone. Idempotent. */
  dispose(): Promise<void>
}

/** Creates the {@link McpServer} of one worker; `shared` absent = the session has no MCP servers. */
export function createMcpServer(shared: SharedMcp | undefined, post: (message: MainToWorker) => void): McpServer {
  const own = new Map<number, McpManager>()
  const calls = new Map<number, AbortController>()
  let closed = false
  let disposing: Promise<void> | undefined

  const scopeOf = (scope: number | 'session'): McpServerSet => {
    if (closed) throw new Error('the teammate is being stopped; its MCP servers are closed')
    const set = scope === 'session' ? shared?.servers : own.get(scope)
    if (!set)
      throw new Error(scope === 'session' ? 'the session has no MCP servers' : `no MCP servers opened as ${scope}`)
    return set
  }

  async function serve(id: number, request: McpRequest, signal: AbortSignal): Promise<unknown> {
    switch (request.op) {
      case 'tools':
        if (request.scope !== 'session') return crossing(await scopeOf(request.scope).listTools())
        return crossing(shared?.pool ? (await shared.pool.latest()).listed.filter((l) => l.ok) : (shared?.listed ?? []))
      case 'changes': {
        if (!shared?.pool) return { listed: crossing(shared?.listed ?? []) } satisfies McpChanges
        const now = await shared.pool.latest()
        if (now.version === request.since) return { version: now.version } satisfies McpChanges
        return { version: now.version, listed: crossing(now.listed.filter((l) => l.ok)) } satisfies McpChanges
      }
      case 'open': {
        if (closed) throw new Error('the teammate is being stopped; no MCP server starts for it')
        const manager = new McpManager(request.servers, shared?.timeouts ?? {})
        own.set(id, manager)
        return { scope: id, listed: crossing(await manager.listTools()) }
      }
      case 'close': {
        const manager = own.get(request.scope)
        own.delete(request.scope)
        await manager?.closeAll()
        return null
      }
      case 'call':
        return scopeOf(request.scope).connection(request.server).callTool(request.tool, request.args, signal)
      case 'resources':
        return scopeOf(request.scope).connection(request.server).listResources()
      case 'read':
        return scopeOf(request.scope).connection(request.server).readResource(request.uri, signal)
    }
  }

  return {
    handle(id, request) {
      const controller = new AbortController()
      calls.set(id, controller)
      void serve(id, request, controller.signal)
        .then(
          (value): McpReply => ({ ok: true, value }),
          (error: unknown): McpReply => ({ ok: false, failure: failureOf(error, request) })
        )
        .then((reply) => {
          if (calls.get(id) !== controller) return // cancelled: the worker no longer waits
          calls.delete(id)
          post({ type: 'mcp.reply', id, reply })
        })
    },
    cancel(id) {
      calls.get(id)?.abort()
      calls.delete(id)
    },
    dispose() {
      closed = true
      disposing ??= (async () => {
        for (const c of calls.values()) c.abort()
        calls.clear()
        const managers = [...own.values()]
        own.clear()
        await Promise.all(managers.map((m) => m.closeAll()))
      })()
      return disposing
    }
  }
}

/** A listing as it can cross the port: each failure as its parts. */
function crossing(listed: readonly McpServerTools[]): McpListingEntry[] {
  return listed.map((l) =>
    l.ok
      ? l
      : { server: l.server, ok: false, failure: { server: l.server, detail: l.error.detail, stderr: l.error.stderr } }
  )
}

function failureOf(error: unknown, request: McpRequest): { server: string; detail: string; stderr: string } {
  if (error instanceof McpServerError) return { server: error.server, detail: error.detail, stderr: error.stderr }
  const server =
    'server' in request
      ? request.server
      : 'open' === request.op
        ? request.servers.map((s) => s.name).join(', ')
        : '(teammate)'
  return { server, detail: (error as Error)?.message ?? String(error), stderr: '' }
}
