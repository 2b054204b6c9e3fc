import { beforeEach, describe, expect, it } from 'vitest'
import type { RuntimeEvent } from '../../../shared/events'
import { selectBusy, selectTeammateIds } from './selectors'
import { createAppStore } from './store'
import { agentView, ev, resetSeq, snapshot } from './store.testkit'

const usage = (agentId: string, n: number, costUsd?: number) =>
  ev({
    type: 'usage',
    agentId,
    agentName: agentId,
    inputTokens: n,
    outputTokens: 2 * n,
    cacheCreationInputTokens: 3 * n,
    cacheReadInputTokens: 4 * n,
    costUsd
  })

describe('workspace slice', () => {
  beforeEach(() => resetSeq())

  it('takes every field of the snapshot', () => {
    const store = createAppStore()
    store.getState().loadSnapshot(snapshot({ mode: 'acceptEdits', costUsd: 0.5, lastSeq: 7 }))
    const ws = store.getState().workspace
    expect(ws).toMatchObject({
      synced: true,
      sessionId: 's-1',
      cwd: '/work/demo',
      mode: 'acceptEdits',
      scripted: true,
      costUsd: 0.5,
      lastSeq: 7
    })
    expect(ws.agentOrder).toEqual(['team-lead'])
  })

  it("keeps the scenario's suggested prompt, and learns that the leader began from the snapshot, a prompt sent, the person's prompt or the leader running", () => {
    const store = createAppStore()
    store.getState().loadSnapshot(snapshot({ suggestedPrompt: 'Fix the tests', leaderStarted: false }))
    expect(store.getState().workspace).toMatchObject({ suggestedPrompt: 'Fix the tests', leaderStarted: false })
    // a teammate's prompt or state says nothing of the leader
    store.getState().applyEvent(ev({ type: 'user_prompt', agentId: 'alice@t', agentName: 'alice', text: 'hi' }))
    store.getState().applyEvent(ev({ type: 'agent_state', agentId: 'alice@t', agentName: 'alice', state: 'running' }))
    expect(store.getState().workspace.leaderStarted).toBe(false)
    store
      .getState()
      .applyEvent(ev({ type: 'user_prompt', agentId: 'team-lead', agentName: 'team-lead', text: 'Fix the tests' }))
    expect(store.getState().workspace.leaderStarted).toBe(true)

    const woken = createAppStore()
    woken.getState().loadSnapshot(snapshot({ leaderStarted: false }))
    woken
      .getState()
      .applyEvent(ev({ type: 'agent_state', agentId: 'team-lead', agentName: 'team-lead', state: 'running' }))
    expect(woken.getState().workspace.leaderStarted).toBe(true)

    const sending = createAppStore()
    sending.getState().loadSnapshot(snapshot({ leaderStarted: false }))
    sending.getState().setPromptInFlight(true)
    expect(sending.getState().workspace.leaderStarted).toBe(true)

    const reloaded = createAppStore()
    reloaded.getState().loadSnapshot(snapshot({ leaderStarted: true }))
    expect(reloaded.getState().workspace).toMatchObject({ leaderStarted: true })
    expect(reloaded.getState().workspace.suggestedPrompt).toBeUndefined()
  })

  it('adds an agent on agent_started and follows its state until it stops', () => {
    const store = createAppStore()
    store.getState().loadSnapshot(snapshot())
    const { applyEvent } = store.getState()
    applyEvent(
      ev({
        type: 'agent_started',
        agentId: 'a-1',
        agentName: 'researcher',
        agentType: 'Explore',
        depth: 1,
        parentId: 'team-lead',
        model: 'claude-haiku-4-5'
      })
    )
    expect(store.getState().workspace.agents['a-1']).toMatchObject({
      agentName: 'researcher',
      state: 'starting',
      model: 'claude-haiku-4-5',
      parentId: 'team-lead'
    })
    expect(store.getState().workspace.agents['a-1'].color).toMatch(/^#[0-9a-f]{6}$/)
    applyEvent(ev({ type: 'agent_state', agentId: 'a-1', agentName: 'researcher', state: 'running' }))
    expect(store.getState().workspace.agents['a-1'].state).toBe('running')
    applyEvent(ev({ type: 'agent_stopped', agentId: 'a-1', agentName: 'researcher', status: 'completed' }))
    expect(store.getState().workspace.agents['a-1'].state).toBe('exited')
    expect(selectTeammateIds(store.getState())).toEqual(['a-1'])
  })

  it('marks a crashed agent as crashed', () => {
    const store = createAppStore()
    store.getState().loadSnapshot(snapshot({ agents: [agentView({ agentId: 'w' })] }))
    store.getState().applyEvent(ev({ type: 'agent_stopped', agentId: 'w', agentName: 'w', status: 'crashed' }))
    expect(store.getState().workspace.agents.w.state).toBe('crashed')
  })

  it('sums usage events into the agent and the workspace, with their cost', () => {
    const store = createAppStore()
    store.getState().loadSnapshot(
      snapshot({
        usage: { inputTokens: 1, outputTokens: 1, cacheCreationInputTokens: 1, cacheReadInputTokens: 1 },
        costUsd: 0.25
      })
    )
    store.getState().applyEvent(usage('team-lead', 10, 0.5))
    store.getState().applyEvent(usage('team-lead', 1))
    const ws = store.getState().workspace
    expect(ws.usage).toEqual({
      inputTokens: 12,
      outputTokens: 23,
      cacheCreationInputTokens: 34,
      cacheReadInputTokens: 45
    })
    expect(ws.costUsd).toBeCloseTo(0.75)
    expect(ws.agents['team-lead'].usage.outputTokens).toBe(22)
    expect(ws.agents['team-lead'].costUsd).toBeCloseTo(0.5)
  })

  it('ignores events of unknown types', () => {
    const store = createAppStore()
    store.getState().loadSnapshot(snapshot())
    const before = store.getState().workspace.agents
    store.getState().applyEvent({
      type: 'from_the_future',
      seq: 1,
      time: '',
      agentId: 'team-lead',
      agentName: 'x',
      state: 'crashed'
    } as unknown as RuntimeEvent)
    expect(store.getState().workspace.agents).toEqual(before)
  })

  it('buffers events until the snapshot and replays only those it does not include', () => {
    const store = createAppStore()
    const { applyEvent } = store.getState()
    applyEvent(ev({ seq: 5, type: 'agent_started', agentId: 'old', agentName: 'old', agentType: 't', depth: 1 }))
    applyEvent(ev({ seq: 6, type: 'agent_started', agentId: 'new', agentName: 'new', agentType: 't', depth: 1 }))
    expect(store.getState().workspace.agents).toEqual({})
    store.getState().loadSnapshot(snapshot({ lastSeq: 5 }))
    expect(Object.keys(store.getState().workspace.agents).sort()).toEqual(['new', 'team-lead'])
    // an event the snapshot already reflects changes nothing
    applyEvent(ev({ seq: 4, type: 'agent_state', agentId: 'team-lead', agentName: 'team-lead', state: 'crashed' }))
    expect(store.getState().workspace.agents['team-lead'].state).toBe('idle')
  })

  it('goes back to buffering during a resync', () => {
    const store = createAppStore()
    store.getState().loadSnapshot(snapshot())
    store.getState().beginResync()
    store
      .getState()
      .applyEvent(ev({ seq: 9, type: 'agent_state', agentId: 'team-lead', agentName: 'team-lead', state: 'running' }))
    expect(store.getState().workspace.agents['team-lead'].state).toBe('idle')
    store.getState().loadSnapshot(snapshot({ lastSeq: 8 }))
    expect(store.getState().workspace.agents['team-lead'].state).toBe('running')
  })

  it('shows an agent whose start it missed once it reports a state', () => {
    const store = createAppStore()
    store.getState().loadSnapshot(snapshot({ agents: [] }))
    store
      .getState()
      .applyEvent(ev({ type: 'agent_state', agentId: 'team-lead', agentName: 'team-lead', state: 'running' }))
    expect(store.getState().workspace.agents['team-lead']).toMatchObject({ agentType: 'main', state: 'running' })
    expect(selectBusy(store.getState())).toBe(true)
  })

  it('is not busy when the leader has only announced itself', () => {
    const store = createAppStore()
    store.getState().loadSnapshot(snapshot({ agents: [] }))
    store
      .getState()
      .applyEvent(
        ev({ type: 'agent_started', agentId: 'team-lead', agentName: 'team-lead', agentType: 'main', depth: 0 })
      )
    expect(selectBusy(store.getState())).toBe(false)
  })

  it('derives busy from the leader state, a prompt in flight, or the snapshot when the leader is unknown', () => {
    const store = createAppStore()
    store.getState().loadSnapshot(snapshot({ agents: [], busy: true }))
    expect(selectBusy(store.getState())).toBe(true)
    store.getState().loadSnapshot(snapshot())
    expect(selectBusy(store.getState())).toBe(false)
    store.getState().setPromptInFlight(true)
    expect(selectBusy(store.getState())).toBe(true)
    store.getState().setPromptInFlight(false)
    store
      .getState()
      .applyEvent(
        ev({ type: 'agent_state', agentId: 'team-lead', agentName: 'team-lead', state: 'awaiting_permission' })
      )
    expect(selectBusy(store.getState())).toBe(true)
    store
      .getState()
      .applyEvent(ev({ type: 'agent_state', agentId: 'team-lead', agentName: 'team-lead', state: 'idle' }))
    expect(selectBusy(store.getState())).toBe(false)
  })

  it('keeps the orchestration mode from the snapshot and from a switch, and locks it at the first prompt', () => {
    const store = createAppStore()
    store.getState().loadSnapshot(snapshot())
    expect(store.getState().workspace.orchestration).toBeUndefined()
    store.getState().loadSnapshot(snapshot({ orchestration: { fork: true, coordinator: false, switchable: true } }))
    expect(store.getState().workspace.orchestration).toEqual({ fork: true, coordinator: false, switchable: true })
    store.getState().setOrchestration({ fork: false, coordinator: true, switchable: true })
    expect(store.getState().workspace.orchestration).toEqual({ fork: false, coordinator: true, switchable: true })
    store.getState().setPromptInFlight(true)
    store.getState().setPromptInFlight(false)
    expect(store.getState().workspace.orchestration).toEqual({ fork: false, coordinator: true, switchable: false })
  })
})
