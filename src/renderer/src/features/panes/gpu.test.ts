import { describe, expect, it } from 'vitest'
import { probeWebgl, storedRendererPreference, TERMINAL_RENDERER_KEY, webglBudget, type WebglProbe } from './gpu'

const probe = (renderer: string | null, software: boolean) => (): WebglProbe => ({ renderer, software })

/** A document whose canvas answers like a browser with the given WebGL2 renderer string (null: no WebGL2). */
function fakeDocument(renderer: string | null): { doc: Document; lost: () => boolean } {
  let lost = false
  const gl = {
    RENDERER: 0x1f01,
    getExtension: (name: string) =>
      name === 'WEBGL_debug_renderer_info'
        ? { UNMASKED_RENDERER_WEBGL: 0x9246 }
        : name === 'WEBGL_lose_context'
          ? { loseContext: () => (lost = true) }
          : null,
    getParameter: (p: number) => (p === 0x9246 ? renderer : 'WebKit WebGL')
  }
  const doc = {
    createElement: () => ({ getContext: (kind: string) => (kind === 'webgl2' && renderer !== null ? gl : null) })
  } as unknown as Document
  return { doc, lost: () => lost }
}

describe("the panes' renderer choice", () => {
  it('auto: WebGL on a hardware GPU, the DOM renderer on software WebGL or none', () => {
    expect(webglBudget('auto', 12, probe('ANGLE (NVIDIA, GeForce RTX 4070)', false))).toBe(12)
    expect(webglBudget('auto', 12, probe('SwiftShader', true))).toBe(0)
    expect(webglBudget('webgl', 12, probe('SwiftShader', true))).toBe(12)
    expect(webglBudget('dom', 12, probe('ANGLE (NVIDIA, GeForce RTX 4070)', false))).toBe(0)
  })

  it('tells software renderers from GPUs by the unmasked renderer string, and releases its probe context', () => {
    for (const [renderer, software] of [
      ['ANGLE (Google, Vulkan 1.3.0 (SwiftShader Device (Subzero) (0x0000C0DE)), SwiftShader driver)', true],
      ['llvmpipe (LLVM 15.0.6, 256 bits)', true],
      ['Microsoft Basic Render Driver', true],
      ['ANGLE (Intel, Mesa Intel(R) UHD Graphics 620 (KBL GT2), OpenGL 4.6)', false],
      ['Apple M2', false]
    ] as const) {
      const { doc, lost } = fakeDocument(renderer)
      expect(probeWebgl(doc)).toEqual({ renderer, software })
      expect(lost()).toBe(true)
    }
    expect(probeWebgl(fakeDocument(null).doc)).toEqual({ renderer: null, software: true })
  })

  it('reads the stored preference, ignoring anything it does not know', () => {
    const storage = (value: string | null) => ({
      getItem: (key: string) => (key === TERMINAL_RENDERER_KEY ? value : null),
      setItem: () => undefined
    })
    expect(storedRendererPreference(storage(null))).toBe('auto')
    expect(storedRendererPreference(storage('"dom"'))).toBe('dom')
    expect(storedRendererPreference(storage('"webgl"'))).toBe('webgl')
    expect(storedRendererPreference(storage('"vulkan"'))).toBe('auto')
    expect(storedRendererPreference(storage('not json'))).toBe('auto')
  })
})
