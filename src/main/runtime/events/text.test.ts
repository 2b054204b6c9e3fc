import { describe, expect, it } from 'vitest'
import type { RuntimeEvent } from '../../../shared/events'
import { createHumanRenderer } from './text'

const decided = (fields: Partial<Extract<RuntimeEvent, { type: 'permission_decided' }>>): RuntimeEvent => ({
  seq: 1,
  time: '2026-01-01T00:00:00.000Z',
  agentId: 'wendy@crew',
  agentName: 'wendy',
  type: 'permission_decided',
  requestId: 'perm_1',
  decision: 'allow',
  by: 'user',
  ...fields
})

describe('permission decisions in a pane', () => {
  const render = createHumanRenderer({ color: false, scripted: true })

  it('names the rule an always-allow added', () => {
    expect(render(decided({ rule: 'Bash(expr:*)' }))).toBe('  ✓ always allowed by user — rule Bash(expr:*) added for this session\n')
    expect(render(decided({}))).toBe('  ✓ allowed by user\n')
  })

  it('says a withdrawn question was cancelled because its agent stopped, not that "cancelled" denied it', () => {
    expect(render(decided({ decision: 'deny', by: 'cancelled', reason: 'the agent stopped' }))).toBe('  ✗ cancelled — the agent stopped\n')
    expect(render(decided({ decision: 'deny', by: 'cancelled' }))).toBe('  ✗ cancelled — the agent stopped\n')
    expect(render(decided({ decision: 'deny', by: 'cancelled', reason: 'the workspace closed' }))).toBe('  ✗ cancelled — the workspace closed\n')
    expect(render(decided({ decision: 'deny', by: 'user', reason: 'not here' }))).toBe('  ✗ denied by user: not here\n')
  })
})
