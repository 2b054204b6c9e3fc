import { createServer } from 'node:net'
import { request } from 'node:http'
import { describe, expect, it } from 'vitest'
import { startHostFixture } from './hostFixture.testkit'
import { closed, openSocket } from './host.testkit'

/** Open TCP handles of this process (servers and sockets), by libuv's own count. */
function tcpHandles(): number {
  return process.getActiveResourcesInfo().filter((r) => r === 'TCPServerWrap' || r === 'TCPSocketWrap').length
}

/** Resolves once `check` holds, polling; event-loop handles close on a later tick. */
async function eventually(check: () => boolean, ms = 2000): Promise<void> {
  const deadline = Date.now() + ms
  while (!check()) {
    if (Date.now() > deadline)
      throw new Error(`still ${tcpHandles()} TCP handles: ${process.getActiveResourcesInfo().join(', ')}`)
    await new Promise((r) => setTimeout(r, 20))
  }
}

describe('web host close()', () => {
  it('terminates open sockets and keep-alive connections, frees the port and leaves no TCP handle behind', async () => {
    const before = tcpHandles()
    const fx = await startHostFixture()
    const { port, token } = fx.host
    const sockets = await Promise.all([
      openSocket(port, `/bridge?token=${token}`),
      openSocket(port, `/bridge?token=${token}`)
    ])
    // A keep-alive HTTP connection left idle after its response.
    await new Promise<void>((resolve, reject) => {
      request(
        {
          host: '127.0.0.1',
          port,
          path: `/?token=${token}`,
          headers: { Host: `127.0.0.1:${port}`, Connection: 'keep-alive' }
        },
        (res) => {
          res.resume()
          res.on('end', resolve)
        }
      )
        .on('error', reject)
        .end()
    })
    expect(tcpHandles()).toBeGreaterThan(before)

    await fx.dispose()
    for (const attempt of sockets) {
      if (attempt.kind !== 'open') throw new Error('bridge refused')
      expect(await closed(attempt.socket)).toBe(1006)
    }
    await eventually(() => tcpHandles() === before)

    const again = createServer()
    await new Promise<void>((resolve, reject) => again.once('error', reject).listen(port, '127.0.0.1', resolve))
    await new Promise<void>((resolve) => again.close(() => resolve()))
  })

  it('is idempotent', async () => {
    const fx = await startHostFixture()
    await Promise.all([fx.host.close(), fx.host.close()])
    await fx.host.close()
    await fx.dispose()
  })
})
