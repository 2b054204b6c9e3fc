import { describe, expect, it, vi } from 'vitest'
import type { PushChannel, WorkspaceApi } from '../../../shared/ipc'
import { snapshot } from '../store/store.testkit'
import { createPreloadClient } from './client'

/** A preload API whose pushes the test fires by hand, with whatever payload it likes. */
function rawApi(answer: unknown) {
  const listeners = new Map<string, Set<(p: unknown) => void>>()
  const api: WorkspaceApi & { fire(channel: PushChannel, payload: unknown): void; count(): number } = {
    request: vi.fn(async () => answer) as unknown as WorkspaceApi['request'],
    on(channel, listener) {
      let set = listeners.get(channel)
      if (!set) listeners.set(channel, (set = new Set()))
      const l = listener as (p: unknown) => void
      set.add(l)
      return () => set.delete(l)
    },
    fire: (channel, payload) => listeners.get(channel)?.forEach((l) => l(payload)),
    count: () => [...listeners.values()].reduce((n, s) => n + s.size, 0)
  }
  return api
}

describe('preload client', () => {
  it('validates what the preload delivers, like the WebSocket client', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined)
    const raw = rawApi(snapshot())
    const client = createPreloadClient(raw)
    expect(client.status).toBe('open')
    expect((await client.request('workspace.snapshot', {})).cwd).toBe('/work/demo')
    const got: unknown[] = []
    client.on('pane.data', (c) => got.push(c.chunk))
    client.on('runtime.event', (e) => got.push(e.type))
    raw.fire('pane.data', { agentId: 'a', data: 'x', chunk: 'one' })
    raw.fire('pane.data', { agentId: 'a', data: 'x', chunk: 1 })
    raw.fire('runtime.event', { type: 'newfangled', seq: 1, time: 't', agentId: 'a', agentName: 'a' })
    raw.fire('runtime.event', {
      type: 'notice',
      seq: 2,
      time: 't',
      agentId: 'a',
      agentName: 'a',
      level: 'info',
      message: 'm'
    })
    expect(got).toEqual([1, 'notice'])
    client.dispose()
    expect(raw.count()).toBe(0)
  })

  it('rejects a response that breaks the contract and a request it does not allow', async () => {
    const client = createPreloadClient(rawApi({ nope: true }))
    await expect(client.request('workspace.snapshot', {})).rejects.toThrow()
    await expect(client.request('leader.prompt', { text: '' })).rejects.toThrow()
  })
})
