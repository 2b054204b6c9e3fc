import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { packageRoot } from '../../src/main/runtime/install/packageRoot'
import { TERMINAL_RENDERER_KEY } from '../../src/renderer/src/features/panes/gpu'
import { benchLine, LINE_BYTES } from './line.mjs'

/** What the in-page probe (page/probe.js) is told. */
export interface ProbeConfig {
  /** The element whose first painted frame counts as first paint. */
  readySelector: string
  /** The text box whose keystrokes are timed. */
  inputSelector: string
  /** Count `pane.data` pushes arriving over the page's WebSocket (the Swarmdesk page). */
  wrapWebSocket: boolean
}

/** line.mjs's `benchLine` as a JavaScript expression a page can evaluate (its constant inlined). */
export function benchLineSource(): string {
  return `(() => { const LINE_BYTES = ${LINE_BYTES}; return (${benchLine.toString()}) })()`
}

/**
 * The init script that installs the probe (`window.__uiBench`) before the page's own scripts. With
 * `UI_BENCH_RENDERER=webgl|dom|auto` in the environment it also stores that renderer preference
 * for the page (gpu.ts), so both pages can be measured on WebGL even where WebGL is software.
 * @throws Error for another value of UI_BENCH_RENDERER.
 */
export function probeScript(config: ProbeConfig): string {
  const source = readFileSync(join(packageRoot(), 'bench', 'ui', 'page', 'probe.js'), 'utf8')
  const renderer = process.env.UI_BENCH_RENDERER
  if (renderer !== undefined && !['webgl', 'dom', 'auto'].includes(renderer))
    throw new Error(`UI_BENCH_RENDERER must be webgl, dom or auto, not '${renderer}'.`)
  const preference = renderer
    ? `localStorage.setItem(${JSON.stringify(TERMINAL_RENDERER_KEY)}, ${JSON.stringify(JSON.stringify(renderer))});\n`
    : ''
  return `${preference}${source}\ninstallUiBenchProbe(${JSON.stringify(config)}, ${benchLineSource()});\n`
}

/** What the probe holds, read back with `page.evaluate`. */
export interface ProbeReadout {
  frames: number[]
  inputs: number[]
  inputMisses: number
  longTasks: number
  longTaskMs: number
  firstPaintMs: number | undefined
  firstContentfulPaintMs: number | undefined
  wsFrames: number
  paneFrames: number
  eventFrames: number
  wsChars: number
  sockets: number
  socketCloses: number
  closeCodes: number[]
  scrollbackRequests: number
  ackRequests: number
  /** `pane.mute` requests the page sent; the latest per agent id (true: muted). */
  muteRequests: number
  mutes: Record<string, boolean>
  /** performance.now() of the page when the last benchmark line arrived; undefined before any. */
  lastLineAt: number | undefined
  producers: Record<
    string,
    { lines: number; bytes: number; next: number; gaps: number; corrupt: number; repeats: number }
  >
  paneChars: Record<string, number>
}

/** The page-side expression that reads the probe (a string, so no DOM types are needed here). */
export const READ_PROBE = `(() => { const p = window.__uiBench; return { frames: p.frames, inputs: p.inputs, inputMisses: p.inputMisses, longTasks: p.longTasks, longTaskMs: p.longTaskMs, firstPaintMs: p.firstPaintMs, firstContentfulPaintMs: p.firstContentfulPaintMs, wsFrames: p.wsFrames, paneFrames: p.paneFrames, eventFrames: p.eventFrames, wsChars: p.wsChars, sockets: p.sockets, socketCloses: p.socketCloses, closeCodes: p.closeCodes, scrollbackRequests: p.scrollbackRequests, ackRequests: p.ackRequests, muteRequests: p.muteRequests, mutes: p.mutes, lastLineAt: p.lastLineAt, producers: p.producers, paneChars: p.paneChars } })()`
