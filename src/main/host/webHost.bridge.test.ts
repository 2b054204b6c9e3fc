import { execFileSync } from 'node:child_process'
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { PushChannel } from '../../shared/ipc'
import { WorkspaceService } from '../app/service'
import { startHostFixture, type HostFixture } from './hostFixture.testkit'
import { closed, FrameLog, openSocket } from './host.testkit'
import type { BridgedService } from './types'

let root: string
let service: WorkspaceService
/** Push subscriptions the host holds on the real service right now. */
let liveSubscriptions = 0
let fx: HostFixture

/** The real service, with its push subscriptions counted (a spy, not a stand-in). */
function counted(real: WorkspaceService): BridgedService {
  return {
    handle: (channel, payload) => real.handle(channel, payload),
    onPush: (listener: (channel: PushChannel, payload: unknown) => void) => {
      liveSubscriptions++
      const sub = real.onPush(listener)
      let live = true
      return {
        dispose() {
          if (live) liveSubscriptions--
          live = false
          sub.dispose()
        }
      }
    }
  }
}

beforeAll(async () => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'swarmdesk-bridge-')))
  const cwd = join(root, 'repo')
  execFileSync('git', ['init', '-q', cwd])
  writeFileSync(
    join(root, 'scenario.json'),
    JSON.stringify({ agents: { 'team-lead': [{ text: 'Hello from the scripted leader.' }] } })
  )
  service = await WorkspaceService.start({
    cwd,
    home: join(root, 'home'),
    scenario: join(root, 'scenario.json'),
    env: {}
  })
  fx = await startHostFixture(counted(service))
})
afterAll(async () => {
  await fx?.dispose()
  await service?.dispose()
  rmSync(root, { recursive: true, force: true })
})

async function connect() {
  const attempt = await openSocket(fx.host.port, `/bridge?token=${fx.host.token}`)
  if (attempt.kind !== 'open') throw new Error(`bridge refused: ${attempt.status}`)
  return { socket: attempt.socket, log: new FrameLog(attempt.socket) }
}

describe('web host bridge over a real workspace', () => {
  it('answers a request frame with the service result under the same id', async () => {
    const { socket, log } = await connect()
    socket.send(JSON.stringify({ kind: 'request', id: 7, channel: 'workspace.snapshot', payload: {} }))
    const answer = await log.next<any>((f) => f.kind === 'response' && f.id === 7)
    expect(answer).toMatchObject({
      kind: 'response',
      id: 7,
      ok: true,
      result: { scripted: true, busy: false, cwd: join(root, 'repo') }
    })
    socket.close()
  })

  it('pushes the leader run to every open socket', async () => {
    const a = await connect()
    const b = await connect()
    a.socket.send(JSON.stringify({ kind: 'request', id: 1, channel: 'leader.prompt', payload: { text: 'Say hello.' } }))
    expect(await a.log.next((f) => f.kind === 'response' && f.id === 1)).toMatchObject({
      ok: true,
      result: { ok: true }
    })
    const said = (f: any) =>
      f.kind === 'push' &&
      f.channel === 'runtime.event' &&
      f.payload.type === 'assistant_text' &&
      f.payload.text === 'Hello from the scripted leader.'
    for (const { log } of [a, b]) {
      await log.next(said)
      await log.next(
        (f) =>
          f.kind === 'push' &&
          f.channel === 'pane.data' &&
          f.payload.agentId === 'team-lead' &&
          String(f.payload.data).includes('Hello from the scripted leader.')
      )
    }
    expect(b.log.frames.some((f: any) => f.kind === 'response')).toBe(false)
    await service.whenIdle()
    a.socket.close()
    b.socket.close()
  })

  it("answers the service's refusals and bad frames as error responses that keep their name", async () => {
    const { socket, log } = await connect()
    socket.send(JSON.stringify({ kind: 'request', id: 2, channel: 'no.such.channel', payload: {} }))
    socket.send(JSON.stringify({ kind: 'request', id: 3, channel: 'leader.prompt', payload: { text: '' } }))
    socket.send(JSON.stringify({ kind: 'response', id: 4, ok: true, result: 1 }))
    socket.send(JSON.stringify({ kind: 'request', id: 5 }))
    expect(await log.next((f) => f.id === 2)).toMatchObject({
      kind: 'response',
      ok: false,
      error: { name: 'IpcRequestError', message: expect.stringContaining('no.such.channel') }
    })
    expect(await log.next((f) => f.id === 3)).toMatchObject({
      kind: 'response',
      ok: false,
      error: { name: 'IpcRequestError' }
    })
    expect(await log.next((f) => f.id === 4)).toMatchObject({
      kind: 'response',
      ok: false,
      error: { name: 'BridgeFrameError' }
    })
    expect(await log.next((f) => f.id === 5)).toMatchObject({
      kind: 'response',
      ok: false,
      error: { name: 'BridgeFrameError' }
    })
    expect(socket.readyState).toBe(socket.OPEN)
    socket.close()
  })

  it('passes a pane size to the workspace, and answers a bad one with what is allowed', async () => {
    const { socket, log } = await connect()
    const resize = (id: number, payload: object) =>
      socket.send(JSON.stringify({ kind: 'request', id, channel: 'pane.resize', payload }))
    resize(1, { agentId: 'team-lead', cols: 132, rows: 43 })
    resize(2, { agentId: 'team-lead', cols: 0, rows: 43 })
    resize(3, { agentId: 'team-lead', cols: 80, rows: 9999 })
    resize(4, { agentId: 'team-lead', cols: 80.5, rows: 24 })
    resize(5, { agentId: 'team-lead', cols: '80', rows: 24 })
    resize(6, { agentId: '', cols: 80, rows: 24 })
    expect(await log.next((f) => f.id === 1)).toMatchObject({ kind: 'response', ok: true, result: { ok: true } })
    const refusal = async (id: number, message: RegExp) =>
      expect(await log.next((f) => f.id === id)).toMatchObject({
        kind: 'response',
        ok: false,
        error: { name: 'IpcRequestError', message: expect.stringMatching(message) }
      })
    await refusal(2, /Bad payload for 'pane\.resize': cols: cols must be at least 1/)
    await refusal(3, /rows: rows must be at most 1000/)
    await refusal(4, /cols: cols must be a whole number of columns/)
    await refusal(5, /cols: .*number/)
    await refusal(6, /agentId: /)
    socket.close()
  })

  it('closes a socket that sends something other than JSON, or a frame with no id, with 1008', async () => {
    const a = await connect()
    a.socket.send('not json')
    expect(await closed(a.socket)).toBe(1008)
    const b = await connect()
    b.socket.send(JSON.stringify({ kind: 'request', channel: 'workspace.snapshot' }))
    expect(await closed(b.socket)).toBe(1008)
  })

  it('holds one push subscription for all sockets and releases it on close()', async () => {
    const a = await connect()
    const b = await connect()
    expect(liveSubscriptions).toBe(1)
    await fx.host.close()
    expect(liveSubscriptions).toBe(0)
    expect(await closed(a.socket)).toBe(1006)
    expect(await closed(b.socket)).toBe(1006)
    // The service outlives the host: its owner disposes it.
    expect(await service.handle('workspace.snapshot', {})).toMatchObject({ busy: false })
  })
})
