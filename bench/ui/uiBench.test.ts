import { describe, expect, it } from 'vitest'
import { runUiBenchmark } from './uiBench'

/**
 * A tiny load (2 panes, 2 s) through the whole benchmark: the real web host, PTYs and built
 * renderer in Chromium, then the bare xterm.js baseline. It checks the benchmark did the work it
 * reports, never a timing: every byte the producers wrote reached the page whole and in order,
 * the terminals show the last line, frames and keystrokes were measured.
 *
 * It needs Debian's chromium and the built renderer (`npm ci` builds it through `prepare`, and
 * `npm run build` refreshes it), like the e2e tests, yet it lives here beside the benchmark it
 * checks, so the benchmark cannot rot unnoticed; it takes about 30 s of the unit run.
 */
describe('UI benchmark', () => {
  it('counts every byte the producers wrote as received, and measures frames, keystrokes and memory, in Swarmdesk and the baseline', async () => {
    const result = await runUiBenchmark([{ name: 'tiny', panes: 2, visible: 2, bytesPerSecond: 50 * 1024, seconds: 2 }])
    expect(result.name).toBe('ui')
    const [tiny] = result.scenarios
    expect(tiny).toBeDefined()
    for (const f of [tiny!.swarmdesk, tiny!.baseline, tiny!.baselineLoaded]) {
      // at most 2 producers × floor(51200 × 2 / 120) lines of 120 bytes: a producer that backpressure
      // holds back past 1.5 × the load's seconds stops early (producer.mjs), which on a loaded machine
      // happens; what it did write must all arrive
      expect(f.bytesProduced).toBeGreaterThan(0)
      expect(f.bytesProduced).toBeLessThanOrEqual(2 * 853 * 120)
      expect(f.bytesProduced % 120).toBe(0)
      expect(f.bytesReceived).toBe(f.bytesProduced)
      expect(f.bytesDropped).toBe(0)
      expect(f.lineGaps).toBe(0)
      expect(f.corruptLines).toBe(0)
      expect(f.frames).toBeGreaterThan(0)
      expect(f.frameP95Ms).toBeGreaterThanOrEqual(f.frameP50Ms)
      expect(f.inputSamples).toBeGreaterThan(0)
      expect(f.firstPaintMs).toBeGreaterThan(0)
      expect(f.visiblePanes).toBe(2)
      expect(f.renderers.webgl + f.renderers.dom).toBe(2)
    }
    expect(tiny!.swarmdesk.lastLinesShown).toBe(2)
    expect(tiny!.swarmdesk.tailMs).toBeGreaterThanOrEqual(0)
    expect(tiny!.swarmdesk.reconnects).toBe(0)
    // Where this Chromium has WebGL2 on a GPU, both visible panes draw with it; where it is software
    // (SwiftShader here), both use the DOM renderer (gpu.ts), and so does the baseline
    if (result.webgl.renderer !== null) {
      for (const f of [tiny!.swarmdesk, tiny!.baseline]) expect(f.renderers.webgl).toBe(result.webgl.software ? 0 : 2)
    }
    expect(tiny!.swarmdesk.paneDataPushes).toBeGreaterThan(0)
    // the frames the page received: pushes (a tick's together, so never more frames than pushes)
    // and the responses to its few dozen requests (snapshot, scrollbacks, acknowledgements)
    expect(tiny!.swarmdesk.socketFrames).toBeGreaterThan(0)
    expect(tiny!.swarmdesk.socketFrames).toBeLessThanOrEqual(
      tiny!.swarmdesk.paneDataPushes + tiny!.swarmdesk.runtimeEventPushes + 100
    )
    expect(['pass', 'fail']).toContain(result.verdict)
  }, 180_000)

  it("counts a hidden pane's output the page muted as withheld, not dropped, once the pane shown again shows its last line", async () => {
    // two panes are hidden with their × before the output starts: no pane of the page shows them, so the page mutes them
    const result = await runUiBenchmark([
      { name: 'hidden', panes: 3, visible: 1, bytesPerSecond: 50 * 1024, seconds: 2 }
    ])
    const sd = result.scenarios[0]!.swarmdesk
    expect(sd.mutedPanes).toBe(2)
    expect(sd.mutedPanesRestored).toBe(2)
    expect(sd.bytesWithheld).toBeGreaterThan(0)
    expect(sd.bytesReceived + sd.bytesWithheld).toBe(sd.bytesProduced)
    expect(sd.bytesDropped).toBe(0)
    expect(sd.lineGaps).toBe(0)
    expect(sd.corruptLines).toBe(0)
    expect(sd.lastLinesShown).toBe(1)
  }, 240_000)
})
