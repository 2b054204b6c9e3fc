import { afterEach, describe, expect, it } from 'vitest'
import type { WebSocket } from 'ws'
import type { PushChannel } from '../../shared/ipc'
import { toDisposable } from '../runtime/base/disposable'
import { TerminalEventThinner } from '../app/eventThinner'
import { PaneBatcher } from '../app/paneBatcher'
import { startHostFixture, type HostFixture } from './hostFixture.testkit'
import { closed, FrameLog, openSocket, until } from './host.testkit'
import type { BridgedService } from './types'

/**
 * The workspace's pane pipeline as the bridge sees it: agents writing through the real
 * PaneBatcher (a PTY per pane that stops while paused, as node-pty's pause does), numbered
 * `pane.data` pushes, `tool_output` runtime events for the same bytes pushed as the service
 * pushes them (thinned: eventThinner.ts), and `pane.ack` handed to the batcher.
 */
function paneWorkspace(options: { panes: number; bytesPerPane: number; writeBytes: number }) {
  const listeners = new Set<(channel: PushChannel, payload: unknown) => void>()
  const push = (channel: PushChannel, payload: unknown) => {
    for (const l of [...listeners]) l(channel, payload)
  }
  const chunks = new Map<string, number>()
  const paused = new Set<string>()
  let pauses = 0
  let seq = 0
  const thinner = new TerminalEventThinner()
  const batcher = new PaneBatcher({
    flush: (agentId, data) => {
      const chunk = (chunks.get(agentId) ?? 0) + 1
      chunks.set(agentId, chunk)
      push('pane.data', { agentId, data, chunk })
      return chunk
    },
    pause: (agentId) => {
      pauses++
      paused.add(agentId)
    },
    resume: (agentId) => paused.delete(agentId)
  })
  const produced = new Map<string, string[]>()
  const ids = Array.from({ length: options.panes }, (_, i) => `agent-${i}`)
  let line = 0
  let timer: ReturnType<typeof setInterval> | undefined
  const produce = () => {
    for (const agentId of ids) {
      const parts = produced.get(agentId) ?? []
      produced.set(agentId, parts)
      const sent = parts.reduce((n, p) => n + p.length, 0)
      if (paused.has(agentId) || sent >= options.bytesPerPane) continue
      let data = ''
      while (data.length < options.writeBytes)
        data += `\x1b[3${line % 8}m${agentId} line ${line++}\x1b[0m ${'x'.repeat(60)}\r\n`
      parts.push(data)
      batcher.write(agentId, data)
      seq++
      const event = thinner.thin({
        seq,
        type: 'tool_output',
        time: new Date().toISOString(),
        agentId,
        agentName: agentId,
        toolUseId: 't1',
        data
      })
      if (event) push('runtime.event', event)
    }
  }
  const service: BridgedService = {
    handle: async (channel, payload) => {
      if (channel !== 'pane.ack')
        throw Object.assign(new Error(`unknown channel '${channel}'`), { name: 'IpcRequestError' })
      for (const { agentId, chunk } of (payload as { acks: Array<{ agentId: string; chunk: number }> }).acks)
        batcher.ack(agentId, chunk)
      return { ok: true }
    },
    onPush: (listener) => {
      listeners.add(listener)
      return toDisposable(() => listeners.delete(listener))
    }
  }
  return {
    service,
    batcher,
    ids,
    get pauses() {
      return pauses
    },
    /** Starts the agents writing (once the pages are connected: they see output from then on). */
    start: () => void (timer ??= setInterval(produce, 2)),
    /** Everything written for the pane, once its producer is done. */
    text: (agentId: string) => (produced.get(agentId) ?? []).join(''),
    done: () => ids.every((id) => (produced.get(id) ?? []).reduce((n, p) => n + p.length, 0) >= options.bytesPerPane),
    dispose: () => {
      if (timer !== undefined) clearInterval(timer)
      batcher.dispose()
    }
  }
}

/**
 * A page that takes `bytesPerSecond` of pane output (its parser), acknowledging what it has taken
 * every 50 ms as the renderer's router does; `stall()` stops it reading the socket at all.
 */
function slowPage(socket: WebSocket, bytesPerSecond: number) {
  const received = new Map<string, string>()
  const queue: Array<{ agentId: string; data: string; chunk: number }> = []
  const lastChunk = new Map<string, number>()
  let gaps = 0
  let events = 0
  let eventBytes = 0
  let id = 1
  const take = (frame: { channel: string; payload: any }) => {
    if (frame.channel === 'runtime.event') {
      events++
      eventBytes += String(frame.payload.data ?? '').length
    }
    if (frame.channel !== 'pane.data') return
    const { agentId, chunk } = frame.payload
    if (chunk !== (lastChunk.get(agentId) ?? 0) + 1) gaps++
    lastChunk.set(agentId, chunk)
    queue.push(frame.payload)
  }
  socket.on('message', (raw) => {
    const frame = JSON.parse(String(raw))
    if (frame.kind === 'push') take(frame)
    else if (frame.kind === 'pushes') for (const push of frame.pushes) take(push)
  })
  const tick = setInterval(() => {
    let budget = bytesPerSecond / 20
    const acks = new Map<string, number>()
    while (queue.length > 0 && budget > 0) {
      const c = queue.shift()!
      budget -= c.data.length
      received.set(c.agentId, (received.get(c.agentId) ?? '') + c.data)
      acks.set(c.agentId, c.chunk)
    }
    if (acks.size > 0)
      socket.send(
        JSON.stringify({
          kind: 'request',
          id: id++,
          channel: 'pane.ack',
          payload: { acks: [...acks].map(([agentId, chunk]) => ({ agentId, chunk })) }
        })
      )
  }, 50)
  return {
    text: (agentId: string) => received.get(agentId) ?? '',
    get gaps() {
      return gaps
    },
    get events() {
      return events
    },
    get eventBytes() {
      return eventBytes
    },
    stall: () => socket.pause(),
    unstall: () => socket.resume(),
    dispose: () => clearInterval(tick)
  }
}

const cleanups: Array<() => Promise<void> | void> = []
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c()
})

async function host(
  service: BridgedService,
  bridge: { stuckClientMs?: number; log?: (line: string) => void } = {}
): Promise<HostFixture> {
  const fx = await startHostFixture(service, { bridge })
  cleanups.push(() => fx.dispose())
  return fx
}

async function connect(fx: HostFixture): Promise<WebSocket> {
  const attempt = await openSocket(fx.host.port, `/bridge?token=${fx.host.token}`)
  if (attempt.kind !== 'open') throw new Error(`bridge refused: ${attempt.status}`)
  cleanups.push(() => attempt.socket.terminate())
  return attempt.socket
}

describe('web host bridge backpressure over a real WebSocket', () => {
  it('delivers every byte in order to a page that reads slowly, and to one that stops reading for seconds, holding the agents back instead of queueing', async () => {
    const MiB = 1 << 20
    // Agents far faster than the page (32 KiB per pane every 2 ms), so only backpressure can hold them.
    const ws = paneWorkspace({ panes: 4, bytesPerPane: 4 * MiB, writeBytes: 32 << 10 })
    cleanups.push(() => ws.dispose())
    const log: string[] = []
    const fx = await host(ws.service, { log: (line) => log.push(line) })
    const socket = await connect(fx)
    const page = slowPage(socket, 2 * MiB) // 16 MiB at 2 MB/s: at least 8 s
    cleanups.push(() => page.dispose())
    let maxQueued = 0
    let maxUnacked = 0
    const sampler = setInterval(() => {
      maxQueued = Math.max(maxQueued, fx.host.queuedBytes())
      maxUnacked = Math.max(maxUnacked, ws.batcher.totalUnackedBytes)
    }, 5)
    cleanups.push(() => clearInterval(sampler))
    // A page that reads nothing for 3 s (a long task, a debugger): it is neither cut nor flooded.
    page.stall()
    ws.start()
    await new Promise((r) => setTimeout(r, 3000))
    expect(socket.readyState).toBe(socket.OPEN)
    page.unstall()
    await until(
      () => ws.done() && ws.ids.every((id) => page.text(id).length === ws.text(id).length),
      60_000,
      'every byte at the page'
    )
    for (const id of ws.ids) expect(page.text(id) === ws.text(id)).toBe(true)
    expect(page.gaps).toBe(0)
    expect(socket.readyState).toBe(socket.OPEN)
    expect(log).toEqual([])
    // The agents were held back, and what waited in main stayed within the batcher's window
    // (2 MiB over all panes, plus the chunks already flushed when the pause came), not 16 MiB.
    expect(ws.pauses).toBeGreaterThan(0)
    expect(maxUnacked).toBeLessThan(8 * MiB)
    expect(maxQueued).toBeLessThan(8 * MiB)
    // The tool_output events (thinned by the service) repeated none of those bytes.
    expect(page.eventBytes).toBe(0)
    expect(page.events).toBeGreaterThan(0)
    expect(page.events).toBeLessThan(4 * 30)
  }, 90_000)

  it('makes the agents wait for the slower of two pages, and lets them go as soon as it closes', async () => {
    const MiB = 1 << 20
    const ws = paneWorkspace({ panes: 2, bytesPerPane: 4 * MiB, writeBytes: 16 << 10 })
    cleanups.push(() => ws.dispose())
    const fx = await host(ws.service)
    const fast = slowPage(await connect(fx), 64 * MiB)
    const slowSocket = await connect(fx)
    const slow = slowPage(slowSocket, 1 * MiB)
    cleanups.push(
      () => fast.dispose(),
      () => slow.dispose()
    )
    ws.start()
    let maxQueued = 0
    const sampler = setInterval(() => (maxQueued = Math.max(maxQueued, fx.host.queuedBytes())), 5)
    cleanups.push(() => clearInterval(sampler))
    await new Promise((r) => setTimeout(r, 2500))
    // 2.5 s at 1 MB/s: the fast page got little more than the slow one took plus the window.
    const fastBytes = ws.ids.reduce((n, id) => n + fast.text(id).length, 0)
    const slowBytes = ws.ids.reduce((n, id) => n + slow.text(id).length, 0)
    expect(fastBytes).toBeLessThan(slowBytes + 6 * MiB)
    expect(ws.done()).toBe(false)
    slowSocket.close()
    await until(
      () => ws.done() && ws.ids.every((id) => fast.text(id).length === ws.text(id).length),
      30_000,
      'every byte at the fast page'
    )
    for (const id of ws.ids) {
      expect(fast.text(id) === ws.text(id)).toBe(true)
      expect(ws.text(id).startsWith(slow.text(id))).toBe(true)
    }
    expect(fast.gaps + slow.gaps).toBe(0)
    expect(maxQueued).toBeLessThan(12 * MiB)
  }, 60_000)

  it('cuts off, with a log line, only a client that reads nothing for the stuck time, and the agents go on', async () => {
    const MiB = 1 << 20
    const ws = paneWorkspace({ panes: 2, bytesPerPane: 8 * MiB, writeBytes: 16 << 10 })
    cleanups.push(() => ws.dispose())
    const log: string[] = []
    const fx = await host(ws.service, { stuckClientMs: 1500, log: (line) => log.push(line) })
    const socket = await connect(fx)
    const page = slowPage(socket, 64 * MiB)
    cleanups.push(() => page.dispose())
    page.stall()
    ws.start()
    await until(() => ws.pauses > 0, 10_000, 'the agents held back by the stalled page')
    await until(() => log.length > 0, 20_000, 'the stuck client cut off')
    page.unstall() // a paused client only notices the cut once it reads again
    expect(await closed(socket)).toBe(1006)
    expect(log).toHaveLength(1)
    expect(log[0]).toMatch(/cut off a client that has read nothing for \d+ s/)
    // Nobody left to wait for: the agents finish their output.
    await until(() => ws.done(), 30_000, 'the agents finish once the stuck client is gone')
  }, 60_000)
})

describe('web host bridge frames', () => {
  it("sends the pushes of one batcher tick as one frame: busy panes share frames, and each pane's chunks arrive in order", async () => {
    const ws = paneWorkspace({ panes: 8, bytesPerPane: 256 << 10, writeBytes: 2 << 10 })
    cleanups.push(() => ws.dispose())
    const fx = await host(ws.service)
    const socket = await connect(fx)
    const log = new FrameLog(socket)
    ws.start()
    const received = () =>
      log.frames.filter((f: any) => f.channel === 'pane.data') as Array<{
        payload: { agentId: string; data: string; chunk: number }
      }>
    await until(
      () =>
        ws.done() &&
        ws.ids.every(
          (id) =>
            received()
              .filter((f) => f.payload.agentId === id)
              .reduce((n, f) => n + f.payload.data.length, 0) === ws.text(id).length
        ),
      30_000,
      'every byte at the client'
    )
    for (const id of ws.ids) {
      const mine = received().filter((f) => f.payload.agentId === id)
      expect(mine.map((f) => f.payload.chunk)).toEqual(mine.map((_, i) => i + 1))
      expect(mine.map((f) => f.payload.data).join('') === ws.text(id)).toBe(true)
    }
    // frames that carried pane output, and how many pushes each carried on average
    const carrying = log.received.filter(
      (f: any) =>
        (f.kind === 'push' && f.channel === 'pane.data') ||
        (f.kind === 'pushes' && f.pushes.some((p: any) => p.channel === 'pane.data'))
    )
    expect(carrying.some((f: any) => f.kind === 'pushes')).toBe(true)
    expect(received().length / carrying.length).toBeGreaterThan(4)
  })

  it('sends a response after the pushes the service made before answering', async () => {
    const listeners = new Set<(channel: PushChannel, payload: unknown) => void>()
    const service: BridgedService = {
      handle: async (channel) => {
        for (const l of listeners) l('permissions.changed', { permissions: [] })
        return { answered: channel }
      },
      onPush: (listener) => {
        listeners.add(listener)
        return toDisposable(() => listeners.delete(listener))
      }
    }
    const fx = await host(service)
    const socket = await connect(fx)
    const log = new FrameLog(socket)
    socket.send(JSON.stringify({ kind: 'request', id: 1, channel: 'workspace.snapshot', payload: {} }))
    await log.next((f) => f.kind === 'response' && f.id === 1)
    expect(log.received.map((f: any) => f.kind)).toEqual(['push', 'response'])
  })
})
