// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { act, createElement } from 'react'
import { createRoot, type Root } from 'react-dom/client'
import type { RequestChannel, RequestOf, WorkspaceApi } from '../../../../shared/ipc'
import { TEAM_COLOR_HEX } from '../../store/colors'
import { setCommandApi } from '../../store/commands'
import { actions, appStore } from '../../store/store'
import { agentView, ev, permission, resetSeq, snapshot } from '../../store/store.testkit'
import { initialWorkspace } from '../../store/workspaceSlice'
import { PermissionQueue } from '../permissions/PermissionQueue'
import { PaneGrid } from './PaneGrid'
import { paneRouter } from './paneRouter'

;(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true

let root: Root | undefined

async function render(component: () => ReturnType<typeof createElement>): Promise<void> {
  const el = document.createElement('div')
  document.body.append(el)
  root = createRoot(el)
  await act(async () => root?.render(component()))
}

const pane = (agentId: string) => document.querySelector<HTMLElement>(`section.pane[data-agent-id="${agentId}"]`)!
const started = (name: string, backend: 'worker' | 'process', color: string) =>
  ev({
    type: 'agent_started',
    agentId: `${name}@demo`,
    agentName: name,
    agentType: 'general-purpose',
    parentId: 'team-lead',
    depth: 1,
    backend,
    color
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

describe('teammate panes', () => {
  it('tiles each teammate beside the leader with its colour, name, backend, state and task in the header', async () => {
    actions.loadSnapshot(snapshot())
    actions.applyEvent(started('alice', 'worker', 'green'))
    actions.applyEvent(started('bob', 'process', 'blue'))
    actions.applyEvent(
      ev({
        type: 'task_updated',
        agentId: 'alice@demo',
        agentName: 'alice',
        task: {
          id: 3,
          subject: 'Make the parser accept trailing commas in every list',
          owner: 'alice',
          status: 'in_progress'
        }
      })
    )
    await render(() => createElement(PaneGrid))

    const tiles = [...document.querySelectorAll<HTMLElement>('.pane-tiles > section.pane')]
    expect(tiles.map((t) => t.dataset.agentId)).toEqual(['alice@demo', 'bob@demo'])
    for (const t of tiles) {
      expect(t.classList.contains('pane-teammate')).toBe(true)
      expect(t.classList.contains('pane-sub')).toBe(false)
    }
    const alice = pane('alice@demo')
    expect(alice.style.getPropertyValue('--agent-color')).toBe(TEAM_COLOR_HEX.green)
    expect(alice.dataset.backend).toBe('worker')
    expect(alice.querySelector('.pane-name')?.textContent).toBe('alice')
    expect(alice.querySelector('[data-testid="pane-backend"]')?.textContent).toBe('worker')
    expect(pane('bob@demo').querySelector('[data-testid="pane-backend"]')?.classList.contains('backend-process')).toBe(
      true
    )
    const chip = alice.querySelector<HTMLElement>('[data-testid="pane-task"]')!
    expect(chip.textContent).toBe('#3 Make the parser accept trailing commas in every list')
    expect(chip.title).toBe('#3 Make the parser accept trailing commas in every list')
    expect(pane('bob@demo').querySelector('[data-testid="pane-task"]')).toBeNull()
    // no subagent controls on a teammate, and collapsing the leader does not hide teammates
    expect(alice.querySelector('.pane-actions')).toBeNull()
    expect([...alice.querySelectorAll('.pane-head button')].map((b) => b.getAttribute('aria-label'))).toEqual([
      "Move alice's pane",
      "Maximise alice's pane",
      "Hide alice's pane"
    ])
    // a teammate's pane has its input line
    expect(alice.querySelector<HTMLInputElement>('input.pane-input-field')?.getAttribute('aria-label')).toBe(
      'Message to alice'
    )
    expect(document.querySelector('.pane-toggle')).toBeNull()
  })

  it('marks the state label per state: amber waiting for a permission, violet for a plan, dim idle, red crashed', async () => {
    actions.loadSnapshot(snapshot())
    actions.applyEvent(started('alice', 'worker', 'green'))
    await render(() => createElement(PaneGrid))
    const label = () => pane('alice@demo').querySelector<HTMLElement>('[data-testid="pane-state"]')!
    const seen: Array<[string, string, boolean]> = []
    for (const s of ['idle', 'awaiting_permission', 'awaiting_plan_approval', 'crashed'] as const) {
      await act(async () =>
        actions.applyEvent(ev({ type: 'agent_state', agentId: 'alice@demo', agentName: 'alice', state: s }))
      )
      seen.push([label().className, label().textContent ?? '', pane('alice@demo').classList.contains('attention')])
    }
    expect(seen).toEqual([
      ['pane-state state-idle end-none', 'idle', false],
      ['pane-state state-awaiting_permission end-none attention', 'needs permission', true],
      ['pane-state state-awaiting_plan_approval end-none attention', 'needs plan approval', true],
      ['pane-state state-crashed end-none', 'crashed', false]
    ])
    expect(pane('alice@demo').dataset.state).toBe('crashed')
  })

  it('shows the current task from the snapshot after a reload', async () => {
    actions.loadSnapshot(
      snapshot({
        agents: [
          agentView({ agentId: 'team-lead' }),
          agentView({
            agentId: 'bob@demo',
            agentName: 'bob',
            depth: 1,
            parentId: 'team-lead',
            backend: 'process',
            currentTask: { id: '12', subject: 'Docs' }
          })
        ]
      })
    )
    await render(() => createElement(PaneGrid))
    expect(pane('bob@demo').querySelector('[data-testid="pane-task"]')?.textContent).toBe('#12 Docs')
  })
})

describe('teammate permission bubbles', () => {
  function recordingApi(): WorkspaceApi & { sent: Array<RequestOf<RequestChannel>> } {
    const sent: Array<RequestOf<RequestChannel>> = []
    return {
      sent,
      async request(_channel, payload) {
        sent.push(payload)
        return { ok: true } as never
      },
      on: () => () => undefined
    }
  }

  it('tags a teammate’s request with its colour dot and name, on its pane and in the queue', async () => {
    actions.loadSnapshot(snapshot())
    actions.applyEvent(started('alice', 'worker', 'purple'))
    actions.setPermissions([permission({ requestId: 'r1', agentId: 'alice@demo', agentName: 'alice' })])
    await render(() => createElement('div', null, createElement(PaneGrid), createElement(PermissionQueue)))
    const cards = [...document.querySelectorAll<HTMLElement>('section.perm-card[data-agent-id="alice@demo"]')]
    expect(cards.map((c) => c.dataset.placement).sort()).toEqual(['pane', 'queue'])
    expect(pane('alice@demo').querySelector('section.perm-card')).not.toBeNull()
    for (const card of cards) {
      const badge = card.querySelector<HTMLElement>('[data-testid="agent-badge"]')!
      expect(badge.textContent).toBe('alice')
      expect(badge.title).toBe('alice@demo')
      expect(badge.style.getPropertyValue('--agent-color')).toBe(TEAM_COLOR_HEX.purple)
      expect(badge.querySelector('.agent-dot')).not.toBeNull()
      expect(card.getAttribute('aria-label')).toBe('Permission request from alice: Bash')
    }
  })

  it('shows a plan approval as a readable plan with Approve plan / Reject, wired to allow and deny with feedback', async () => {
    const api = recordingApi()
    setCommandApi(api)
    actions.loadSnapshot(snapshot())
    actions.applyEvent(started('alice', 'worker', 'green'))
    actions.setPermissions([
      permission({
        requestId: 'p1',
        agentId: 'alice@demo',
        agentName: 'alice',
        tool: 'ExitPlanMode',
        input: { plan: '## Plan\n1. Read the parser\n2. Fix it' },
        suggestions: ['ExitPlanMode']
      })
    ])
    await render(() => createElement(PermissionQueue))
    const card = document.querySelector<HTMLElement>('section.perm-card')!
    expect(card.dataset.kind).toBe('plan')
    expect(card.getAttribute('aria-label')).toBe('Plan approval request from alice')
    expect(card.querySelector('[data-testid="perm-plan"]')?.textContent).toBe('## Plan1. Read the parser2. Fix it')
    expect(card.querySelector('.plan-heading')?.textContent).toBe('## Plan')
    const buttons = () => [...card.querySelectorAll('button.btn')].map((b) => b.textContent)
    expect(buttons()).toEqual(['Approve plan A', 'Reject D'])
    expect(card.querySelector('.btn-always')).toBeNull()

    // Shift+A never always-allows a plan
    await act(async () => window.dispatchEvent(new KeyboardEvent('keydown', { key: 'A', shiftKey: true })))
    expect(api.sent).toEqual([])

    await act(async () => card.querySelector<HTMLButtonElement>('.btn-deny')!.click())
    const field = card.querySelector<HTMLTextAreaElement>('textarea')!
    expect(field.getAttribute('aria-label')).toBe('Feedback on the plan')
    expect(buttons()[0]).toBe('Confirm reject Enter')
    await act(async () => actions.setDenyReason('Add a test first'))
    await act(async () => card.querySelector<HTMLButtonElement>('.btn-deny')!.click())
    expect(api.sent).toEqual([{ requestId: 'p1', decision: 'deny', reason: 'Add a test first' }])
  })

  it('approves a plan as an allow', async () => {
    const api = recordingApi()
    setCommandApi(api)
    actions.loadSnapshot(snapshot())
    actions.setPermissions([
      permission({
        requestId: 'p2',
        agentId: 'alice@demo',
        agentName: 'alice',
        tool: 'ExitPlanMode',
        input: { plan: 'Do it.' },
        suggestions: []
      })
    ])
    await render(() => createElement(PermissionQueue))
    await act(async () => document.querySelector<HTMLButtonElement>('.btn-allow')!.click())
    expect(api.sent).toEqual([{ requestId: 'p2', decision: 'allow' }])
  })
})
