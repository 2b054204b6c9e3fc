import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { tokenCookieName } from './auth'
import { httpGet, openSocket } from './host.testkit'
import { startHostFixture, type HostFixture } from './hostFixture.testkit'

let fx: HostFixture
beforeAll(async () => {
  fx = await startHostFixture()
})
afterAll(() => fx?.dispose())

const cookie = () => `${tokenCookieName(fx.host.port)}=${fx.host.token}`

describe('web host authentication over HTTP', () => {
  it('refuses the page without a token, and with a wrong one, with 401', async () => {
    expect((await httpGet(fx.host.port, '/')).status).toBe(401)
    expect((await httpGet(fx.host.port, '/?token=nope')).status).toBe(401)
    expect((await httpGet(fx.host.port, `/?token=${fx.host.token.slice(0, -1)}`)).status).toBe(401)
    const refused = await httpGet(fx.host.port, '/assets/app.js')
    expect(refused.status).toBe(401)
    expect(refused.body).not.toContain('console.log')
  })

  it('answers GET /?token=T with the page and sets an HttpOnly, SameSite=Strict cookie', async () => {
    const page = await httpGet(fx.host.port, `/?token=${fx.host.token}`)
    expect(page.status).toBe(200)
    expect(page.body).toContain('<div id="root">')
    expect(page.headers['set-cookie']).toEqual([
      `${tokenCookieName(fx.host.port)}=${fx.host.token}; HttpOnly; SameSite=Strict; Path=/`
    ])
    expect(new URL(fx.host.url)).toMatchObject({
      protocol: 'http:',
      hostname: '127.0.0.1',
      port: String(fx.host.port),
      pathname: '/'
    })
    expect(new URL(fx.host.url).searchParams.get('token')).toBe(fx.host.token)
    expect(fx.host.token).toMatch(/^[0-9a-f]{64}$/)
  })

  it('lets later requests authenticate by the cookie alone', async () => {
    const asset = await httpGet(fx.host.port, '/assets/app.js', { Cookie: `other=1; ${cookie()}` })
    expect(asset.status).toBe(200)
    expect(asset.body).toContain('console.log')
  })

  it('judges an explicit wrong ?token= even when the cookie is right', async () => {
    expect((await httpGet(fx.host.port, '/assets/app.js?token=wrong', { Cookie: cookie() })).status).toBe(401)
  })

  it('refuses a foreign Origin with 403, even with the right token', async () => {
    const foreign = await httpGet(fx.host.port, `/?token=${fx.host.token}`, { Origin: 'http://evil.example' })
    expect(foreign.status).toBe(403)
    expect(foreign.headers['set-cookie']).toBeUndefined()
    expect(
      (await httpGet(fx.host.port, `/?token=${fx.host.token}`, { Origin: `http://127.0.0.1:${fx.host.port + 1}` }))
        .status
    ).toBe(403)
    expect(
      (await httpGet(fx.host.port, `/?token=${fx.host.token}`, { Origin: `http://localhost:${fx.host.port}` })).status
    ).toBe(200)
    expect(
      (await httpGet(fx.host.port, `/?token=${fx.host.token}`, { Origin: `http://127.0.0.1:${fx.host.port}` })).status
    ).toBe(200)
  })

  it('refuses a request for another Host name (DNS rebinding) with 403', async () => {
    expect(
      (await httpGet(fx.host.port, `/?token=${fx.host.token}`, { Host: `attacker.example:${fx.host.port}` })).status
    ).toBe(403)
  })
})

describe('web host authentication of the WebSocket bridge', () => {
  it('refuses an upgrade without a token, or with a wrong one, with 401', async () => {
    expect(await openSocket(fx.host.port, '/bridge')).toEqual({ kind: 'refused', status: 401 })
    expect(await openSocket(fx.host.port, '/bridge?token=wrong')).toEqual({ kind: 'refused', status: 401 })
    expect(await openSocket(fx.host.port, '/bridge', { Cookie: `${tokenCookieName(fx.host.port)}=wrong` })).toEqual({
      kind: 'refused',
      status: 401
    })
  })

  it('accepts an upgrade with ?token= or with the cookie', async () => {
    for (const attempt of [
      await openSocket(fx.host.port, `/bridge?token=${fx.host.token}`),
      await openSocket(fx.host.port, '/bridge', { Cookie: cookie() })
    ]) {
      expect(attempt.kind).toBe('open')
      if (attempt.kind === 'open') attempt.socket.close()
    }
  })

  it('refuses an upgrade from a foreign Origin with 403', async () => {
    expect(await openSocket(fx.host.port, `/bridge?token=${fx.host.token}`, { Origin: 'http://evil.example' })).toEqual(
      { kind: 'refused', status: 403 }
    )
    const own = await openSocket(fx.host.port, `/bridge?token=${fx.host.token}`, {
      Origin: `http://127.0.0.1:${fx.host.port}`
    })
    expect(own.kind).toBe('open')
    if (own.kind === 'open') own.socket.close()
  })

  it('refuses upgrades on any other path with 404', async () => {
    expect(await openSocket(fx.host.port, `/other?token=${fx.host.token}`)).toEqual({ kind: 'refused', status: 404 })
  })
})
