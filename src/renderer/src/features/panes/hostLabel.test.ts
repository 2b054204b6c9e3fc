// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { act, createElement } from 'react'
import { createRoot, type Root } from 'react-dom/client'
import type { RequestChannel, RequestOf, WorkspaceApi } from '../../../../shared/ipc'
import { setCommandApi } from '../../store/commands'
import { actions, appStore } from '../../store/store'
import { ev, resetSeq, snapshot } from '../../store/store.testkit'
import { initialWorkspace } from '../../store/workspaceSlice'
import { Dashboard } from '../dashboard/Dashboard'
import { SpawnForm } from '../dashboard/SpawnForm'
import { PaneGrid } from './PaneGrid'
import { paneRouter } from './paneRouter'

// Which host a teammate runs on (docs/hosts.md): its pane header and its dashboard row say so.

;(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true

let root: Root | undefined

async function render(component: () => ReturnType<typeof createElement>): Promise<void> {
  const el = document.createElement('div')
  document.body.append(el)
  root = createRoot(el)
  await act(async () => root?.render(component()))
}

const started = (name: string, host?: string) =>
  ev({
    type: 'agent_started',
    agentId: `${name}@demo`,
    agentName: name,
    agentType: 'general-purpose',
    parentId: 'team-lead',
    depth: 1,
    backend: 'process',
    color: 'blue',
    ...(host ? { host } : {})
  })

beforeEach(() => {
  resetSeq()
  appStore.setState({
    workspace: initialWorkspace(),
    permissions: { pending: [], focusedId: undefined, deny: undefined, responding: {} }
  })
  paneRouter.setScrollbackFetcher(async (agentId) => ({ agentId, data: '', chunk: 0, cols: 80, rows: 24 }))
})

afterEach(() => {
  act(() => root?.unmount())
  root = undefined
  document.body.innerHTML = ''
  paneRouter.setScrollbackFetcher(undefined)
  setCommandApi(undefined)
})

describe('a teammate on another host', () => {
  it("names its host in its pane's header and its dashboard row; a local one names none", async () => {
    actions.loadSnapshot(snapshot())
    appStore.getState().setTeam('demo')
    actions.applyEvent(started('ann', 'buildbox'))
    actions.applyEvent(started('bob'))
    expect(appStore.getState().workspace.agents['ann@demo']?.host).toBe('buildbox')
    await render(() => createElement('div', null, createElement(PaneGrid), createElement(Dashboard)))
    const badge = (name: string) =>
      document.querySelector<HTMLElement>(`section.pane[data-agent-id="${name}@demo"] [data-testid="pane-backend"]`)!
    expect(badge('ann').textContent).toBe('process on buildbox')
    expect(badge('ann').title).toMatch(/on host buildbox over SSH/)
    expect(badge('bob').textContent).toBe('process')
    const rows = [...document.querySelectorAll<HTMLElement>('[data-testid="member-backend"]')].map((e) => e.textContent)
    expect(rows).toContain('process on buildbox')
    expect(rows).toContain('process')
  })

  it("is spawned from the dashboard's form on a host of the setting, as a process teammate", async () => {
    const sent: Array<{ channel: RequestChannel; payload: RequestOf<RequestChannel> }> = []
    const api: WorkspaceApi = {
      async request(channel, payload) {
        sent.push({ channel, payload })
        return { name: 'ann', agentId: 'ann@demo', backend: 'process' } as never
      },
      on: () => () => undefined
    }
    setCommandApi(api)
    actions.loadSnapshot(snapshot())
    appStore.getState().setTeam('demo')
    actions.setSpawnOptions({
      agentTypes: [{ name: 'general-purpose', description: 'g' }],
      defaultBackend: 'worker',
      hosts: ['buildbox', 'gpu'],
      team: 'demo'
    })
    await render(() => createElement(SpawnForm))
    const hostSelect = document.querySelector<HTMLSelectElement>('select[aria-label="Host"]')!
    expect([...hostSelect.options].map((o) => o.textContent)).toEqual(['here', 'buildbox (over SSH)', 'gpu (over SSH)'])
    const change = (el: HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement, value: string) => {
      const proto = Object.getPrototypeOf(el) as object
      Object.getOwnPropertyDescriptor(proto, 'value')!.set!.call(el, value)
      el.dispatchEvent(new Event(el instanceof HTMLSelectElement ? 'change' : 'input', { bubbles: true }))
    }
    await act(async () => change(hostSelect, 'gpu'))
    const backend = document.querySelector<HTMLSelectElement>('select[aria-label="Backend"]')!
    expect(backend.disabled).toBe(true)
    expect(backend.value).toBe('process')
    await act(async () => change(document.querySelector<HTMLInputElement>('input[aria-label="Teammate name"]')!, 'ann'))
    await act(async () => change(document.querySelector<HTMLTextAreaElement>('form textarea')!, 'Build it there.'))
    await act(async () => {
      document.querySelector<HTMLFormElement>('form.spawn-form')!.requestSubmit()
    })
    expect(sent.find((s) => s.channel === 'teammate.spawn')?.payload).toMatchObject({
      name: 'ann',
      prompt: 'Build it there.',
      host: 'gpu'
    })
  })
})
