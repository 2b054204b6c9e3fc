// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest'
import { act, createElement } from 'react'
import { createRoot, type Root } from 'react-dom/client'
import type { PushChannel, PushOf, RequestChannel, RequestOf, ResponseOf } from '../../../shared/ipc'
import type { ConnectionStatus, WorkspaceClient } from '../api/client'
import { App } from '../app/App'
import { installTestHook } from '../app/testHook'
import { paneRouter } from '../features/panes/paneRouter'
import { Emitter } from '../lib/lifecycle'
import { actions, appStore } from './store'
import { permission, snapshot } from './store.testkit'
import { wireClient } from './wiring'

/** A client the test drives: it answers requests from `answers` and records them. */
function fakeClient(answers: Partial<{ [C in RequestChannel]: (p: RequestOf<C>) => ResponseOf<C> }>) {
  const status = new Emitter<ConnectionStatus>()
  const reconnect = new Emitter<void>()
  const pushes = new Map<string, Emitter<unknown>>()
  const requests: Array<{ channel: string; payload: unknown }> = []
  const client: WorkspaceClient & {
    setStatus(s: ConnectionStatus): void
    reconnect(): void
    push<C extends PushChannel>(c: C, p: PushOf<C>): void
    requests: typeof requests
    listeners(): number
  } = {
    transport: 'websocket',
    status: 'open',
    async request(channel, payload) {
      requests.push({ channel, payload })
      const answer = answers[channel] as ((p: unknown) => unknown) | undefined
      if (!answer) throw new Error(`no answer for ${channel}`)
      return answer(payload) as never
    },
    on(channel, listener) {
      let e = pushes.get(channel)
      if (!e) pushes.set(channel, (e = new Emitter()))
      const d = e.event(listener as (v: unknown) => void)
      return () => d.dispose()
    },
    onDidChangeStatus: status.event,
    onDidReconnect: reconnect.event,
    dispose() {},
    setStatus(s) {
      ;(this as { status: ConnectionStatus }).status = s
      status.fire(s)
    },
    reconnect: () => reconnect.fire(),
    push: (c, p) => pushes.get(c)?.fire(p),
    requests,
    listeners: () => [...pushes.values()].reduce((n, e) => n + e.size, 0) + status.size + reconnect.size
  }
  return client
}

// React's act() warns unless the environment says it is a test.
;(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true

const flush = () => act(() => new Promise<void>((r) => setTimeout(r, 0)))

let root: Root | undefined
afterEach(() => {
  act(() => root?.unmount())
  root = undefined
  document.body.innerHTML = ''
})

describe('store wiring', () => {
  it('loads the snapshot, feeds pushes to the store and the panes, resyncs after a reconnect, and unwires completely', async () => {
    let snapshots = 0
    const client = fakeClient({
      'workspace.snapshot': () => (++snapshots, snapshot({ lastSeq: 1 })),
      'pane.scrollback': ({ agentId }) => ({
        agentId,
        data: `scrollback ${snapshots}\r\n`,
        chunk: 1,
        cols: 80,
        rows: 24
      }),
      'pane.resize': () => ({ ok: true }),
      'pane.mute': () => ({ ok: true })
    })
    const wiring = wireClient(client, actions, paneRouter)
    await flush()
    paneRouter.resize('alice@crew', { cols: 101, rows: 33 })
    expect(client.requests.filter((r) => r.channel === 'pane.resize')).toEqual([
      { channel: 'pane.resize', payload: { agentId: 'alice@crew', cols: 101, rows: 33 } }
    ])
    expect(appStore.getState().workspace.synced).toBe(true)
    expect(appStore.getState().connection).toMatchObject({ status: 'open', transport: 'websocket' })

    client.push('runtime.event', {
      type: 'agent_state',
      seq: 2,
      time: 't',
      agentId: 'team-lead',
      agentName: 'team-lead',
      state: 'running'
    })
    expect(appStore.getState().workspace.agents['team-lead'].state).toBe('running')
    client.push('permissions.changed', { permissions: [permission({ requestId: 'r1' })] })
    expect(appStore.getState().permissions.pending).toHaveLength(1)

    const got: string[] = []
    const reg = paneRouter.register('team-lead', {
      onData: (c) => got.push(c.data),
      onResync: () => got.push('resync'),
      text: () => ''
    })
    client.push('pane.data', { agentId: 'team-lead', data: 'hi', chunk: 2 })
    reg.setMuted(true)
    expect(client.requests.filter((r) => r.channel === 'pane.mute')).toEqual([
      { channel: 'pane.mute', payload: { agentId: 'team-lead', muted: true } }
    ])
    client.setStatus('reconnecting')
    expect(appStore.getState().connection.status).toBe('reconnecting')
    client.setStatus('open')
    client.reconnect()
    await flush()
    expect(snapshots).toBe(2)
    expect(got).toEqual(['hi', 'resync'])
    // the new connection may have got a mute queued while the link was down: unmuted, then muted again (this subscriber still wants none)
    expect(
      client.requests.filter((r) => r.channel === 'pane.mute').map((r) => (r.payload as { muted: boolean }).muted)
    ).toEqual([true, false, true])
    // no pane shows the agent any more: it stays muted, and output for an agent no pane shows mutes it
    reg.dispose()
    client.push('pane.data', { agentId: 'alice@crew', data: 'unseen', chunk: 1 })
    expect(client.requests.filter((r) => r.channel === 'pane.mute').map((r) => r.payload)).toEqual([
      { agentId: 'team-lead', muted: true },
      { agentId: 'team-lead', muted: false },
      { agentId: 'team-lead', muted: true },
      { agentId: 'alice@crew', muted: true }
    ])

    wiring.dispose()
    expect(client.listeners()).toBe(0)
    paneRouter.resize('alice@crew', { cols: 90, rows: 30 })
    expect(client.requests.filter((r) => r.channel === 'pane.resize')).toHaveLength(1)
    await expect(paneRouter.fetchScrollback('team-lead')).rejects.toThrow()
  })

  it('renders the workspace: pane text through the test hook, a permission answered from the keyboard, and no pane listener left after unmount', async () => {
    const client = fakeClient({
      'workspace.snapshot': () =>
        snapshot({
          lastSeq: 1,
          permissions: [permission({ requestId: 'r1', tool: 'Bash', input: { command: 'rm -rf build' } })]
        }),
      'pane.scrollback': ({ agentId }) => ({
        agentId,
        data: 'hello from the leader\r\n',
        chunk: 3,
        cols: 80,
        rows: 24
      }),
      'permission.respond': () => ({ ok: true }),
      'leader.prompt': () => ({ ok: true })
    })
    const wiring = wireClient(client, actions, paneRouter)
    const hook = installTestHook(window, paneRouter)
    expect((window as unknown as { __swarmdeskTest: unknown }).__swarmdeskTest).toBe(hook)
    const el = document.createElement('div')
    document.body.append(el)
    root = createRoot(el)
    await act(async () => root?.render(createElement(App)))
    await flush()

    await vi.waitFor(() => expect(hook.paneText('team-lead')).toBe('hello from the leader'))
    expect(hook.paneListeners()).toBe(1)
    expect(document.querySelector('.scripted-badge')?.textContent).toBe('scripted model')
    const cards = document.querySelectorAll('.perm-card')
    expect(cards).toHaveLength(2) // pinned to the pane and in the queue
    expect(cards[0].querySelector('.perm-command')?.textContent).toBe('$ rm -rf build')
    expect(document.querySelector('.btn-always')?.textContent).toContain('Bash(npm test:*)')

    await act(async () => window.dispatchEvent(new KeyboardEvent('keydown', { key: 'd' })))
    const reason = document.querySelector<HTMLTextAreaElement>('.perm-deny-reason')
    expect(reason).not.toBeNull()
    expect(document.activeElement).toBe(reason)
    await act(async () => actions.setDenyReason('too dangerous'))
    await act(async () => reason?.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true })))
    await flush()
    expect(client.requests.filter((r) => r.channel === 'permission.respond')).toEqual([
      { channel: 'permission.respond', payload: { requestId: 'r1', decision: 'deny', reason: 'too dangerous' } }
    ])

    act(() => root?.unmount())
    root = undefined
    expect(hook.paneListeners()).toBe(0)
    wiring.dispose()
  })
})
