import { describe, expect, it } from 'vitest'
import { whenText } from './SessionsMenu'

describe('the Sessions menu’s times', () => {
  const now = Date.parse('2026-12-02T10:00:00Z')
  it('reads recent activity in minutes and hours, older in a date', () => {
    expect(whenText('2026-12-02T09:59:40Z', now)).toBe('just now')
    expect(whenText('2026-12-02T09:55:00Z', now)).toBe('5 min ago')
    expect(whenText('2026-12-02T07:00:00Z', now)).toBe('3 h ago')
    expect(whenText('2026-11-20T10:00:00Z', now)).toMatch(/2026/)
  })
  it('shows a time it cannot read as it is', () => {
    expect(whenText('not a time', now)).toBe('not a time')
  })
})
