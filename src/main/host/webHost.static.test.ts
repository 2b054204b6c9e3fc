import { rmSync, symlinkSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { tokenCookieName } from './auth'
import { FIXTURE_CSP, startHostFixture, type HostFixture } from './hostFixture.testkit'
import { httpGet } from './host.testkit'

let fx: HostFixture
beforeAll(async () => {
  fx = await startHostFixture()
  symlinkSync(join(fx.outside, 'secret.txt'), join(fx.staticDir, 'assets', 'link.txt'))
})
afterAll(() => fx?.dispose())

const get = (path: string, headers: Record<string, string> = {}) =>
  httpGet(fx.host.port, path, { Cookie: `${tokenCookieName(fx.host.port)}=${fx.host.token}`, ...headers })

describe('web host static files', () => {
  it('serves files with their content types', async () => {
    expect((await get('/')).headers['content-type']).toBe('text/html; charset=utf-8')
    expect((await get('/index.html')).headers['content-type']).toBe('text/html; charset=utf-8')
    expect((await get('/assets/app.js')).headers['content-type']).toBe('text/javascript; charset=utf-8')
    expect((await get('/assets/app.css')).headers['content-type']).toBe('text/css; charset=utf-8')
  })

  it('never caches the page, and sends the page meta CSP as a header with nosniff and no-referrer', async () => {
    const page = await get('/')
    expect(page.headers['cache-control']).toBe('no-store')
    expect(page.headers['content-security-policy']).toBe(`${FIXTURE_CSP}; frame-ancestors 'none'`)
    expect(page.headers['x-content-type-options']).toBe('nosniff')
    expect(page.headers['referrer-policy']).toBe('no-referrer')
    const refused = await httpGet(fx.host.port, '/')
    expect(refused.headers['x-content-type-options']).toBe('nosniff')
    expect(refused.headers['cache-control']).toBe('no-store')
  })

  it.each([
    ['/../private/secret.txt'],
    ['/assets/../../private/secret.txt'],
    ['/%2e%2e/private/secret.txt'],
    ['/..%2fprivate%2fsecret.txt'],
    ['/assets/..%5c..%5cprivate%5csecret.txt'],
    ['/assets/link.txt'],
    ['/%00index.html']
  ])('refuses the path traversal %s', async (path) => {
    const answer = await get(path)
    expect([403, 404]).toContain(answer.status)
    expect(answer.body).not.toContain('TOP SECRET')
  })

  it('answers 404 for a missing file or a directory, 400 for a path that does not decode, 405 for other methods', async () => {
    expect((await get('/nope.js')).status).toBe(404)
    expect((await get('/assets')).status).toBe(404)
    expect((await get('/%E0%A4%A')).status).toBe(400)
    expect(
      (await httpGet(fx.host.port, '/', { Cookie: `${tokenCookieName(fx.host.port)}=${fx.host.token}` }, 'POST')).status
    ).toBe(405)
  })

  it('answers 503 asking for `npm run build` while the renderer is not built', async () => {
    rmSync(join(fx.staticDir, 'index.html'))
    const answer = await get('/')
    expect(answer.status).toBe(503)
    expect(answer.body).toContain('npm run build')
  })
})
