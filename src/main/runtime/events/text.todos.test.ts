import { describe, expect, it } from 'vitest'
import { parseRuntimeEvent } from '../../../shared/events'
import { createHumanRenderer } from './text'

describe('the human stream of a TodoWrite', () => {
  it('summarises the call by its counts and shows the new list as a checklist, the item in progress by its activeForm', () => {
    const render = createHumanRenderer({ color: false, scripted: true })
    const base = { seq: 1, time: '2026-01-01T00:00:00.000Z', agentId: 'team-lead', agentName: 'team-lead' }
    const todos = [
      { content: 'Survey', status: 'completed', activeForm: 'Surveying' },
      { content: 'Report', status: 'in_progress', activeForm: 'Reporting' },
      { content: 'Review', status: 'pending', activeForm: 'Reviewing' }
    ]
    render(parseRuntimeEvent({ ...base, seq: 0, type: 'agent_started', agentType: 'main', depth: 0, cwd: '/w' })!)
    expect(
      render(parseRuntimeEvent({ ...base, type: 'tool_call', toolUseId: 't1', name: 'TodoWrite', input: { todos } })!)
    ).toBe('team-lead   ● TodoWrite(3 todos, 1 done)\n')
    expect(render(parseRuntimeEvent({ ...base, seq: 2, type: 'todos_updated', todos })!)).toBe(
      'team-lead     ☑ Survey\n              ▶ Reporting\n              ☐ Review\n'
    )
  })
})
