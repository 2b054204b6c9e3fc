import { afterEach, describe, expect, it, vi } from 'vitest'
import { WebSocket, WebSocketServer, type WebSocket as ServerSocket } from 'ws'
import type { AddressInfo } from 'node:net'
import type { RuntimeEvent } from '../../../shared/events'
import type { PushOf } from '../../../shared/ipc'
import { snapshot } from '../store/store.testkit'
import type { ConnectionStatus } from './client'
import { bridgeUrl, createWebSocketClient, type SocketConstructor } from './wsClient'

type Handler = (frame: { id: number; channel: string; payload: unknown }, socket: ServerSocket) => void

/** A bridge server on 127.0.0.1 that answers requests with `handler` and records connections. */
async function startServer(handler: Handler) {
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 })
  await new Promise<void>((r) => wss.once('listening', () => r()))
  const sockets: ServerSocket[] = []
  const urls: string[] = []
  wss.on('connection', (socket, req) => {
    sockets.push(socket)
    urls.push(req.url ?? '')
    socket.on('message', (raw) => handler(JSON.parse(String(raw)), socket))
  })
  const port = (wss.address() as AddressInfo).port
  return {
    wss,
    sockets,
    urls,
    url: `ws://127.0.0.1:${port}/bridge?token=t0k`,
    push(channel: string, payload: unknown) {
      for (const s of sockets) if (s.readyState === s.OPEN) s.send(JSON.stringify({ kind: 'push', channel, payload }))
    },
    close: () =>
      new Promise<void>((r) => {
        for (const s of wss.clients) s.terminate()
        wss.close(() => r())
      })
  }
}

const ok = (socket: ServerSocket, id: number, result: unknown) =>
  socket.send(JSON.stringify({ kind: 'response', id, ok: true, result }))

function waitFor(pred: () => boolean, ms = 3_000): Promise<void> {
  const start = Date.now()
  return new Promise((resolve, reject) => {
    const tick = () => {
      if (pred()) resolve()
      else if (Date.now() - start > ms) reject(new Error('timed out waiting'))
      else setTimeout(tick, 5)
    }
    tick()
  })
}

const cleanups: Array<() => unknown> = []
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c()
})

async function setup(handler: Handler) {
  const server = await startServer(handler)
  cleanups.push(server.close)
  const client = createWebSocketClient({
    url: server.url,
    WebSocket: WebSocket as unknown as SocketConstructor,
    initialDelayMs: 20,
    maxDelayMs: 100
  })
  cleanups.push(() => client.dispose())
  const statuses: ConnectionStatus[] = []
  client.onDidChangeStatus((s) => statuses.push(s))
  return { server, client, statuses }
}

const answerSnapshot: Handler = (f, s) => {
  if (f.channel === 'workspace.snapshot') ok(s, f.id, snapshot())
  if (f.channel === 'leader.prompt') ok(s, f.id, { ok: true })
}

describe('WebSocket workspace client', () => {
  it('builds the bridge URL from the page origin and its token', () => {
    expect(bridgeUrl({ origin: 'http://127.0.0.1:4100', search: '?token=a b' })).toBe(
      'ws://127.0.0.1:4100/bridge?token=a%20b'
    )
    expect(bridgeUrl({ origin: 'https://host', search: '' })).toBe('wss://host/bridge')
  })

  it("binds the bridge to the page's workspace, keeping the token when the page has one", () => {
    expect(bridgeUrl({ origin: 'http://127.0.0.1:4100', search: '?workspace=0123abcd' })).toBe(
      'ws://127.0.0.1:4100/bridge?workspace=0123abcd'
    )
    expect(bridgeUrl({ origin: 'http://127.0.0.1:4100', search: '?token=t1&workspace=0123abcd&pane=x' })).toBe(
      'ws://127.0.0.1:4100/bridge?token=t1&workspace=0123abcd'
    )
  })

  it('sends a request made before the socket opens and resolves with the validated response', async () => {
    const { server, client } = await setup(answerSnapshot)
    expect(client.status).toBe('connecting')
    const snap = await client.request('workspace.snapshot', {})
    expect(snap.sessionId).toBe('s-1')
    expect(client.status).toBe('open')
    expect(server.urls[0]).toBe('/bridge?token=t0k')
  })

  it('rejects with the host error name, and a response that breaks the contract as a protocol error', async () => {
    const { client } = await setup((f, s) => {
      if (f.channel === 'leader.prompt')
        s.send(
          JSON.stringify({ kind: 'response', id: f.id, ok: false, error: { name: 'LeaderBusyError', message: 'busy' } })
        )
      if (f.channel === 'workspace.snapshot') ok(s, f.id, { sessionId: 42 })
    })
    await expect(client.request('leader.prompt', { text: 'hi' })).rejects.toMatchObject({
      name: 'LeaderBusyError',
      message: 'busy'
    })
    await expect(client.request('workspace.snapshot', {})).rejects.toMatchObject({ name: 'BridgeProtocolError' })
  })

  it('refuses a request the contract does not allow without sending it', async () => {
    const seen: string[] = []
    const { client } = await setup((f, s) => {
      seen.push(f.channel)
      answerSnapshot(f, s)
    })
    await expect(client.request('leader.prompt', { text: '   ' })).rejects.toThrow()
    await client.request('workspace.snapshot', {})
    expect(seen).toEqual(['workspace.snapshot'])
  })

  it('delivers valid pushes and drops invalid frames, invalid payloads and unknown event types', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined)
    const { server, client } = await setup(answerSnapshot)
    const events: RuntimeEvent[] = []
    const chunks: PushOf<'pane.data'>[] = []
    client.on('runtime.event', (e) => events.push(e))
    const off = client.on('pane.data', (c) => chunks.push(c))
    await client.request('workspace.snapshot', {})
    const s = server.sockets[0]
    s.send('not json')
    s.send(JSON.stringify({ kind: 'nope' }))
    server.push('runtime.event', { type: 'hologram', seq: 1, time: 't', agentId: 'a', agentName: 'a' })
    server.push('runtime.event', {
      type: 'agent_state',
      seq: 2,
      time: 't',
      agentId: 'a',
      agentName: 'a',
      state: 'sleeping'
    })
    server.push('pane.data', { agentId: 'a', data: 'x', chunk: 0 })
    server.push('no.such.channel', {})
    server.push('runtime.event', {
      type: 'agent_state',
      seq: 3,
      time: 't',
      agentId: 'a',
      agentName: 'a',
      state: 'running'
    })
    server.push('pane.data', { agentId: 'a', data: 'hello', chunk: 1 })
    await waitFor(() => chunks.length === 1)
    expect(events.map((e) => e.seq)).toEqual([3])
    expect(chunks).toEqual([{ agentId: 'a', data: 'hello', chunk: 1 }])
    off()
    server.push('pane.data', { agentId: 'a', data: 'more', chunk: 2 })
    server.push('runtime.event', {
      type: 'agent_state',
      seq: 4,
      time: 't',
      agentId: 'a',
      agentName: 'a',
      state: 'idle'
    })
    await waitFor(() => events.length === 2)
    expect(chunks).toHaveLength(1)
    expect(logged).toHaveBeenCalledTimes(4)
    logged.mockRestore()
  })

  it('delivers the pushes of a `pushes` frame one by one, in order, dropping only an invalid one among them', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined)
    const { server, client } = await setup(answerSnapshot)
    const seen: string[] = []
    client.on('runtime.event', (e) => seen.push(`event ${e.seq}`))
    client.on('pane.data', (c) => seen.push(`pane ${c.agentId} ${c.chunk} ${c.data}`))
    await client.request('workspace.snapshot', {})
    const pushes = [
      { channel: 'pane.data', payload: { agentId: 'a', data: 'one', chunk: 1 } },
      {
        channel: 'runtime.event',
        payload: { type: 'agent_state', seq: 5, time: 't', agentId: 'a', agentName: 'a', state: 'running' }
      },
      { channel: 'pane.data', payload: { agentId: 'b', data: 'bad', chunk: -1 } },
      { channel: 'pane.data', payload: { agentId: 'b', data: 'two', chunk: 1 } },
      { channel: 'pane.data', payload: { agentId: 'a', data: 'three', chunk: 2 } }
    ]
    server.sockets[0]!.send(JSON.stringify({ kind: 'pushes', pushes }))
    server.sockets[0]!.send(JSON.stringify({ kind: 'pushes', pushes: [] }))
    await waitFor(() => seen.length === 4)
    expect(seen).toEqual(['pane a 1 one', 'event 5', 'pane b 1 two', 'pane a 2 three'])
    await waitFor(() => logged.mock.calls.length === 2)
    logged.mockRestore()
  })

  it('rejects requests in flight when the link drops, reconnects with backoff and says so', async () => {
    let answer = false
    const { server, client, statuses } = await setup((f, s) => {
      if (answer) answerSnapshot(f, s)
    })
    let reconnects = 0
    client.onDidReconnect(() => reconnects++)
    const lost = client.request('workspace.snapshot', {})
    await waitFor(() => server.sockets.length === 1 && client.status === 'open')
    await new Promise((r) => setTimeout(r, 20))
    server.sockets[0].terminate()
    await expect(lost).rejects.toMatchObject({ name: 'BridgeDisconnectedError' })
    answer = true
    await waitFor(() => reconnects === 1)
    expect(server.sockets).toHaveLength(2)
    expect(statuses).toEqual(['open', 'reconnecting', 'open'])
    expect((await client.request('workspace.snapshot', {})).sessionId).toBe('s-1')
  })

  it('keeps retrying while the host is down and stops for good when disposed', async () => {
    const { server, client, statuses } = await setup(answerSnapshot)
    await client.request('workspace.snapshot', {})
    const wsPort = Number(new URL(server.url).port)
    await server.close()
    await waitFor(() => client.status === 'reconnecting')
    // a new host on the same port: the client finds it
    const again = new WebSocketServer({ host: '127.0.0.1', port: wsPort })
    cleanups.push(
      () =>
        new Promise<void>((r) => {
          for (const s of again.clients) s.terminate()
          again.close(() => r())
        })
    )
    again.on('connection', (s) => s.on('message', (raw) => answerSnapshot(JSON.parse(String(raw)), s)))
    await waitFor(() => client.status === 'open', 5_000)
    client.dispose()
    expect(client.status).toBe('closed')
    await waitFor(() => again.clients.size === 0)
    await new Promise((r) => setTimeout(r, 250))
    expect(again.clients.size).toBe(0)
    expect(statuses.at(-1)).toBe('closed')
    await expect(client.request('workspace.snapshot', {})).rejects.toMatchObject({ name: 'BridgeDisconnectedError' })
  })
})
