import { beforeEach, describe, expect, it } from 'vitest'
import { selectBusy, selectIsRunningSubagent } from '../../store/selectors'
import { createAppStore } from '../../store/store'
import { agentView, ev, resetSeq, snapshot } from '../../store/store.testkit'
import { isAlive } from '../dashboard/selectors'
import { paneStateLabel, stateClassName } from '../panes/stateLabel'

describe('interrupted agents in the UI (restore after restart)', () => {
  beforeEach(() => resetSeq())

  it('a restored snapshot shows them interrupted: no Stop or Background, no teammate actions, the prompt box free', () => {
    const store = createAppStore()
    store.getState().loadSnapshot(
      snapshot({
        agents: [
          agentView({ agentId: 'team-lead', agentName: 'team-lead', depth: 0, state: 'interrupted' }),
          agentView({ agentId: 'a1', agentName: 'helper', parentId: 'team-lead', depth: 1, state: 'interrupted' }),
          agentView({
            agentId: 'alice@ops',
            agentName: 'alice',
            parentId: 'team-lead',
            depth: 1,
            backend: 'worker',
            state: 'interrupted'
          })
        ]
      })
    )
    const s = store.getState()
    expect(selectIsRunningSubagent('a1')(s)).toBe(false)
    expect(isAlive(s, 'alice@ops')).toBe(false)
    expect(selectBusy(s)).toBe(false)
    expect(paneStateLabel('interrupted', undefined)).toBe('interrupted')
    expect(stateClassName('interrupted', undefined)).toContain('state-interrupted')
  })

  it('a resumed agent leaves the interrupted state with its next event', () => {
    const store = createAppStore()
    store.getState().loadSnapshot(
      snapshot({
        agents: [
          agentView({
            agentId: 'alice@ops',
            agentName: 'alice',
            parentId: 'team-lead',
            depth: 1,
            backend: 'worker',
            state: 'interrupted'
          })
        ]
      })
    )
    store.getState().applyEvent(ev({ type: 'agent_state', agentId: 'alice@ops', agentName: 'alice', state: 'running' }))
    expect(store.getState().workspace.agents['alice@ops']!.state).toBe('running')
    expect(isAlive(store.getState(), 'alice@ops')).toBe(true)
  })
})
