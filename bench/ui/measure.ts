import type { Page } from '@playwright/test'
import { cpuMs, pageMemory, type PageMemory } from './chromium'
import { READ_PROBE, type ProbeReadout } from './probeScript'
import { mib, percentile, round } from './stats'

/**
 * What one page did under one load; Swarmdesk and the baseline report the same figures. Times in
 * ms, memory in MiB, bytes as the producers wrote them.
 */
export interface UiFigures {
  /** Navigation → first frame painted with the workspace (the leader's pane) / the terminals in the DOM. */
  firstPaintMs: number
  /** requestAnimationFrame deltas counted while the output ran, and their percentiles (16.7 = no frame missed). */
  frames: number
  frameP50Ms: number
  frameP95Ms: number
  frameP99Ms: number
  /**
   * Share of those deltas, in %, longer than 1.5 frames of 60 Hz (25 ms): frames that missed at
   * least one vsync. Frame p95 stays at 16.7 while this is under 5%, and jumps to 33.3 past it.
   */
  framesMissedPct: number
  /** Tasks of 50 ms or more on the page's main thread while the output ran. */
  longTasks: number
  /** Keystrokes timed in the text box, and keystroke → character shown and a frame painted. */
  inputSamples: number
  inputP50Ms: number
  inputP95Ms: number
  /** Renderer process RSS growth over the run, both readings after a forced GC. */
  memoryGrowthMB: number
  /** JS heap growth over the run, after a forced GC. */
  heapGrowthMB: number
  domNodesGrowth: number
  /** What the load asks of the producers (rate × seconds); less is written when backpressure holds them back past 1.5 × seconds. */
  bytesOffered: number
  /**
   * What the producers wrote, what the page received whole and in order, what it chose not to
   * receive (`bytesWithheld`: hidden panes it muted, `pane.mute`, whose last line their terminal
   * showed once shown again at the end, restored from main's scrollback), and the rest: dropped.
   */
  bytesProduced: number
  bytesReceived: number
  bytesWithheld: number
  bytesDropped: number
  /** Panes muted at the end, and how many of them showed their producer's last line when shown again. */
  mutedPanes: number
  mutedPanesRestored: number
  /** Lines missing in the sequence, lines that arrived altered. */
  lineGaps: number
  corruptLines: number
  /** The slowest producer's time to write all its lines (more than the load's seconds when it was held back). */
  producerSeconds: number
  /** CPU used by the page's renderer process and by the serve process (runtime + web host), % of one core. */
  rendererCpuPct: number
  hostCpuPct: number | undefined
  /** Terminals on screen, and how many draw with WebGL / the DOM renderer. */
  visiblePanes: number
  renderers: { webgl: number; dom: number }
}

/** A `requestAnimationFrame` delta past this (ms) missed a vsync: 1.5 frames at 60 Hz. */
const MISSED_FRAME_MS = 25

/** Sleeps `ms`. */
export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms))

/** Polls `probe` every 100 ms until true. @throws Error(`message`) after `timeoutMs`. */
export async function until(
  probe: () => boolean | Promise<boolean>,
  timeoutMs: number,
  message: string
): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`UI benchmark: ${message} (waited ${timeoutMs} ms)`)
    await sleep(100)
  }
}

/** Between keystrokes while the output runs, ms (about 4 a second, a person typing slowly). */
const KEY_INTERVAL_MS = 250

/** What {@link runWindow} measured, before the page settles. */
export interface WindowReading {
  before: PageMemory
  rendererCpuPct: number
  hostCpuPct: number | undefined
  elapsedMs: number
}

/**
 * The measured stretch of a run: memory and CPU readings, the probe recording, `start()` to set
 * the output going, then a keystroke into `inputSelector` every {@link KEY_INTERVAL_MS} until
 * `finished()` (or `timeoutMs`), then the probe stops. `midway.run` is called once, `midway.atMs`
 * into the output (screenshots for a person, when asked for).
 * @throws Error when the output does not finish within `timeoutMs`.
 */
export async function runWindow(
  page: Page,
  options: {
    inputSelector: string
    rendererPid: number | undefined
    hostPid?: number
    start: () => Promise<void>
    finished: () => Promise<boolean>
    timeoutMs: number
    midway?: { atMs: number; run: () => Promise<void> }
  }
): Promise<WindowReading> {
  await page.locator(options.inputSelector).click()
  const before = await pageMemory(page, options.rendererPid)
  const cpu0 = {
    renderer: options.rendererPid ? cpuMs(options.rendererPid) : 0,
    host: options.hostPid ? cpuMs(options.hostPid) : 0,
    at: Date.now()
  }
  await page.evaluate('window.__uiBench.start()')
  await options.start()
  const deadline = Date.now() + options.timeoutMs
  const letters = 'abcdefghijklmnopqrstuvwxyz'
  let typed = 0
  let midway = options.midway
  while (!(await options.finished())) {
    if (midway && Date.now() - cpu0.at >= midway.atMs) {
      await midway.run()
      midway = undefined
    }
    if (Date.now() > deadline) throw new Error(`UI benchmark: the output did not finish within ${options.timeoutMs} ms`)
    await page.keyboard.press(letters[typed++ % letters.length]!)
    await sleep(KEY_INTERVAL_MS)
  }
  // the last keystrokes' frames are painted before the probe stops
  await until(
    async () =>
      ((await page.evaluate('window.__uiBench.inputs.length + window.__uiBench.inputMisses')) as number) >= typed,
    5_000,
    ''
  ).catch(() => undefined)
  await page.evaluate('window.__uiBench.stop()')
  const elapsedMs = Date.now() - cpu0.at
  const pct = (used: number) => round((100 * used) / Math.max(1, elapsedMs))
  return {
    before,
    rendererCpuPct: options.rendererPid ? pct(cpuMs(options.rendererPid) - cpu0.renderer) : 0,
    hostCpuPct: options.hostPid ? pct(cpuMs(options.hostPid) - cpu0.host) : undefined,
    elapsedMs
  }
}

/** Reads the probe. */
export function readProbe(page: Page): Promise<ProbeReadout> {
  return page.evaluate(READ_PROBE) as Promise<ProbeReadout>
}

/** Puts a run's readings together into {@link UiFigures}. */
export function figures(input: {
  readout: ProbeReadout
  window: WindowReading
  after: PageMemory
  produced: { bytes: number; offered: number; seconds: number }
  /** Muted panes (none for the baseline): their count, those that showed their last line when shown again, and what those never received. */
  withheld?: { panes: number; restored: number; bytes: number }
  visiblePanes: number
  renderers: { webgl: number; dom: number }
}): UiFigures {
  const { readout, window, after, produced } = input
  const received = Object.values(readout.producers).reduce((sum, p) => sum + p.bytes, 0)
  const withheld = input.withheld ?? { panes: 0, restored: 0, bytes: 0 }
  return {
    firstPaintMs: round(readout.firstPaintMs ?? Number.NaN),
    frames: readout.frames.length,
    frameP50Ms: round(percentile(readout.frames, 50)),
    frameP95Ms: round(percentile(readout.frames, 95)),
    frameP99Ms: round(percentile(readout.frames, 99)),
    framesMissedPct: round(
      (100 * readout.frames.filter((ms) => ms > MISSED_FRAME_MS).length) / Math.max(1, readout.frames.length)
    ),
    longTasks: readout.longTasks,
    inputSamples: readout.inputs.length,
    inputP50Ms: round(percentile(readout.inputs, 50)),
    inputP95Ms: round(percentile(readout.inputs, 95)),
    memoryGrowthMB: mib(after.rssBytes - window.before.rssBytes),
    heapGrowthMB: mib(after.jsHeapBytes - window.before.jsHeapBytes),
    domNodesGrowth: after.domNodes - window.before.domNodes,
    bytesOffered: produced.offered,
    bytesProduced: produced.bytes,
    bytesReceived: received,
    bytesWithheld: withheld.bytes,
    bytesDropped: produced.bytes - received - withheld.bytes,
    mutedPanes: withheld.panes,
    mutedPanesRestored: withheld.restored,
    lineGaps: Object.values(readout.producers).reduce((sum, p) => sum + p.gaps, 0),
    corruptLines: Object.values(readout.producers).reduce((sum, p) => sum + p.corrupt, 0),
    producerSeconds: round(produced.seconds),
    rendererCpuPct: window.rendererCpuPct,
    hostCpuPct: window.hostCpuPct,
    visiblePanes: input.visiblePanes,
    renderers: input.renderers
  }
}
