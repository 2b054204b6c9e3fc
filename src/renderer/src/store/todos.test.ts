import { beforeEach, describe, expect, it } from 'vitest'
import { parseRuntimeEvent } from '../../../shared/events'
import { todoProgress } from '../../../shared/todos'
import { createAppStore } from './store'
import { agentView, ev, resetSeq, snapshot } from './store.testkit'

// An agent's todo list in the renderer's store (docs/tools.md#todowrite, docs/ui.md#pane-grid):
// `todos_updated` as it arrives on the wire replaces the agent's list, a snapshot brings it.

const LIST = [
  { content: 'Survey', status: 'completed', activeForm: 'Surveying' },
  { content: 'Report', status: 'in_progress', activeForm: 'Reporting' },
  { content: 'Review', status: 'pending', activeForm: 'Reviewing' }
] as const

/** The event as a push carries it: JSON, parsed by the contract's own parser. */
const wire = (e: ReturnType<typeof ev>) => parseRuntimeEvent(JSON.parse(JSON.stringify(e)))!

describe('todo lists in the store', () => {
  beforeEach(() => resetSeq())

  it("replaces an agent's list with each todos_updated and keeps it when the agent starts again", () => {
    const store = createAppStore()
    store.getState().loadSnapshot(
      snapshot({
        agents: [
          agentView({ agentId: 'team-lead' }),
          agentView({ agentId: 'alice@ops', agentName: 'alice', backend: 'worker' })
        ]
      })
    )
    const { applyEvent } = store.getState()
    applyEvent(wire(ev({ type: 'todos_updated', agentId: 'alice@ops', agentName: 'alice', todos: [...LIST] })))
    const alice = () => store.getState().workspace.agents['alice@ops']!
    expect(alice().todos).toEqual(LIST)
    expect(todoProgress(alice().todos!)).toEqual({ done: 1, total: 3, active: LIST[1] })
    expect(store.getState().workspace.agents['team-lead']!.todos).toBeUndefined()
    // the whole list replaces the one before, even a shorter one
    applyEvent(wire(ev({ type: 'todos_updated', agentId: 'alice@ops', agentName: 'alice', todos: [{ ...LIST[2] }] })))
    expect(alice().todos).toEqual([LIST[2]])
    // a resumed teammate's agent_started does not wipe what its transcript still holds
    applyEvent(
      ev({
        type: 'agent_started',
        agentId: 'alice@ops',
        agentName: 'alice',
        agentType: 'teammate',
        depth: 1,
        backend: 'worker'
      })
    )
    expect(alice().todos).toEqual([LIST[2]])
  })

  it('takes the lists a snapshot carries, and refuses a malformed list on the wire', () => {
    const store = createAppStore()
    store.getState().loadSnapshot(snapshot({ agents: [agentView({ agentId: 'team-lead', todos: [...LIST] })] }))
    expect(store.getState().workspace.agents['team-lead']!.todos).toEqual(LIST)
    expect(() =>
      parseRuntimeEvent({
        ...ev({ type: 'todos_updated', agentId: 'team-lead', agentName: 'team-lead', todos: [] }),
        todos: [{ content: 'x', status: 'done', activeForm: 'x' }]
      })
    ).toThrow(/status must be 'pending', 'in_progress' or 'completed'/)
  })
})
