import { describe, expect, it } from 'vitest'
import { needsAttention, paneStateLabel, stateClassName } from './stateLabel'

describe('pane state label', () => {
  it('classes each state so waiting on a person never looks like idle', () => {
    expect(stateClassName('awaiting_permission', undefined)).toBe(
      'pane-state state-awaiting_permission end-none attention'
    )
    expect(stateClassName('awaiting_plan_approval', undefined)).toBe(
      'pane-state state-awaiting_plan_approval end-none attention'
    )
    expect(stateClassName('idle', undefined)).toBe('pane-state state-idle end-none')
    expect(stateClassName('crashed', 'crashed')).toBe('pane-state state-crashed end-crashed')
    expect(stateClassName(undefined, undefined)).toBe('pane-state state-unknown end-none')
  })

  it('labels the waiting states apart from each other and from idle', () => {
    const labels = (['awaiting_permission', 'awaiting_plan_approval', 'idle'] as const).map((s) =>
      paneStateLabel(s, undefined)
    )
    expect(labels).toEqual(['needs permission', 'needs plan approval', 'idle'])
    expect(paneStateLabel('exited', 'killed')).toBe('killed')
    expect([needsAttention('awaiting_permission'), needsAttention('idle'), needsAttention(undefined)]).toEqual([
      true,
      false,
      false
    ])
  })
})
