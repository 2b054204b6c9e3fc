import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { writeFileAtomicSync } from '../../src/main/runtime/locks/atomicWrite'
import { PaneTerminals } from '../../src/main/app/panes'
import { PaneJournal, readPaneJournal } from '../../src/main/app/restore/paneJournal'
import { benchLine, LINE_BYTES } from '../ui/line.mjs'

/** One load: panes × rate for `seconds` seconds of output, fed one second at a time. */
export interface PanesLoad {
  panes: number
  bytesPerSecond: number
  seconds: number
}

/** Main-thread time one way of saving panes took, per second of output. */
export interface SaveCost {
  /** Per saved second, ms: median, 95th percentile and worst. */
  p50Ms: number
  p95Ms: number
  maxMs: number
  /** Share of one core the saves take at this load: total save time / seconds of output. */
  corePct: number
  /** Bytes written to disk per second of output. */
  bytesWrittenPerSecond: number
}

export interface PanesLoadResult extends PanesLoad {
  /** Swarmdesk: each second's new output appended to the pane journal (restore/paneJournal.ts). */
  journal: SaveCost
  /**
   * Baseline, the previous design: each second, every pane that got output serialized from its
   * headless terminal (xterm's serialize addon, 10,000 lines of scrollback) and all panes written
   * as one JSON file (temp + rename).
   */
  serializeBaseline: SaveCost
  /** Characters a restart gets back for the first pane from the journal (its last MiB, from a line start). */
  restoredChars: number
  /** The restored tail ends with the pane's last line: nothing at the end was lost. */
  restoredEndsWithLastLine: boolean
}

export interface PanesBenchResult {
  name: 'panes'
  loads: PanesLoadResult[]
  target: string
  verdict: 'pass' | 'fail'
}

/** Issue 7: the workspace stays smooth under 16 panes of output; saving panes for a restart must not eat the main thread. */
export const TARGET_CORE_PCT = 5
export const TARGET = `saving 16 panes' output for a restart (the pane journal) takes <= ${TARGET_CORE_PCT}% of one core at every load, and the restart gets each pane's last line back`

/**
 * Feeds `load` into real headless pane terminals one simulated second at a time and, after each
 * second, saves it both ways: the pane journal (what Swarmdesk does) and the previous serialize-
 * everything design (the baseline), timing each save on this thread. The terminals' own parsing is
 * common to both and not counted.
 */
export async function measurePanesLoad(load: PanesLoad): Promise<PanesLoadResult> {
  const dir = mkdtempSync(join(tmpdir(), 'swarmdesk-bench-panes-'))
  const panes = new PaneTerminals()
  const journal = new PaneJournal(join(dir, 'panes'))
  const ids = Array.from({ length: load.panes }, (_, i) => `agent-${i}@bench`)
  const linesPerSecond = Math.max(1, Math.round(load.bytesPerSecond / LINE_BYTES))
  const journalMs: number[] = []
  const baselineMs: number[] = []
  let journalBytes = 0
  let baselineBytes = 0
  let seq = 0
  try {
    for (let second = 0; second < load.seconds; second++) {
      const outputs = ids.map((_, agent) => {
        let text = ''
        for (let i = 0; i < linesPerSecond; i++) text += benchLine(agent, seq + i).replace(/\n/g, '\r\n')
        return text
      })
      seq += linesPerSecond
      for (let p = 0; p < ids.length; p++) panes.write(ids[p]!, outputs[p]!)
      // the terminals apply writes asynchronously: let them finish before timing either save
      for (const id of ids) await panes.scrollback(id).then(() => undefined)

      let t = performance.now()
      for (let p = 0; p < ids.length; p++) journal.append(ids[p]!, outputs[p]!)
      journal.flush()
      journalMs.push(performance.now() - t)
      journalBytes += outputs.reduce((n, o) => n + Buffer.byteLength(o), 0)

      t = performance.now()
      const saved: Record<string, string> = {}
      for (const id of ids) saved[id] = (await panes.scrollback(id)).data
      const json = JSON.stringify({ schemaVersion: 1, updatedAt: new Date().toISOString(), panes: saved })
      writeFileAtomicSync(join(dir, 'panes.json'), json)
      baselineMs.push(performance.now() - t)
      baselineBytes += Buffer.byteLength(json)
    }
    const restored = readPaneJournal(join(dir, 'panes'))[ids[0]!] ?? ''
    const last = benchLine(0, seq - 1).replace(/\n/g, '\r\n')
    return {
      ...load,
      journal: cost(journalMs, journalBytes, load.seconds),
      serializeBaseline: cost(baselineMs, baselineBytes, load.seconds),
      restoredChars: restored.length,
      restoredEndsWithLastLine: restored.endsWith(last)
    }
  } finally {
    panes.dispose()
    rmSync(dir, { recursive: true, force: true })
  }
}

/** Runs every load and judges the journal against {@link TARGET}. */
export async function runPanesBenchmark(loads: PanesLoad[]): Promise<PanesBenchResult> {
  const results: PanesLoadResult[] = []
  for (const load of loads) results.push(await measurePanesLoad(load))
  const pass = results.every((r) => r.journal.corePct <= TARGET_CORE_PCT && r.restoredEndsWithLastLine)
  return { name: 'panes', loads: results, target: TARGET, verdict: pass ? 'pass' : 'fail' }
}

function cost(ms: number[], bytes: number, seconds: number): SaveCost {
  const sorted = [...ms].sort((a, b) => a - b)
  const at = (q: number): number => round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0)
  const total = ms.reduce((a, b) => a + b, 0)
  return {
    p50Ms: at(0.5),
    p95Ms: at(0.95),
    maxMs: round(sorted.at(-1) ?? 0),
    corePct: round((total / (seconds * 1000)) * 100),
    bytesWrittenPerSecond: Math.round(bytes / seconds)
  }
}

function round(n: number): number {
  return Math.round(n * 100) / 100
}
