import { beforeEach, describe, expect, it } from 'vitest'
import { selectDescendantCount, selectIsRunningSubagent, selectNestLevel, selectTileIds } from './selectors'
import { createAppStore } from './store'
import { ev, resetSeq, snapshot } from './store.testkit'

const started = (agentId: string, parentId: string, time: string) =>
  ev({ type: 'agent_started', agentId, agentName: agentId, agentType: 'general-purpose', parentId, depth: 1, time })

describe('panes slice and the pane tree selectors', () => {
  beforeEach(() => resetSeq())

  it('keeps 1,000 lines of pane scrollback until a snapshot names the setting, then follows the snapshot and Settings saves', () => {
    const store = createAppStore()
    expect(store.getState().panes.scrollbackLines).toBe(1_000)
    store.getState().loadPaneSettings(snapshot())
    expect(store.getState().panes.scrollbackLines).toBe(1_000)
    store.getState().loadPaneSettings(snapshot({ paneScrollbackLines: 5_000 }))
    expect(store.getState().panes.scrollbackLines).toBe(5_000)
    // a snapshot from a runtime that does not send it keeps what is known
    store.getState().loadPaneSettings(snapshot())
    expect(store.getState().panes.scrollbackLines).toBe(5_000)
    store.getState().setPaneScrollback(300)
    expect(store.getState().panes.scrollbackLines).toBe(300)
  })

  it('toggles a parent’s subagent panes away and back', () => {
    const store = createAppStore()
    store.getState().loadSnapshot(snapshot())
    store.getState().applyEvent(started('a-1', 'team-lead', '2026-01-01T00:00:01.000Z'))
    store.getState().applyEvent(started('a-2', 'a-1', '2026-01-01T00:00:02.000Z'))
    expect(selectTileIds(store.getState())).toEqual(['a-1', 'a-2'])
    expect(selectNestLevel('a-2')(store.getState())).toBe(1)
    expect(selectDescendantCount('team-lead')(store.getState())).toBe(2)
    store.getState().toggleCollapsed('a-1')
    expect(selectTileIds(store.getState())).toEqual(['a-1'])
    store.getState().toggleCollapsed('a-1')
    expect(selectTileIds(store.getState())).toEqual(['a-1', 'a-2'])
  })

  it('offers Background and Stop only while a subagent runs', () => {
    const store = createAppStore()
    store.getState().loadSnapshot(snapshot())
    const running = selectIsRunningSubagent('a-1')
    expect(running(store.getState())).toBe(false)
    store.getState().applyEvent(started('a-1', 'team-lead', '2026-01-01T00:00:01.000Z'))
    expect(running(store.getState())).toBe(true)
    store.getState().applyEvent(ev({ type: 'agent_state', agentId: 'a-1', agentName: 'a-1', state: 'running' }))
    expect(running(store.getState())).toBe(true)
    store.getState().applyEvent(ev({ type: 'agent_stopped', agentId: 'a-1', agentName: 'a-1', status: 'killed' }))
    expect(running(store.getState())).toBe(false)
    expect(selectIsRunningSubagent('team-lead')(store.getState())).toBe(false)
  })

  it("offers neither to a teammate's own subagents, however deep: the teammate's worker or process runs them", () => {
    const store = createAppStore()
    store.getState().loadSnapshot(snapshot())
    store.getState().applyEvent(started('alice@ops', 'team-lead', '2026-01-01T00:00:01.000Z'))
    store.getState().applyEvent(started('a-2', 'alice@ops', '2026-01-01T00:00:02.000Z'))
    store.getState().applyEvent(started('a-3', 'a-2', '2026-01-01T00:00:03.000Z'))
    store.getState().applyEvent(started('a-4', 'team-lead', '2026-01-01T00:00:04.000Z'))
    for (const id of ['alice@ops', 'a-2', 'a-3']) expect(selectIsRunningSubagent(id)(store.getState()), id).toBe(false)
    expect(selectIsRunningSubagent('a-4')(store.getState())).toBe(true)
  })

  it('keeps a failed request’s error until a later request succeeds or it is dismissed', () => {
    const store = createAppStore()
    store.getState().setAgentRequest('a-1', { pending: 'background' })
    expect(store.getState().panes.requests['a-1']).toEqual({ pending: 'background' })
    store.getState().setAgentRequest('a-1', { error: 'Agent a-1 already runs in the background.' })
    expect(store.getState().panes.requests['a-1']?.error).toMatch(/already runs in the background/)
    store.getState().setAgentRequest('a-1', {})
    expect(store.getState().panes.requests).toEqual({})
  })
})

describe('agent lifetimes', () => {
  beforeEach(() => resetSeq())

  it('records start and end from the event times, and how the run ended', () => {
    const store = createAppStore()
    store.getState().loadSnapshot(snapshot())
    store.getState().applyEvent(started('a-1', 'team-lead', '2026-01-01T00:00:01.000Z'))
    store.getState().applyEvent(
      ev({
        type: 'agent_stopped',
        agentId: 'a-1',
        agentName: 'a-1',
        status: 'killed',
        time: '2026-01-01T00:00:31.500Z'
      })
    )
    expect(store.getState().workspace.lifetimes['a-1']).toEqual({
      startedAt: Date.parse('2026-01-01T00:00:01.000Z'),
      endedAt: Date.parse('2026-01-01T00:00:31.500Z'),
      endStatus: 'killed'
    })
  })

  it('keeps known lifetimes across a resync for agents the new snapshot still lists, and knows none from a snapshot alone', () => {
    const store = createAppStore()
    store.getState().loadSnapshot(snapshot())
    store.getState().applyEvent(started('a-1', 'team-lead', '2026-01-01T00:00:01.000Z'))
    const agents = Object.values(store.getState().workspace.agents)
    store.getState().beginResync()
    store.getState().loadSnapshot(snapshot({ agents, lastSeq: 10 }))
    expect(store.getState().workspace.lifetimes['a-1']?.startedAt).toBe(Date.parse('2026-01-01T00:00:01.000Z'))
    const fresh = createAppStore()
    fresh.getState().loadSnapshot(snapshot({ agents }))
    expect(fresh.getState().workspace.lifetimes).toEqual({})
  })
})
