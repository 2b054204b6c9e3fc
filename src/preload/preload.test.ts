import { EventEmitter } from 'node:events'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import type { WorkspaceApi } from '../shared/ipc'

const fake = vi.hoisted(() => ({
  exposed: new Map<string, unknown>(),
  invoke: async (_channel: string, _payload: unknown): Promise<unknown> => ({ ok: true, result: undefined }),
  invoked: [] as Array<[string, unknown]>
}))

vi.mock('electron', async () => {
  const { EventEmitter } = await import('node:events')
  const ipcRenderer = Object.assign(new EventEmitter(), {
    invoke: (channel: string, payload: unknown) => {
      fake.invoked.push([channel, payload])
      return fake.invoke(channel, payload)
    }
  })
  return {
    ipcRenderer,
    contextBridge: { exposeInMainWorld: (key: string, value: unknown) => fake.exposed.set(key, value) }
  }
})

const { ipcRenderer } = (await import('electron')) as unknown as { ipcRenderer: EventEmitter }
await import('./index')
const api = fake.exposed.get('swarmdesk') as WorkspaceApi

beforeEach(() => {
  fake.invoked.length = 0
  ipcRenderer.removeAllListeners()
})

describe('the preload bridge', () => {
  it('exposes only request and on, never ipcRenderer', () => {
    expect([...fake.exposed.keys()]).toEqual(['swarmdesk'])
    expect(Object.keys(api).sort()).toEqual(['on', 'request'])
    expect(Object.values(api)).not.toContain(ipcRenderer)
    expect(Object.isFrozen(api)).toBe(true)
  })

  it('invokes a contract channel and resolves with the result', async () => {
    fake.invoke = async () => ({ ok: true, result: { ok: true } })
    await expect(api.request('leader.prompt', { text: 'hi' })).resolves.toEqual({ ok: true })
    expect(fake.invoked).toEqual([['leader.prompt', { text: 'hi' }]])
  })

  it('refuses channels outside the contract without sending anything', async () => {
    await expect(api.request('secrets.read' as never, {} as never)).rejects.toThrow(
      /Unknown request channel: secrets.read/
    )
    await expect(api.request('__proto__' as never, {} as never)).rejects.toThrow(TypeError)
    expect(fake.invoked).toEqual([])
  })

  it("rejects with main's error, name included", async () => {
    fake.invoke = async () => ({ ok: false, error: { name: 'IpcRequestError', message: 'The leader is busy' } })
    const error = await api.request('leader.prompt', { text: 'hi' }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(Error)
    expect(error).toMatchObject({ name: 'IpcRequestError', message: 'The leader is busy' })
  })

  it('rejects an answer that is not an IPC result', async () => {
    fake.invoke = async () => ({ sessionId: 'raw' })
    await expect(api.request('workspace.snapshot', {})).rejects.toMatchObject({ name: 'IpcProtocolError' })
  })

  it('hands listeners the payload only, never the IPC event', () => {
    const listener = vi.fn()
    api.on('pane.data', listener)
    const event = { sender: ipcRenderer }
    ipcRenderer.emit('pane.data', event, { agentId: 'a', data: 'x', chunk: 1 })
    expect(listener).toHaveBeenCalledExactlyOnceWith({ agentId: 'a', data: 'x', chunk: 1 })
  })

  it('stops delivering after unsubscribe, and unsubscribing twice is harmless', () => {
    const listener = vi.fn()
    const unsubscribe = api.on('runtime.event', listener)
    unsubscribe()
    unsubscribe()
    ipcRenderer.emit('runtime.event', {}, { seq: 1 })
    expect(listener).not.toHaveBeenCalled()
    expect(ipcRenderer.listenerCount('runtime.event')).toBe(0)
  })

  it('refuses to subscribe to unknown channels or with a non-function', () => {
    expect(() => api.on('ipc.anything' as never, () => undefined)).toThrow(/Unknown push channel/)
    expect(() => api.on('pane.data', 'x' as never)).toThrow(TypeError)
    expect(ipcRenderer.eventNames()).toEqual([])
  })
})
