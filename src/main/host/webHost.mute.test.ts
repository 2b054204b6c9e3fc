import { Terminal } from '@xterm/headless'
import { afterEach, describe, expect, it } from 'vitest'
import type { WebSocket } from 'ws'
import type { PaneScrollback } from '../../shared/ipc'
import { PANE_COLS, PANE_ROWS } from '../app/panes'
import { startHostFixture, type HostFixture } from './hostFixture.testkit'
import { FrameLog, openSocket, until } from './host.testkit'
import { paneWorkspace } from './paneWorkspace.testkit'
import type { BridgedService } from './types'

/** A page's side of the socket: numbered requests, the `pane.data` chunks it got, acknowledged as they arrive. */
function page(socket: WebSocket, options: { ack: boolean }) {
  const log = new FrameLog(socket)
  let id = 0
  const chunks = () =>
    log.frames
      .filter((f: any) => f.kind === 'push' && f.channel === 'pane.data')
      .map((f: any) => f.payload as { agentId: string; data: string; chunk: number })
  if (options.ack) {
    socket.on('message', (raw) => {
      const frame = JSON.parse(String(raw))
      const pushes = frame.kind === 'pushes' ? frame.pushes : frame.kind === 'push' ? [frame] : []
      const acks = pushes
        .filter((p: any) => p.channel === 'pane.data')
        .map((p: any) => ({ agentId: p.payload.agentId, chunk: p.payload.chunk }))
      if (acks.length > 0)
        socket.send(JSON.stringify({ kind: 'request', id: ++id, channel: 'pane.ack', payload: { acks } }))
    })
  }
  return {
    log,
    chunks,
    of: (agentId: string) => chunks().filter((c) => c.agentId === agentId),
    /** Sends a request without waiting; resolves its response frame. */
    request: (channel: string, payload: unknown) => {
      const mine = ++id
      socket.send(JSON.stringify({ kind: 'request', id: mine, channel, payload }))
      return log.next<any>((f) => f.kind === 'response' && f.id === mine)
    }
  }
}

const cleanups: Array<() => Promise<void> | void> = []
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c()
})

async function host(service: BridgedService): Promise<HostFixture> {
  const fx = await startHostFixture(service)
  cleanups.push(() => fx.dispose())
  return fx
}

async function connect(fx: HostFixture): Promise<WebSocket> {
  const attempt = await openSocket(fx.host.port, `/bridge?token=${fx.host.token}`)
  if (attempt.kind !== 'open') throw new Error(`bridge refused: ${attempt.status}`)
  cleanups.push(() => attempt.socket.terminate())
  return attempt.socket
}

/** The lines a terminal of main's pane size shows after `writes`, in order. */
async function screen(writes: string[]): Promise<string> {
  const terminal = new Terminal({ cols: PANE_COLS, rows: PANE_ROWS, scrollback: 10_000, allowProposedApi: true })
  for (const data of writes) await new Promise<void>((resolve) => terminal.write(data, resolve))
  const lines: string[] = []
  for (let i = 0; i < terminal.buffer.active.length; i++)
    lines.push(terminal.buffer.active.getLine(i)?.translateToString(true) ?? '')
  terminal.dispose()
  return lines.join('\n').trimEnd()
}

describe('web host bridge: a page mutes a pane (pane.mute)', () => {
  it("sends a muted socket none of the pane's chunks, and everything else to it and to other sockets", async () => {
    const ws = paneWorkspace(['p', 'q'], 20)
    cleanups.push(() => ws.dispose())
    const fx = await host(ws.service)
    const muting = page(await connect(fx), { ack: true })
    const other = page(await connect(fx), { ack: true })
    expect(await muting.request('pane.mute', { agentId: 'p', muted: true })).toMatchObject({
      ok: true,
      result: { ok: true }
    })
    ws.start()
    await until(() => ws.lines('p') >= 2000, 30_000, 'the agents write 2000 lines each')
    ws.stop()
    const last = (await other.request('pane.scrollback', { agentId: 'q' })).result.chunk as number
    await until(() => muting.of('q').at(-1)?.chunk === last, 10_000, 'every q chunk at the muting page')
    expect(muting.of('p')).toEqual([])
    expect(muting.of('q').map((c) => c.chunk)).toEqual(muting.of('q').map((_, i) => i + 1))
    for (const agentId of ['p', 'q']) {
      const got = other.of(agentId)
      expect(got.map((c) => c.chunk)).toEqual(got.map((_, i) => i + 1))
      expect(got.map((c) => c.data).join('')).toContain(`${agentId} line ${ws.lines(agentId)} `)
    }
  }, 60_000)

  it('does not hold the agents back for a page that muted the pane, while it still waits for it on its other panes', async () => {
    const ws = paneWorkspace(['p', 'q'], 200) // ~10 KB a write: 40,000 lines are ~2 MiB, past the 1 MiB high-water mark
    cleanups.push(() => ws.dispose())
    const fx = await host(ws.service)
    // both pages acknowledge what they get, so the batcher's flow control is on and the ledger places them by their acknowledgements
    const muting = page(await connect(fx), { ack: true })
    const other = page(await connect(fx), { ack: true })
    await muting.request('pane.mute', { agentId: 'p', muted: true })
    ws.start()
    await until(
      () => ws.lines('p') >= 40_000,
      30_000,
      'the agent writes 40,000 lines with a page open that muted its pane'
    )
    ws.stop()
    expect(muting.of('p')).toEqual([])
    expect(muting.of('q').length).toBeGreaterThan(0)
    await until(() => ws.batcher.totalUnackedBytes === 0, 10_000, 'both pages acknowledge everything they were sent')
    expect(
      other
        .of('p')
        .map((c) => c.data)
        .join('')
    ).toContain(`p line ${ws.lines('p')} `)
  }, 60_000)

  it('after an unmute and a scrollback sent back to back, continues the pane exactly where the scrollback ends', async () => {
    const ws = paneWorkspace(['p'], 5)
    cleanups.push(() => ws.dispose())
    const fx = await host(ws.service)
    const muting = page(await connect(fx), { ack: true })
    const other = page(await connect(fx), { ack: true })
    ws.start()
    await until(() => muting.of('p').length >= 20, 10_000, 'the pane flows to the page')
    await muting.request('pane.mute', { agentId: 'p', muted: true })
    const seenWhenMuted = muting.of('p').length
    const lastBeforeMute = muting.of('p').at(-1)!.chunk
    await until(() => (other.of('p').at(-1)?.chunk ?? 0) >= lastBeforeMute + 30, 10_000, 'the pane goes on while muted')
    expect(muting.of('p').length).toBe(seenWhenMuted)
    // as PaneOwner.restore does on show: unmute, then fetch, without waiting in between
    const unmuted = muting.request('pane.mute', { agentId: 'p', muted: false })
    const fetched = muting.request('pane.scrollback', { agentId: 'p' })
    expect((await unmuted).ok).toBe(true)
    const scrollback = (await fetched).result as PaneScrollback
    expect(scrollback.chunk).toBeGreaterThanOrEqual(lastBeforeMute + 30)
    const linesAtRestore = ws.lines('p')
    await until(() => ws.lines('p') >= linesAtRestore + 500, 10_000, 'the pane goes on after the restore')
    ws.stop()
    const final = (await other.request('pane.scrollback', { agentId: 'p' })).result.chunk as number
    await until(() => muting.of('p').at(-1)?.chunk === final, 10_000, 'every later chunk at the restored page')
    // what a restoring page applies: the scrollback, then the live chunks after its chunk, each once, in order
    const after = muting.of('p').filter((c) => c.chunk > scrollback.chunk)
    expect(after.length).toBeGreaterThan(10)
    expect(after.map((c) => c.chunk)).toEqual(
      Array.from({ length: final - scrollback.chunk }, (_, i) => scrollback.chunk + i + 1)
    )
    const restored = await screen([scrollback.data, ...after.map((c) => c.data)])
    const reference = await screen(other.of('p').map((c) => c.data))
    expect(restored).toBe(reference)
    expect(reference).toContain(`p line ${ws.lines('p')} `)
  }, 60_000)

  it('answers a malformed mute with an error naming what is wrong', async () => {
    const ws = paneWorkspace([], 1)
    cleanups.push(() => ws.dispose())
    const fx = await host(ws.service)
    const muting = page(await connect(fx), { ack: false })
    const answer = await muting.request('pane.mute', { agentId: '', muted: 'yes' })
    expect(answer).toMatchObject({ ok: false })
    expect(answer.error.message).toMatch(/agentId/)
    expect(answer.error.message).toMatch(/muted/)
  })
})
