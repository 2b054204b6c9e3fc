import { beforeEach, describe, expect, it } from 'vitest'
import { TEAM_COLOR_HEX } from './colors'
import {
  selectCurrentTask,
  selectIsRunningSubagent,
  selectIsTeammate,
  selectPaneParentId,
  selectTileIds
} from './selectors'
import { createAppStore } from './store'
import { agentView, ev, resetSeq, snapshot } from './store.testkit'

const started = (name: string, backend: 'worker' | 'process', color = 'green') =>
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
const state = (name: string, s: 'running' | 'idle' | 'awaiting_permission' | 'awaiting_plan_approval') =>
  ev({ type: 'agent_state', agentId: `${name}@demo`, agentName: name, state: s })
const taskUpdated = (task: Record<string, unknown>, by = 'team-lead') =>
  ev({ type: 'task_updated', agentId: by, agentName: by, task })

describe('teammates in the workspace store', () => {
  beforeEach(() => resetSeq())

  it('tracks a teammate from its events: backend, team colour, state and current task', () => {
    const store = createAppStore()
    store.getState().loadSnapshot(snapshot())
    const { applyEvent } = store.getState()
    applyEvent(started('alice', 'worker'))
    expect(store.getState().workspace.agents['alice@demo']).toMatchObject({
      backend: 'worker',
      color: TEAM_COLOR_HEX.green,
      state: 'starting'
    })
    expect(selectIsTeammate('alice@demo')(store.getState())).toBe(true)

    applyEvent(state('alice', 'running'))
    applyEvent(taskUpdated({ id: 3, subject: 'Fix the parser', status: 'pending' }))
    expect(selectCurrentTask('alice@demo')(store.getState())).toBeUndefined()
    applyEvent(taskUpdated({ id: 3, subject: 'Fix the parser', owner: 'alice', status: 'in_progress' }, 'alice'))
    expect(selectCurrentTask('alice@demo')(store.getState())).toMatchObject({ id: '3', subject: 'Fix the parser' })

    applyEvent(state('alice', 'awaiting_permission'))
    expect(store.getState().workspace.agents['alice@demo'].state).toBe('awaiting_permission')
    applyEvent(taskUpdated({ id: 3, subject: 'Fix the parser', owner: 'alice', status: 'completed' }, 'alice'))
    applyEvent(state('alice', 'idle'))
    expect(selectCurrentTask('alice@demo')(store.getState())).toBeUndefined()
    expect(store.getState().workspace.agents['alice@demo'].state).toBe('idle')
  })

  it('returns the same current task object until a task changes, so React selectors stay stable', () => {
    const store = createAppStore()
    store.getState().loadSnapshot(snapshot())
    store.getState().applyEvent(started('alice', 'worker'))
    store.getState().applyEvent(taskUpdated({ id: 1, subject: 's', owner: 'alice', status: 'in_progress' }))
    const first = selectCurrentTask('alice@demo')(store.getState())
    store.getState().applyEvent(state('alice', 'running'))
    expect(selectCurrentTask('alice@demo')(store.getState())).toBe(first)
  })

  it('takes backend, colour and current task from the snapshot, and a later task change over the snapshot’s', () => {
    const store = createAppStore()
    const bob = agentView({
      agentId: 'bob@demo',
      agentName: 'bob',
      parentId: 'team-lead',
      depth: 1,
      state: 'running',
      backend: 'process',
      color: TEAM_COLOR_HEX.cyan,
      currentTask: { id: '2', subject: 'Write docs' }
    })
    store.getState().loadSnapshot(snapshot({ agents: [agentView({ agentId: 'team-lead' }), bob], lastSeq: 10 }))
    expect(store.getState().workspace.agents['bob@demo']).toMatchObject({
      backend: 'process',
      color: TEAM_COLOR_HEX.cyan
    })
    expect(selectCurrentTask('bob@demo')(store.getState())).toEqual({ id: '2', subject: 'Write docs' })
    store.getState().applyEvent(
      ev({
        seq: 11,
        type: 'task_updated',
        agentId: 'bob@demo',
        agentName: 'bob',
        task: { id: 2, subject: 'Write docs', owner: 'bob', status: 'completed' }
      })
    )
    expect(selectCurrentTask('bob@demo')(store.getState())).toBeUndefined()
    // a resync starts over from the snapshot, which already reflects every event up to its lastSeq
    store.getState().beginResync()
    store.getState().loadSnapshot(
      snapshot({
        agents: [agentView({ agentId: 'team-lead' }), { ...bob, currentTask: { id: '4', subject: 'Next' } }],
        lastSeq: 12
      })
    )
    expect(selectCurrentTask('bob@demo')(store.getState())).toEqual({ id: '4', subject: 'Next' })
  })

  it('keeps the snapshot’s backend and colour when a restart event omits them', () => {
    const store = createAppStore()
    store.getState().loadSnapshot(
      snapshot({
        agents: [agentView({ agentId: 'bob@demo', agentName: 'bob', backend: 'process', color: '#123456', depth: 1 })]
      })
    )
    store
      .getState()
      .applyEvent(
        ev({ type: 'agent_started', agentId: 'bob@demo', agentName: 'bob', agentType: 'general-purpose', depth: 1 })
      )
    expect(store.getState().workspace.agents['bob@demo']).toMatchObject({ backend: 'process', color: '#123456' })
  })

  it('falls back to the id colour for an unknown colour name', () => {
    const store = createAppStore()
    store.getState().loadSnapshot(snapshot())
    store.getState().applyEvent(started('carol', 'worker', 'chartreuse'))
    expect(store.getState().workspace.agents['carol@demo'].color).toMatch(/^#[0-9a-f]{6}$/)
  })

  it('tiles teammates beside the leader instead of nesting them under it, and nests their own subagents', () => {
    const store = createAppStore()
    store.getState().loadSnapshot(snapshot())
    const { applyEvent } = store.getState()
    applyEvent(
      ev({
        type: 'agent_started',
        agentId: 'a1',
        agentName: 'Explore',
        agentType: 'Explore',
        parentId: 'team-lead',
        depth: 1
      })
    )
    applyEvent(started('alice', 'worker'))
    applyEvent(started('bob', 'process', 'blue'))
    applyEvent(
      ev({
        type: 'agent_started',
        agentId: 'a2',
        agentName: 'Explore',
        agentType: 'Explore',
        parentId: 'alice@demo',
        depth: 2
      })
    )
    const s = store.getState()
    expect(selectTileIds(s)).toEqual(['a1', 'alice@demo', 'a2', 'bob@demo'])
    expect(selectPaneParentId('alice@demo')(s)).toBeUndefined()
    expect(selectPaneParentId('a2')(s)).toBe('alice@demo')
    expect(selectPaneParentId('a1')(s)).toBe('team-lead')
    store.getState().toggleCollapsed('team-lead')
    expect(selectTileIds(store.getState())).toEqual(['alice@demo', 'a2', 'bob@demo'])
  })

  it('offers no subagent Stop/Background on a teammate pane', () => {
    const store = createAppStore()
    store.getState().loadSnapshot(snapshot())
    store.getState().applyEvent(started('alice', 'worker'))
    store.getState().applyEvent(state('alice', 'running'))
    expect(selectIsRunningSubagent('alice@demo')(store.getState())).toBe(false)
  })
})
