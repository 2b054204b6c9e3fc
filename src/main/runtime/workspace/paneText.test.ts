import { describe, expect, it } from 'vitest'
import type { RuntimeEvent } from '../../../shared/events'
import { createPaneRenderer } from './paneText'

const base = { time: '2026-01-01T00:00:00.000Z' }
let seq = 0
const ev = (e: Record<string, unknown>) => ({ ...base, seq: ++seq, ...e }) as RuntimeEvent
const plain = (s: string) => s.replace(/\x1b\[[0-9;]*m/g, '')

describe('pane text', () => {
  it('shows a task notification in the receiving agent pane, naming the agent it is about', () => {
    const render = createPaneRenderer({ scripted: true })
    render(ev({ type: 'agent_started', agentId: 'a-7', agentName: 'quick-job', agentType: 'general-purpose', parentId: 'team-lead', depth: 1 }))
    const out = render(ev({ type: 'task_notification', agentId: 'team-lead', agentName: 'team-lead', taskId: 'a-7', status: 'killed' }))
    expect(out?.[0]).toBe('team-lead')
    expect(plain(out![1])).toBe('◆ notification: agent quick-job killed\r\n')
  })

  it('falls back to the task id for an agent whose start it did not see', () => {
    const render = createPaneRenderer({ scripted: true })
    const out = render(ev({ type: 'task_notification', agentId: 'team-lead', agentName: 'team-lead', taskId: 'a-9', status: 'completed' }))
    expect(plain(out![1])).toContain('agent a-9 completed')
  })
})
