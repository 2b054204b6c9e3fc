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
    const socket = new (globalThis as unknown as { WebSocket: new (url: string) => { onopen: () => void; onclose: (e: { code: number }) => void; close(): void } }).WebSocket(url)
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
  expect(cookies).toEqual([expect.objectContaining({ name: 'swarmdesk_token', value: served.token, httpOnly: true, sameSite: 'Strict' })])
  expect(await page.evaluate(OPEN_SOCKET_IN_PAGE, bridge)).toBe('open')
  expect(await tryUpgrade(`${bridge}?token=${served.token}`)).toBe('open')
})

test('a foreign Origin is refused, on the page and on the bridge, even with the token', async ({ page, serve }, testInfo) => {
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
