import { describe, expect, it } from 'vitest'
import { elapsedMs, formatElapsed } from './elapsed'

describe('elapsed time', () => {
  it('reads in seconds, then minutes and seconds, then hours and minutes', () => {
    expect(formatElapsed(0)).toBe('0s')
    expect(formatElapsed(999)).toBe('0s')
    expect(formatElapsed(42_400)).toBe('42s')
    expect(formatElapsed(185_000)).toBe('3m 05s')
    expect(formatElapsed(3_600_000 + 2 * 60_000 + 59_000)).toBe('1h 02m')
  })

  it('treats a negative duration (clock skew) as zero', () => {
    expect(formatElapsed(-5_000)).toBe('0s')
  })

  it('runs to now while the agent runs, stops at its end, and is unknown without a start', () => {
    expect(elapsedMs({ startedAt: 1_000 }, 4_000)).toBe(3_000)
    expect(elapsedMs({ startedAt: 1_000, endedAt: 2_500, endStatus: 'killed' }, 9_000)).toBe(1_500)
    expect(elapsedMs(undefined, 9_000)).toBeUndefined()
  })
})
