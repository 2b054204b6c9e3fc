import { beforeEach, describe, expect, it } from 'vitest'
import { isStuck, selectMemberIds } from '../features/dashboard/selectors'
import { createAppStore } from './store'
import { ev, resetSeq, snapshot } from './store.testkit'

/** Both halves of what `actions.applyEvent` does in the app (store.ts). */
function apply(store: ReturnType<typeof createAppStore>, e: ReturnType<typeof ev>): void {
  store.getState().applyEvent(e)
  store.getState().noteDashboardEvent(e)
}

describe('dashboard slice', () => {
  beforeEach(() => resetSeq())

  it("keeps each agent's last message: its last assistant text, or what its last SendMessage said and to whom", () => {
    const store = createAppStore()
    apply(
      store,
      ev({ type: 'assistant_text', agentId: 'alice@docs', agentName: 'alice', text: 'Reading\n  the   sources.' })
    )
    expect(store.getState().dashboard.activity['alice@docs']?.lastMessage).toEqual({ text: 'Reading the sources.' })
    apply(
      store,
      ev({
        type: 'tool_call',
        agentId: 'alice@docs',
        agentName: 'alice',
        toolUseId: 't1',
        name: 'SendMessage',
        input: { to: 'bob', message: 'long text', summary: 'page done' }
      })
    )
    expect(store.getState().dashboard.activity['alice@docs']?.lastMessage).toEqual({ text: 'page done', to: 'bob' })
    apply(
      store,
      ev({
        type: 'tool_call',
        agentId: 'alice@docs',
        agentName: 'alice',
        toolUseId: 't2',
        name: 'SendMessage',
        input: { to: 'team-lead', message: { type: 'shutdown_response', approve: false, reason: 'still writing' } }
      })
    )
    expect(store.getState().dashboard.activity['alice@docs']?.lastMessage).toEqual({
      text: 'declined to shut down: still writing',
      to: 'team-lead'
    })
    // another tool call is activity, not speech
    apply(
      store,
      ev({
        type: 'tool_call',
        agentId: 'alice@docs',
        agentName: 'alice',
        toolUseId: 't3',
        name: 'Read',
        input: { file_path: 'a' }
      })
    )
    expect(store.getState().dashboard.activity['alice@docs']?.lastMessage?.text).toBe(
      'declined to shut down: still writing'
    )
  })

  it('takes the context used from the last request only: input plus cache reads and writes', () => {
    const store = createAppStore()
    const usage = (n: number) =>
      ev({
        type: 'usage',
        agentId: 'bob@docs',
        agentName: 'bob',
        inputTokens: n,
        outputTokens: 999,
        cacheReadInputTokens: 2 * n,
        cacheCreationInputTokens: 3 * n,
        model: 'claude-haiku-4-5'
      })
    apply(store, usage(1000))
    apply(store, usage(10))
    expect(store.getState().dashboard.activity['bob@docs']).toMatchObject({
      contextTokens: 60,
      contextModel: 'claude-haiku-4-5'
    })
  })

  it('stamps the time of every event an agent produces, and an older event never overwrites a newer one', () => {
    const store = createAppStore()
    apply(
      store,
      ev({
        seq: 5,
        time: '2026-01-01T00:05:00.000Z',
        type: 'agent_state',
        agentId: 'bob@docs',
        agentName: 'bob',
        state: 'running'
      })
    )
    apply(
      store,
      ev({
        seq: 3,
        time: '2026-01-01T00:01:00.000Z',
        type: 'assistant_text',
        agentId: 'bob@docs',
        agentName: 'bob',
        text: 'old'
      })
    )
    expect(store.getState().dashboard.activity['bob@docs']).toMatchObject({
      lastEventAt: '2026-01-01T00:05:00.000Z',
      seq: 5
    })
    expect(store.getState().dashboard.activity['bob@docs']?.lastMessage).toBeUndefined()
  })

  it("merges a snapshot's activity, keeping records newer than it, and takes its stuck setting", () => {
    const store = createAppStore()
    apply(store, ev({ seq: 9, type: 'assistant_text', agentId: 'alice@docs', agentName: 'alice', text: 'newer' }))
    const snap = snapshot({
      lastSeq: 8,
      team: 'docs',
      stuckAfterMinutes: 0.02,
      activity: {
        'alice@docs': { lastEventAt: '2026-01-01T00:00:00.000Z', seq: 7, lastMessage: { text: 'older' } },
        'bob@docs': { lastEventAt: '2026-01-01T00:00:00.000Z', seq: 8, lastMessage: { text: 'from the snapshot' } }
      }
    })
    store.getState().loadSnapshot(snap)
    store.getState().loadDashboard(snap)
    const d = store.getState().dashboard
    expect(d.activity['alice@docs']?.lastMessage?.text).toBe('newer')
    expect(d.activity['bob@docs']?.lastMessage?.text).toBe('from the snapshot')
    expect(d.stuckAfterMinutes).toBe(0.02)
    expect(d.team).toBe('docs')
  })

  it("follows the session's team through the leader's successful TeamCreate and TeamDelete", () => {
    const store = createAppStore()
    store.getState().loadDashboard(snapshot())
    apply(
      store,
      ev({
        type: 'tool_call',
        agentId: 'team-lead',
        agentName: 'team-lead',
        toolUseId: 'c1',
        name: 'TeamCreate',
        input: { team_name: 'My Team' }
      })
    )
    expect(store.getState().dashboard.team).toBeUndefined()
    apply(
      store,
      ev({
        type: 'tool_result',
        agentId: 'team-lead',
        agentName: 'team-lead',
        toolUseId: 'c1',
        isError: false,
        output: "Team 'my-team' created"
      })
    )
    expect(store.getState().dashboard.team).toBe('my-team')
    apply(
      store,
      ev({
        type: 'tool_call',
        agentId: 'team-lead',
        agentName: 'team-lead',
        toolUseId: 'd1',
        name: 'TeamDelete',
        input: {}
      })
    )
    apply(
      store,
      ev({
        type: 'tool_result',
        agentId: 'team-lead',
        agentName: 'team-lead',
        toolUseId: 'd1',
        isError: true,
        output: 'still has active members'
      })
    )
    expect(store.getState().dashboard.team).toBe('my-team')
    apply(
      store,
      ev({
        type: 'tool_call',
        agentId: 'team-lead',
        agentName: 'team-lead',
        toolUseId: 'd2',
        name: 'TeamDelete',
        input: {}
      })
    )
    apply(
      store,
      ev({
        type: 'tool_result',
        agentId: 'team-lead',
        agentName: 'team-lead',
        toolUseId: 'd2',
        isError: false,
        output: 'deleted'
      })
    )
    expect(store.getState().dashboard.team).toBeUndefined()
    expect(store.getState().dashboard.teamCalls).toEqual({})
  })

  it('a snapshot older than a seen TeamCreate does not undo it', () => {
    const store = createAppStore()
    apply(
      store,
      ev({
        seq: 4,
        type: 'tool_call',
        agentId: 'team-lead',
        agentName: 'team-lead',
        toolUseId: 'c1',
        name: 'TeamCreate',
        input: { team_name: 'docs' }
      })
    )
    apply(
      store,
      ev({
        seq: 5,
        type: 'tool_result',
        agentId: 'team-lead',
        agentName: 'team-lead',
        toolUseId: 'c1',
        isError: false,
        output: 'ok'
      })
    )
    store.getState().loadDashboard(snapshot({ lastSeq: 3 }))
    expect(store.getState().dashboard.team).toBe('docs')
    store.getState().loadDashboard(snapshot({ lastSeq: 6 }))
    expect(store.getState().dashboard.team).toBeUndefined()
  })

  it('lists the leader and teammates as members, never subagents', () => {
    const store = createAppStore()
    store.getState().loadSnapshot(snapshot())
    store.getState().setTeam('docs')
    apply(
      store,
      ev({
        type: 'agent_started',
        agentId: 'a1f',
        agentName: 'explore',
        agentType: 'Explore',
        depth: 1,
        parentId: 'team-lead'
      })
    )
    apply(
      store,
      ev({
        type: 'agent_started',
        agentId: 'alice@docs',
        agentName: 'alice',
        agentType: 'general-purpose',
        depth: 1,
        parentId: 'team-lead',
        backend: 'worker'
      })
    )
    expect(selectMemberIds(store.getState())).toEqual(['team-lead', 'alice@docs'])
  })

  it("lists only the current team's teammates: a deleted team's rows go, the next team's come", () => {
    const store = createAppStore()
    store.getState().loadSnapshot(snapshot())
    store.getState().setTeam('docs')
    apply(
      store,
      ev({
        type: 'agent_started',
        agentId: 'alice@docs',
        agentName: 'alice',
        agentType: 'general-purpose',
        depth: 1,
        parentId: 'team-lead',
        backend: 'worker'
      })
    )
    apply(
      store,
      ev({
        seq: 40,
        type: 'tool_call',
        agentId: 'team-lead',
        agentName: 'team-lead',
        toolUseId: 'd1',
        name: 'TeamDelete',
        input: {}
      })
    )
    apply(
      store,
      ev({
        seq: 41,
        type: 'tool_result',
        agentId: 'team-lead',
        agentName: 'team-lead',
        toolUseId: 'd1',
        isError: false,
        output: 'ok'
      })
    )
    expect(selectMemberIds(store.getState())).toEqual(['team-lead'])
    apply(
      store,
      ev({
        seq: 42,
        type: 'tool_call',
        agentId: 'team-lead',
        agentName: 'team-lead',
        toolUseId: 'c2',
        name: 'TeamCreate',
        input: { team_name: 'qa' }
      })
    )
    apply(
      store,
      ev({
        seq: 43,
        type: 'tool_result',
        agentId: 'team-lead',
        agentName: 'team-lead',
        toolUseId: 'c2',
        isError: false,
        output: 'ok'
      })
    )
    apply(
      store,
      ev({
        seq: 44,
        type: 'agent_started',
        agentId: 'bob@qa',
        agentName: 'bob',
        agentType: 'general-purpose',
        depth: 1,
        parentId: 'team-lead',
        backend: 'worker'
      })
    )
    expect(selectMemberIds(store.getState())).toEqual(['team-lead', 'bob@qa'])
  })

  it('records member actions, focus requests and the spawn form', () => {
    const store = createAppStore()
    const s = () => store.getState()
    s().setMemberAction('alice@docs', { pending: 'kill' })
    expect(s().dashboard.actions['alice@docs']).toEqual({ pending: 'kill' })
    s().setMemberAction('alice@docs', {})
    expect(s().dashboard.actions).toEqual({})
    s().requestFocus('alice@docs')
    s().requestFocus('alice@docs')
    expect(s().dashboard.focusRequest).toEqual({ agentId: 'alice@docs', nonce: 2 })
    s().setSpawnForm({ open: true })
    s().setSpawnOptions({ agentTypes: [], defaultBackend: 'worker', team: 'docs' })
    expect(s().dashboard).toMatchObject({ spawn: { open: true, pending: false }, team: 'docs' })
  })

  it('the spawn form’s hosts follow a settings reload once its options are loaded (docs/hosts.md#in-the-ui)', () => {
    const store = createAppStore()
    const s = () => store.getState()
    s().setSpawnHosts(['box'])
    expect(s().dashboard.spawnOptions).toBeUndefined()
    s().setSpawnOptions({
      agentTypes: [{ name: 'general-purpose', description: 'd' }],
      defaultBackend: 'process',
      hosts: ['box'],
      team: 'docs'
    })
    s().setSpawnHosts(['box', 'gpu'])
    expect(s().dashboard.spawnOptions).toEqual({
      agentTypes: [{ name: 'general-purpose', description: 'd' }],
      defaultBackend: 'process',
      hosts: ['box', 'gpu'],
      team: 'docs'
    })
    s().setSpawnHosts([])
    expect(s().dashboard.spawnOptions).toEqual({
      agentTypes: [{ name: 'general-purpose', description: 'd' }],
      defaultBackend: 'process',
      team: 'docs'
    })
  })
})

describe('isStuck', () => {
  const at = Date.parse('2026-01-01T00:10:00.000Z')
  it('marks a running agent silent for the whole period, and nothing else', () => {
    expect(isStuck('running', '2026-01-01T00:05:00.000Z', 5, at)).toBe(true)
    expect(isStuck('running', '2026-01-01T00:05:01.000Z', 5, at)).toBe(false)
    expect(isStuck('awaiting_permission', '2026-01-01T00:00:00.000Z', 5, at)).toBe(false)
    expect(isStuck('idle', '2026-01-01T00:00:00.000Z', 5, at)).toBe(false)
    expect(isStuck('running', undefined, 5, at)).toBe(false)
    expect(isStuck('running', '2026-01-01T00:09:58.000Z', 0.02, at)).toBe(true)
  })
})
