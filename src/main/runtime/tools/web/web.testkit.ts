import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

/** A page of the test site: status, headers and body, or a handler of its own. */
type Route = (req: IncomingMessage, res: ServerResponse, site: TestSite) => void

/** A local HTTP server with the pages WebFetch's tests need, on 127.0.0.1 and a free port. */
export interface TestSite {
  /** `http://127.0.0.1:<port>` */
  readonly url: string
  /** The same server under another host name: `http://localhost:<port>`. */
  readonly otherHostUrl: string
  readonly port: number
  /** How many times each path was requested. */
  readonly hits: Map<string, number>
  close(): Promise<void>
}

/** An HTML page with a heading, a paragraph, a list, a link, a script and a style that must not reach the model. */
export const ARTICLE_HTML = `<!doctype html>
<html><head><title>Release notes</title><style>body { color: red }</style></head>
<body>
<h1>Release 4.2</h1>
<p>The <strong>frobnicator</strong> now runs twice as fast.</p>
<ul><li>First change</li><li>Second change</li></ul>
<p>See <a href="/docs">the docs</a>.</p>
<script>window.secret = "do-not-leak"</script>
</body></html>`

const ROUTES: Record<string, Route> = {
  '/article': (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
    res.end(ARTICLE_HTML)
  },
  '/plain': (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain' })
    res.end('plain words, kept as they are: <b>not html</b>')
  },
  '/hop': (_req, res) => {
    res.writeHead(302, { location: '/hop2' })
    res.end()
  },
  '/hop2': (_req, res) => {
    res.writeHead(301, { location: '/article' })
    res.end()
  },
  '/elsewhere': (_req, res, site) => {
    res.writeHead(301, { location: `${site.otherHostUrl}/article` })
    res.end()
  },
  '/loop': (_req, res) => {
    res.writeHead(302, { location: '/loop' })
    res.end()
  },
  '/huge-declared': (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain', 'content-length': String(11 * 1024 * 1024) })
    res.end()
  },
  '/huge-streamed': (_req, res) => {
    // no content-length: the cap must hold while reading
    res.writeHead(200, { 'content-type': 'text/plain' })
    const chunk = Buffer.alloc(1024 * 1024, 'a')
    let sent = 0
    const more = (): void => {
      while (sent < 12) {
        sent++
        if (!res.write(chunk)) return void res.once('drain', more)
      }
      res.end()
    }
    res.on('error', () => {})
    more()
  },
  '/slow': (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain' })
    res.write('the first words, then nothing')
    // the rest never comes; the server's close() ends the socket
  },
  '/image': (_req, res) => {
    res.writeHead(200, { 'content-type': 'image/png' })
    res.end(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0]))
  },
  '/missing': (_req, res) => {
    res.writeHead(404, { 'content-type': 'text/plain' })
    res.end('no such page')
  }
}

/** Starts the test site; close it in `afterEach`. */
export async function startTestSite(): Promise<TestSite> {
  const hits = new Map<string, number>()
  let site: TestSite | undefined
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname
    hits.set(path, (hits.get(path) ?? 0) + 1)
    const route = ROUTES[path]
    if (route) route(req, res, site!)
    else {
      res.writeHead(404)
      res.end()
    }
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  site = {
    url: `http://127.0.0.1:${port}`,
    otherHostUrl: `http://localhost:${port}`,
    port,
    hits,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      })
  }
  return site
}
