import { createServer, request, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { WebSocket as NodeWebSocket } from 'ws'
import { expect, snap, test } from './fixtures'

/** Nothing to script: these tests never reach the model. */
const IDLE = { name: 'e2e-idle', agents: { '*': [{ text: 'idle' }] } }

/** Upgrades to the bridge from Node with exact headers; resolves `open` or the refusal's HTTP status. */
function tryUpgrade(url: string, headers: Record<string, string> = {}): Promise<'open' | number> {
  return new Promise((resolve, reject) => {
    const socket = new NodeWebSocket(url, { headers })
    socket.once('open', () => {
      socket.close()
      resolve('open')
    })
    socket.once('unexpected-response', (_req, res) => {
      res.resume()
      socket.terminate()
      resolve(res.statusCode ?? 0)
    })
    socket.once('error', reject)
  })
}

/** A GET from Node with exact headers (fetch cannot set Origin as a browser would). */
function get(url: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    request(url, { headers }, (res) => {
      res.resume()
      resolve(res.statusCode ?? 0)
    })
      .on('error', reject)
      .end()
  })
}

/**
 * What a page in the browser sees when it opens a WebSocket: opened, or failed and closed with a
 * code. Runs in the page, so it uses the browser's WebSocket, not Node's.
 */
const OPEN_SOCKET_IN_PAGE = (url: string) =>
  new Promise<string>((resolve) => {
    const socket = new (
      globalThis as unknown as {
        WebSocket: new (url: string) => { onopen: () => void; onclose: (e: { code: number }) => void; close(): void }
      }
    ).WebSocket(url)
    socket.onopen = () => {
      socket.close()
      resolve('open')
    }
    socket.onclose = (event) => resolve(`closed ${event.code}`)
  })

test('a page or bridge connection without the token is refused', async ({ page, serve }, testInfo) => {
  const served = await serve(IDLE)
  const refused = await page.goto(`${served.origin}/`)
  expect(refused?.status()).toBe(401)
  await expect(page.locator('body')).toContainText('Unauthorized')
  await expect(page.locator('#root')).toHaveCount(0)
  expect(await page.context().cookies()).toEqual([])
  await snap(page, testInfo, '01-no-token-401')

  expect((await page.goto(`${served.origin}/?token=${'0'.repeat(64)}`))?.status()).toBe(401)
  const bridge = `${served.origin.replace('http:', 'ws:')}/bridge`
  expect(await page.evaluate(OPEN_SOCKET_IN_PAGE, bridge)).toBe('closed 1006')
  expect(await tryUpgrade(bridge)).toBe(401)
  expect(await tryUpgrade(`${bridge}?token=wrong`)).toBe(401)

  // The same browser, once it has opened the URL with the token, holds the cookie and gets in.
  expect((await page.goto(served.url))?.status()).toBe(200)
  const cookies = await page.context().cookies()
  expect(cookies).toEqual([
    expect.objectContaining({
      name: `swarmdesk_token_${served.port}`,
      value: served.token,
      httpOnly: true,
      sameSite: 'Strict'
    })
  ])
  expect(await page.evaluate(OPEN_SOCKET_IN_PAGE, bridge)).toBe('open')
  expect(await tryUpgrade(`${bridge}?token=${served.token}`)).toBe('open')
})

test('a foreign Origin is refused, on the page and on the bridge, even with the token', async ({
  page,
  serve
}, testInfo) => {
  const served = await serve(IDLE)
  const bridge = `${served.origin.replace('http:', 'ws:')}/bridge?token=${served.token}`
  expect(await get(served.url, { Origin: 'http://evil.example' })).toBe(403)
  expect(await tryUpgrade(bridge, { Origin: 'http://evil.example' })).toBe(403)
  expect(await tryUpgrade(bridge, { Origin: served.origin })).toBe('open')

  // A real page on another origin (another port of 127.0.0.1) that knows the token and tries the bridge.
  const foreign: Server = createServer((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' })
    res.end(`<!doctype html><title>foreign</title><h1>Another site</h1><p id="result">trying…</p>
<script>
const s = new WebSocket(${JSON.stringify(bridge)});
s.onopen = () => { document.getElementById('result').textContent = 'bridge: open'; };
s.onclose = (e) => { if (document.getElementById('result').textContent === 'trying…') document.getElementById('result').textContent = 'bridge: refused (close ' + e.code + ')'; };
</script>`)
  })
  await new Promise<void>((resolve) => foreign.listen(0, '127.0.0.1', resolve))
  try {
    await page.goto(`http://127.0.0.1:${(foreign.address() as AddressInfo).port}/`)
    await expect(page.locator('#result')).toHaveText('bridge: refused (close 1006)')
    await snap(page, testInfo, '01-foreign-origin-refused')
  } finally {
    foreign.closeAllConnections()
    await new Promise<void>((resolve) => foreign.close(() => resolve()))
  }
})

test('the content security policy of the built renderer stops inline script, code from strings and every load from outside the app', async ({
  page,
  serve
}, testInfo) => {
  // an outside server that records every request it gets: none may reach it
  const hits: string[] = []
  const outside: Server = createServer((req, res) => {
    hits.push(req.url ?? '')
    res.setHeader('access-control-allow-origin', '*')
    res.end(req.url?.endsWith('.js') ? 'window.__outsideRan = true' : 'x')
  })
  await new Promise<void>((done) => outside.listen(0, '127.0.0.1', done))
  const outsideUrl = `http://127.0.0.1:${(outside.address() as AddressInfo).port}`
  try {
    const served = await serve(IDLE)
    await page.goto(served.url)
    await expect(page.getByRole('textbox', { name: 'Message to the leader' })).toBeVisible()
    const result = await page.evaluate(async (base) => {
      const w = window as unknown as Record<string, unknown>
      const violations: string[] = []
      document.addEventListener('securitypolicyviolation', (e) => violations.push(e.effectiveDirective))
      const inline = document.createElement('script')
      inline.textContent = 'window.__inlineRan = true'
      document.body.append(inline)
      const script = document.createElement('script')
      script.src = `${base}/evil.js`
      document.body.append(script)
      const img = document.createElement('img')
      img.src = `${base}/pixel.png`
      document.body.append(img)
      const frame = document.createElement('iframe')
      frame.src = `${base}/frame.html`
      document.body.append(frame)
      let fetched = 'blocked'
      await fetch(`${base}/data`).then(
        () => (fetched = 'fetched'),
        () => undefined
      )
      // code from a string, run by the page itself (code run through the test driver is exempt from CSP)
      ;(setTimeout as unknown as (code: string, ms: number) => void)('window.__stringRan = true', 0)
      const handler = document.createElement('div')
      handler.setAttribute('onclick', 'window.__handlerRan = true')
      document.body.append(handler)
      handler.click()
      await new Promise((r) => setTimeout(r, 1_000))
      return {
        violations,
        inline: w.__inlineRan === true,
        outside: w.__outsideRan === true,
        handler: w.__handlerRan === true,
        fromString: w.__stringRan === true,
        fetched
      }
    }, outsideUrl)
    expect(result).toMatchObject({
      inline: false,
      outside: false,
      handler: false,
      fromString: false,
      fetched: 'blocked'
    })
    expect(new Set(result.violations)).toEqual(
      new Set(['script-src-elem', 'script-src-attr', 'img-src', 'frame-src', 'connect-src', 'script-src'])
    )
    expect(hits).toEqual([])
    await snap(page, testInfo, '05-csp-held')
  } finally {
    outside.closeAllConnections()
    await new Promise((done) => outside.close(done))
  }
})
