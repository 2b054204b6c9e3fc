// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { act, createElement } from 'react'
import { createRoot, type Root } from 'react-dom/client'
import type { TeamTransportView } from '../../../../shared/teamConnection'
import { setCommandApi } from '../../store/commands'
import { actions, appStore } from '../../store/store'
import { agentView, ev, resetSeq, snapshot } from '../../store/store.testkit'
import { initialWorkspace } from '../../store/workspaceSlice'
import { paneRouter } from '../panes/paneRouter'
import { PaneGrid } from '../panes/PaneGrid'
import { Dashboard } from './Dashboard'

;(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true

// The team's transport and a lost connection on the dashboard and the pane headers (docs/ui.md#team-dashboard).

let root: Root | undefined
const NATS = (state: 'connected' | 'disconnected' | 'reconnecting' | 'closed'): TeamTransportView => ({
  kind: 'nats',
  servers: ['nats://10.0.0.5:4222'],
  state
})

async function render(): Promise<void> {
  const el = document.createElement('div')
  document.body.append(el)
  root = createRoot(el)
  await act(async () => root?.render(createElement('div', null, createElement(Dashboard), createElement(PaneGrid))))
}

const memberState = (id: string) =>
  document.querySelector<HTMLElement>(`li.member-row[data-agent-id="${id}"] [data-testid="member-state"]`)!
const paneState = (id: string) =>
  document.querySelector<HTMLElement>(`section.pane[data-agent-id="${id}"] [data-testid="pane-state"]`)!
const transport = () => document.querySelector<HTMLElement>('[data-testid="team-transport"]')!
const shown = (id: string) => [memberState(id).textContent, memberState(id).dataset.state, paneState(id).textContent]

/** A team "demo": the leader idle, alice running, bob crashed before anything happened to the connection. */
function loadTeam(teamTransport: TeamTransportView | undefined): void {
  actions.loadSnapshot(
    snapshot({
      team: 'demo',
      ...(teamTransport ? { teamTransport } : {}),
      agents: [
        agentView({ agentId: 'team-lead', agentType: 'leader' }),
        agentView({
          agentId: 'alice@demo',
          agentName: 'alice',
          depth: 1,
          parentId: 'team-lead',
          backend: 'process',
          state: 'running'
        }),
        agentView({
          agentId: 'bob@demo',
          agentName: 'bob',
          depth: 1,
          parentId: 'team-lead',
          backend: 'worker',
          state: 'crashed'
        })
      ]
    })
  )
}

beforeEach(() => {
  resetSeq()
  appStore.setState({ workspace: initialWorkspace() })
  paneRouter.setScrollbackFetcher(async (agentId) => ({ agentId, data: '', chunk: 0, cols: 80, rows: 24 }))
})
afterEach(() => {
  act(() => root?.unmount())
  root = undefined
  document.body.innerHTML = ''
  paneRouter.setScrollbackFetcher(undefined)
  setCommandApi(undefined)
})

describe('the team transport on the dashboard', () => {
  it('says files for a team on files (a snapshot without a transport too), and shows each state as it is', async () => {
    loadTeam(undefined)
    await render()
    expect(transport().dataset.kind).toBe('files')
    expect(transport().textContent).toBe('fileson this machine')
    expect(shown('alice@demo')).toEqual(['running', 'running', 'running'])
    expect(shown('bob@demo')).toEqual(['crashed', 'crashed', 'crashed'])
  })

  it('on a server: its URL and state; while the connection is lost every member still running shows "connection lost", and its state again once it is back', async () => {
    loadTeam(NATS('connected'))
    await render()
    expect(transport().dataset.kind).toBe('nats')
    expect(transport().textContent).toBe('NATSnats://10.0.0.5:4222connected')
    expect(transport().classList.contains('lost')).toBe(false)
    expect(shown('team-lead')).toEqual(['idle', 'idle', 'idle'])
    expect(shown('alice@demo')).toEqual(['running', 'running', 'running'])

    for (const state of ['disconnected', 'reconnecting'] as const) {
      await act(async () => actions.setTeamTransport(NATS(state)))
      expect(transport().dataset.state).toBe(state)
      expect(transport().classList.contains('lost')).toBe(true)
      expect(transport().querySelector('[data-testid="team-transport-state"]')?.textContent).toMatch(/^connection lost/)
      for (const id of ['team-lead', 'alice@demo']) {
        expect(shown(id)).toEqual(['connection lost', 'connection_lost', 'connection lost'])
        expect(memberState(id).className).toBe('pane-state state-connection_lost end-none')
        expect(memberState(id).title).toContain('nats://10.0.0.5:4222')
        expect(document.querySelector<HTMLElement>(`li.member-row[data-agent-id="${id}"]`)!.dataset.state).toBe(
          'connection_lost'
        )
      }
      expect(memberState('alice@demo').title).toContain('the last state known was running')
      // one that had ended keeps its end
      expect(shown('bob@demo')).toEqual(['crashed', 'crashed', 'crashed'])
    }
    // events go on arriving meanwhile (the leader's own turn): the label stays until the server is back
    await act(async () =>
      actions.applyEvent(ev({ type: 'agent_state', agentId: 'team-lead', agentName: 'team-lead', state: 'running' }))
    )
    expect(shown('team-lead')).toEqual(['connection lost', 'connection_lost', 'connection lost'])

    await act(async () => actions.setTeamTransport(NATS('connected')))
    expect(transport().classList.contains('lost')).toBe(false)
    expect(shown('team-lead')).toEqual(['running', 'running', 'running'])
    expect(shown('alice@demo')).toEqual(['running', 'running', 'running'])
    // alice reaped as vanished once the server was back: crashed, not "connection lost", not idle
    await act(async () =>
      actions.applyEvent(ev({ type: 'agent_stopped', agentId: 'alice@demo', agentName: 'alice', status: 'crashed' }))
    )
    expect(shown('alice@demo')).toEqual(['crashed', 'crashed', 'crashed'])
  })

  it('shows nothing lost without a team: the leader alone keeps its state', async () => {
    actions.loadSnapshot(snapshot({ teamTransport: NATS('reconnecting') }))
    await render()
    expect(transport().classList.contains('lost')).toBe(true)
    expect(memberState('team-lead').textContent).toBe('idle')
  })
})
