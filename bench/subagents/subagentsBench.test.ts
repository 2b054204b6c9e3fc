import { describe, expect, it } from 'vitest'
import { measureLevel } from './subagentsBench'

describe('subagents benchmark', () => {
  it('does the work it reports: every background agent made its first request, and the baseline ran', async () => {
    const level = await measureLevel(3)
    expect(level.agents).toBe(3)
    expect(level.childRequestsSeen).toBe(3)
    expect(level.spawnToFirstRequestP50Ms).toBeGreaterThanOrEqual(0)
    expect(level.spawnToFirstRequestMaxMs).toBeGreaterThanOrEqual(level.spawnToFirstRequestP50Ms)
    expect(level.baselineIssueToRequestP50Ms).toBeGreaterThanOrEqual(0)
  })
})
