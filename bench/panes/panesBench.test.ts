import { describe, expect, it } from 'vitest'
import { measurePanesLoad } from './panesBench'

describe('panes benchmark', () => {
  it("does the work it reports: both ways saved every second, and the journal gives back each pane's last line", async () => {
    const r = await measurePanesLoad({ panes: 2, bytesPerSecond: 20_000, seconds: 3 })
    for (const c of [r.journal, r.serializeBaseline]) {
      expect(c.maxMs).toBeGreaterThan(0)
      expect(c.maxMs).toBeGreaterThanOrEqual(c.p95Ms)
      expect(c.p95Ms).toBeGreaterThanOrEqual(c.p50Ms)
      expect(c.bytesWrittenPerSecond).toBeGreaterThan(20_000)
    }
    expect(r.restoredEndsWithLastLine).toBe(true)
    expect(r.restoredChars).toBeGreaterThan(50_000)
  }, 60_000)
})
