import {
  McpServerError,
  type McpServerEntry,
  type McpServerHandle,
  type McpServerSet,
  type McpServerTools
} from '../../mcp'
import type { TeammateMcpHost, TeammateMcpOpened } from '../mcp'
import type { McpChanges, McpListingEntry } from './mcpServer'
import type { MainToWorker, McpReply, McpRequest, WorkerToMain } from './protocol'

/** The worker side of the MCP requests: the host a worker teammate's runner is given, and where replies go in. */
export interface McpPortClient {
  host: TeammateMcpHost
  /** Feeds one message from the main thread. @returns true when it was an `mcp.reply`. */
  handle(message: MainToWorker): boolean
}

/**
 * A worker teammate's MCP servers, all in the main process (docs/tools.md#mcp-servers): the
 * session's, through the one shared connection each, and those its definition starts, which the
 * main process starts and stops for it. Every call is an `mcp.request` answered by one
 * `mcp.reply`; a call whose signal fires is given up at once (`mcp.cancel` tells the main side).
 */
export function createMcpPortClient(post: (message: WorkerToMain) => void): McpPortClient {
  const open = new Map<number, (reply: McpReply) => void>()
  const opened = new Set<number>()
  let nextId = 1
  let closed = false

  function request<T>(req: McpRequest, signal?: AbortSignal, what = 'request'): Promise<T> {
    const server = 'server' in req ? req.server : '(teammate)'
    if (signal?.aborted) return Promise.reject(new McpServerError(server, `${what} was stopped`, ''))
    const id = nextId++
    return new Promise<T>((resolve, reject) => {
      const onAbort = (): void => {
        if (!open.delete(id)) return
        post({ type: 'mcp.cancel', id })
        reject(new McpServerError(server, `${what} was stopped`, ''))
      }
      open.set(id, (reply) => {
        open.delete(id)
        signal?.removeEventListener('abort', onAbort)
        if (reply.ok) resolve(reply.value as T)
        else reject(new McpServerError(reply.failure.server, reply.failure.detail, reply.failure.stderr))
      })
      signal?.addEventListener('abort', onAbort, { once: true })
      post({ type: 'mcp.request', id, request: req })
    })
  }

  function setOf(scope: number | 'session', names: string[]): McpServerSet {
    return {
      names: [...names].sort(),
      connection(server: string): McpServerHandle {
        return {
          callTool: (tool, args, signal) =>
            request({ op: 'call', scope, server, tool, args }, signal, `tool '${tool}'`),
          listResources: () => request({ op: 'resources', scope, server }, undefined, 'resources/list'),
          readResource: (uri, signal) => request({ op: 'read', scope, server, uri }, signal, `resource '${uri}'`)
        }
      },
      async listTools(only?: readonly string[]) {
        const listed = fromCrossing(await request<McpListingEntry[]>({ op: 'tools', scope }))
        return only ? listed.filter((l) => only.includes(l.server)) : listed
      },
      async closeAll() {
        if (scope === 'session' || !opened.delete(scope)) return
        await request({ op: 'close', scope }).catch(() => undefined)
      }
    }
  }

  /** Servers opened in the main process on first use (a subagent's inline ones): a scope of their own. */
  function lazySet(servers: readonly McpServerEntry[]): McpServerSet {
    if (closed) throw new Error('the teammate has ended: its MCP servers are closed')
    let scope: Promise<{ scope: number; listed: McpServerTools[] }> | undefined
    let first: McpServerTools[] | undefined
    const live = () =>
      (scope ??= request<{ scope: number; listed: McpListingEntry[] }>({ op: 'open', servers: [...servers] }).then(
        (answer) => {
          opened.add(answer.scope)
          first = fromCrossing(answer.listed)
          return { scope: answer.scope, listed: first }
        }
      ))
    const names = servers.map((s) => s.name)
    return {
      names: [...names].sort(),
      connection(server: string): McpServerHandle {
        return {
          callTool: async (tool, args, signal) =>
            setOf((await live()).scope, names)
              .connection(server)
              .callTool(tool, args, signal),
          listResources: async () =>
            setOf((await live()).scope, names)
              .connection(server)
              .listResources(),
          readResource: async (uri, signal) =>
            setOf((await live()).scope, names)
              .connection(server)
              .readResource(uri, signal)
        }
      },
      async listTools(only?: readonly string[]) {
        const got = await live()
        // the listing of the open itself, once; later ones ask again
        const listed = first ?? (await setOf(got.scope, names).listTools())
        first = undefined
        return only ? listed.filter((l) => only.includes(l.server)) : listed
      },
      async closeAll() {
        const was = scope
        scope = undefined
        const got = await was?.catch(() => undefined)
        if (got) await setOf(got.scope, names).closeAll()
      }
    }
  }

  const host: TeammateMcpHost = {
    async session(): Promise<TeammateMcpOpened> {
      const answer = await request<McpChanges>({ op: 'changes', since: -1 })
      const listed = fromCrossing(answer.listed ?? [])
      return {
        servers: setOf(
          'session',
          listed.map((l) => l.server)
        ),
        listed,
        ...(answer.version !== undefined ? { version: answer.version } : {})
      }
    },
    async sessionChanges(version) {
      const answer = await request<McpChanges>({ op: 'changes', since: version })
      if (answer.version === undefined || answer.listed === undefined) return undefined
      return { version: answer.version, listed: fromCrossing(answer.listed) }
    },
    starter: lazySet,
    async open(servers: readonly McpServerEntry[]): Promise<TeammateMcpOpened> {
      const answer = await request<{ scope: number; listed: McpListingEntry[] }>({ op: 'open', servers: [...servers] })
      opened.add(answer.scope)
      const set = setOf(
        answer.scope,
        servers.map((s) => s.name)
      )
      return { servers: set, listed: fromCrossing(answer.listed) }
    },
    async close() {
      closed = true
      // the main side stops them too when the worker ends; closing here lets the teammate's end wait for it
      await Promise.all([...opened].map((scope) => setOf(scope, []).closeAll()))
    }
  }

  return {
    host,
    handle(message) {
      if (message.type !== 'mcp.reply') return false
      open.get(message.id)?.(message.reply)
      return true
    }
  }
}

function fromCrossing(listed: readonly McpListingEntry[]): McpServerTools[] {
  return listed.map((l) =>
    l.ok
      ? l
      : { server: l.server, ok: false, error: new McpServerError(l.failure.server, l.failure.detail, l.failure.stderr) }
  )
}
