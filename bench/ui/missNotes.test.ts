import { describe, expect, it } from 'vitest'
import type { UiFigures } from './measure'
import type { SwarmdeskFigures } from './swarmdeskRun'
import { missNotes, missedTargets, type UiScenarioResult } from './uiBench'

const base: UiFigures = {
  firstPaintMs: 400,
  frames: 1200,
  frameP50Ms: 16.7,
  frameP95Ms: 16.8,
  frameP99Ms: 33.3,
  framesMissedPct: 2,
  longTasks: 0,
  inputSamples: 80,
  inputP50Ms: 20,
  inputP95Ms: 30,
  memoryGrowthMB: 20,
  heapGrowthMB: 5,
  domNodesGrowth: 0,
  bytesOffered: 1000,
  bytesProduced: 1000,
  bytesReceived: 1000,
  bytesWithheld: 0,
  bytesDropped: 0,
  mutedPanes: 0,
  mutedPanesRestored: 0,
  lineGaps: 0,
  corruptLines: 0,
  producerSeconds: 20,
  rendererCpuPct: 90,
  hostCpuPct: undefined,
  visiblePanes: 16,
  renderers: { webgl: 0, dom: 16 }
}
const swarmdesk = (over: Partial<UiFigures>): SwarmdeskFigures => ({
  ...base,
  hostCpuPct: 25,
  lastLinesShown: 16,
  paneDataPushes: 100,
  runtimeEventPushes: 10,
  socketFrames: 20,
  reconnects: 0,
  closeCodes: [],
  hostCutoffs: [],
  scrollbackRequests: 17,
  tailMs: 10,
  ...over
})

function scenario(sd: Partial<UiFigures>, baseline: Partial<UiFigures>, loaded: Partial<UiFigures>): UiScenarioResult {
  const figures = swarmdesk(sd)
  return {
    name: 'load',
    panes: 16,
    visible: 16,
    bytesPerSecond: 51200,
    seconds: 20,
    swarmdesk: figures,
    baseline: { ...base, ...baseline },
    baselineLoaded: { ...base, ...loaded },
    missed: missedTargets(figures)
  }
}

describe('bench/ui notes on missed targets', () => {
  it("says which missed targets bare xterm misses too, alone or beside the agents' commands, and says nothing of a target Swarmdesk meets", () => {
    const s = scenario(
      { inputP95Ms: 70, memoryGrowthMB: 160, frameP95Ms: 33 },
      { memoryGrowthMB: 165 },
      { inputP95Ms: 62, memoryGrowthMB: 165, frameP95Ms: 50 }
    )
    expect(s.missed).toEqual(['inputP95Ms 70 > 50 (80 samples)', 'memoryGrowthMB 160 > 50'])
    const notes = missNotes([s], { before: 1, after: 1.5, cores: 2 })
    expect(notes).toHaveLength(2)
    expect(notes[0]).toContain('bare xterm.js on a plain page')
    expect(notes[0]).toContain('memory growth 165 (Swarmdesk 160, target 50)')
    expect(notes[0]).not.toContain('input')
    expect(notes[1]).toContain('producer processes running beside it')
    expect(notes[1]).toContain('input p95 62 (Swarmdesk 70, target 50)')
    // the loaded baseline's frame p95 misses, but Swarmdesk's meets the target: not a note
    expect(notes[1]).not.toContain('frame')
  })

  it('notes a machine loaded past its cores', () => {
    expect(missNotes([], { before: 2.5, after: 3, cores: 2 })[0]).toContain(
      'load average was 2.5 before and 3 after the runs on 2 cores'
    )
  })
})
