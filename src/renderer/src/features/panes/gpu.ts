import { z } from 'zod'
import { pageStorage, readStored, type KeyValueStorage } from '../../store/localMemory'

/**
 * Which renderer the panes use: `auto` (the default) draws with WebGL where a GPU does the work and
 * with the DOM renderer where WebGL runs in software; `webgl` and `dom` force one. Stored in
 * localStorage under {@link TERMINAL_RENDERER_KEY} (JSON string), read when the page loads.
 */
export type TerminalRendererPreference = 'auto' | 'webgl' | 'dom'
export const TERMINAL_RENDERER_KEY = 'swarmdesk.terminalRenderer'
const PreferenceSchema = z.enum(['auto', 'webgl', 'dom'])

/**
 * Renderer strings of WebGL implementations that rasterise on the CPU: Chromium's SwiftShader (a
 * machine or VM without a usable GPU, headless Chromium), Mesa's llvmpipe and softpipe, Windows'
 * Basic Render Driver. On them xterm's WebGL renderer costs far more than its DOM renderer:
 * bench/ui at 16 visible panes × 50 KB/s went from a frame p95 of 267 ms to 67 ms, and input
 * latency p95 from 326 ms to 108 ms, with the DOM renderer on SwiftShader.
 */
const SOFTWARE_RENDERER = /swiftshader|llvmpipe|softpipe|software|basic render/i

/** True when a WebGL renderer string names a software rasteriser ({@link SOFTWARE_RENDERER}). */
export function isSoftwareRenderer(renderer: string): boolean {
  return SOFTWARE_RENDERER.test(renderer)
}

/** What draws WebGL on this page: the unmasked renderer string (null where it cannot be read), and whether it is software. */
export interface WebglProbe {
  renderer: string | null
  software: boolean
}

/**
 * Reads the page's WebGL2 renderer through a throwaway canvas (its context is released at once).
 * No WebGL2 at all reads as `{renderer: null, software: true}`: the panes use the DOM renderer.
 */
export function probeWebgl(doc: Document | undefined = globalThis.document): WebglProbe {
  try {
    const canvas = doc?.createElement('canvas')
    const gl = canvas?.getContext('webgl2') as WebGL2RenderingContext | null | undefined
    if (!gl) return { renderer: null, software: true }
    const info = gl.getExtension('WEBGL_debug_renderer_info')
    const renderer = info ? String(gl.getParameter(info.UNMASKED_RENDERER_WEBGL)) : String(gl.getParameter(gl.RENDERER))
    gl.getExtension('WEBGL_lose_context')?.loseContext()
    return { renderer, software: isSoftwareRenderer(renderer) }
  } catch {
    return { renderer: null, software: true }
  }
}

/**
 * How many panes may hold a WebGL context: `max` for `webgl`, or for `auto` on a hardware GPU; 0
 * (every pane on the DOM renderer) for `dom`, or for `auto` on software WebGL.
 */
export function webglBudget(
  preference: TerminalRendererPreference,
  max: number,
  probe: () => WebglProbe = probeWebgl
): number {
  if (preference === 'dom') return 0
  if (preference === 'webgl') return max
  return probe().software ? 0 : max
}

/** The person's stored preference; `auto` when none (or an unknown value) is stored. */
export function storedRendererPreference(
  storage: KeyValueStorage | undefined = pageStorage()
): TerminalRendererPreference {
  return readStored(storage, TERMINAL_RENDERER_KEY, PreferenceSchema) ?? 'auto'
}
