import { chmodSync, rmSync } from 'node:fs'
import http from 'node:http'
import net from 'node:net'
import type { Duplex } from 'node:stream'

/** A connection's verdict: through, or refused with the reason the command is told. */
export type ConnectionVerdict = { allow: true } | { allow: false; reason: string }

/** Options of {@link startNetworkProxy}. */
export interface NetworkProxyOptions {
  /** The unix socket the proxy listens on (absolute; a stale file there is replaced). */
  socketPath: string
  /** Decides one connection by its host name (as the client named it) and port; may wait for a person. */
  decide: (host: string, port: number) => Promise<ConnectionVerdict>
  /**
   * Addresses for host names, used instead of DNS for the names it lists (e.g. test names mapped to
   * 127.0.0.1); the verdict is still taken on the name.
   */
  hosts?: Readonly<Record<string, string>>
}

/** A running proxy (see {@link startNetworkProxy}). */
export interface NetworkProxy {
  readonly socketPath: string
  /** The hosts refused at or after `since` (ms since the epoch), each once, oldest first. */
  refusedSince(since: number): string[]
  /** Stops listening, ends open tunnels and removes the socket file. */
  close(): Promise<void>
}

/**
 * The sandbox's network proxy (docs/sandbox.md#network): an HTTP proxy on a unix socket, which a
 * forwarder inside the sandbox exposes as `127.0.0.1:3128`. It serves `CONNECT host:port` (HTTPS
 * and any TCP tunnel) and plain `http://` requests in absolute form, and lets each through only
 * when `decide` allows its host; a refusal is a `403` whose body names the host and the reason.
 * Written on node:http rather than a proxy package: the one part worth having, the per-host
 * decision, is Swarmdesk's own, and the tunnel itself is a few lines of piping.
 * @throws the listen error when the socket cannot be bound (its folder missing or not writable).
 */
export async function startNetworkProxy(options: NetworkProxyOptions): Promise<NetworkProxy> {
  const refused: Array<{ host: string; time: number }> = []
  const open = new Set<Duplex>()
  const addressOf = (host: string): string => options.hosts?.[host.toLowerCase()] ?? host
  const judge = async (host: string, port: number): Promise<ConnectionVerdict> => {
    const verdict = await options
      .decide(host, port)
      .catch((error: Error): ConnectionVerdict => ({ allow: false, reason: `the decision failed: ${error.message}` }))
    if (!verdict.allow) refused.push({ host, time: Date.now() })
    return verdict
  }
  const refusal = (host: string, reason: string): string =>
    `Swarmdesk sandbox: the network connection to ${host} was refused (${reason}).\n`

  const server = http.createServer((req, res) => {
    const target = absoluteHttpUrl(req.url)
    if (!target) {
      res
        .writeHead(400, { 'content-type': 'text/plain' })
        .end('Swarmdesk sandbox proxy: send an absolute http:// URL\n')
      return
    }
    void judge(target.host, target.port).then((verdict) => {
      if (!verdict.allow) {
        res.writeHead(403, { 'content-type': 'text/plain' }).end(refusal(target.host, verdict.reason))
        return
      }
      const headers = { ...req.headers }
      delete headers['proxy-connection']
      delete headers['proxy-authorization']
      const upstream = http.request({
        host: addressOf(target.host),
        port: target.port,
        method: req.method,
        path: target.path,
        headers
      })
      upstream.on('response', (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers)
        answer.pipe(res)
      })
      upstream.on('error', (error) => {
        if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' })
        res.end(`Swarmdesk sandbox proxy: ${target.host}:${target.port} failed: ${error.message}\n`)
      })
      req.pipe(upstream)
    })
  })

  server.on('connect', (req: http.IncomingMessage, client: Duplex, head: Buffer) => {
    open.add(client)
    client.on('close', () => open.delete(client))
    client.on('error', () => undefined)
    const target = authority(req.url)
    if (!target) {
      client.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n')
      return
    }
    void judge(target.host, target.port).then((verdict) => {
      if (!verdict.allow) {
        const body = refusal(target.host, verdict.reason)
        client.end(
          `HTTP/1.1 403 Forbidden\r\nContent-Type: text/plain\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`
        )
        return
      }
      let connected = false
      const upstream = net.connect({ host: addressOf(target.host), port: target.port })
      upstream.on('connect', () => {
        connected = true
        client.write('HTTP/1.1 200 Connection Established\r\n\r\n')
        if (head.length) upstream.write(head)
        upstream.pipe(client)
        client.pipe(upstream)
      })
      upstream.on('error', (error) => {
        if (connected) client.destroy()
        else client.end(`HTTP/1.1 502 Bad Gateway\r\nConnection: close\r\n\r\n${error.message}\n`)
      })
      client.on('close', () => upstream.destroy())
    })
  })
  server.on('connection', (socket: net.Socket) => {
    open.add(socket)
    socket.on('close', () => open.delete(socket))
  })

  rmSync(options.socketPath, { force: true })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.socketPath, () => {
      server.off('error', reject)
      resolve()
    })
  })
  chmodSync(options.socketPath, 0o600)
  server.unref()

  return {
    socketPath: options.socketPath,
    refusedSince: (since) => [...new Set(refused.filter((r) => r.time >= since).map((r) => r.host))],
    close: async () => {
      for (const socket of open) socket.destroy()
      await new Promise<void>((resolve) => server.close(() => resolve()))
      rmSync(options.socketPath, { force: true })
    }
  }
}

/** `host:port` of a CONNECT request (`[v6]:port` too), or undefined when it is not one. */
function authority(target: string | undefined): { host: string; port: number } | undefined {
  const m = target?.match(/^\[?([^\]\s]+?)\]?:(\d{1,5})$/)
  if (!m) return undefined
  const port = Number(m[2])
  return port > 0 && port < 65536 ? { host: m[1]!, port } : undefined
}

/** Host, port and path of a proxied plain-HTTP request's absolute URL; undefined for anything else. */
function absoluteHttpUrl(target: string | undefined): { host: string; port: number; path: string } | undefined {
  if (!target?.startsWith('http://')) return undefined
  try {
    const url = new URL(target)
    return { host: url.hostname.replace(/^\[|\]$/g, ''), port: Number(url.port || 80), path: url.pathname + url.search }
  } catch {
    return undefined
  }
}
