import { randomUUID } from 'node:crypto'
import { readdirSync, readFileSync } from 'node:fs'
import { chromium, type Browser, type Page } from '@playwright/test'
import { isSoftwareRenderer } from '../../src/renderer/src/features/panes/gpu'

/** Chromium flags of e2e/playwright.config.ts (STACK.md: Debian's chromium on a closed network). */
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync'
]

/** A headless Debian Chromium and the tag that finds its processes in /proc. */
export interface BenchBrowser {
  browser: Browser
  /** A switch only this browser's command line carries. */
  tag: string
}

/**
 * Launches Debian's Chromium (`SWARMDESK_CHROMIUM` or /usr/bin/chromium) headless, as the e2e
 * tests do, with a unique no-op switch so its renderer processes can be found for memory and CPU.
 */
export async function launchBenchBrowser(): Promise<BenchBrowser> {
  const tag = `--swarmdesk-bench-ui=${randomUUID()}`
  const browser = await chromium.launch({
    headless: true,
    executablePath: process.env.SWARMDESK_CHROMIUM ?? '/usr/bin/chromium',
    args: [...CHROMIUM_ARGS, tag]
  })
  return { browser, tag }
}

function readProc(pid: number, file: string): string | undefined {
  try {
    return readFileSync(`/proc/${pid}/${file}`, 'utf8')
  } catch {
    return undefined
  }
}

/** Resident memory of a process, bytes (VmRSS); 0 once it is gone. */
export function rssBytes(pid: number): number {
  const kb = /VmRSS:\s+(\d+) kB/.exec(readProc(pid, 'status') ?? '')?.[1]
  return kb ? Number(kb) * 1024 : 0
}

/** CPU time a process used so far (user + system), ms; assumes the usual 100 clock ticks a second. */
export function cpuMs(pid: number): number {
  const stat = readProc(pid, 'stat') ?? ''
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  return (Number(fields[11] ?? 0) + Number(fields[12] ?? 0)) * 10
}

/** The renderer processes of the browser launched with `tag` (descendants with `--type=renderer`). */
export function rendererPids(tag: string): number[] {
  const parents = new Map<number, number>()
  const cmdlines = new Map<number, string>()
  for (const name of readdirSync('/proc')) {
    const pid = Number(name)
    if (!Number.isInteger(pid)) continue
    const stat = readProc(pid, 'stat')
    const cmdline = readProc(pid, 'cmdline')
    if (!stat || cmdline === undefined) continue
    parents.set(pid, Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]))
    cmdlines.set(pid, cmdline.replace(/\0/g, ' '))
  }
  const root = [...cmdlines].find(([, c]) => c.includes(tag) && !c.includes('--type='))?.[0]
  if (root === undefined) return []
  const underRoot = (pid: number): boolean => {
    for (let p: number | undefined = pid, hops = 0; p !== undefined && p > 1 && hops < 16; p = parents.get(p), hops++)
      if (p === root) return true
    return false
  }
  return [...cmdlines].filter(([pid, c]) => c.includes('--type=renderer') && underRoot(pid)).map(([pid]) => pid)
}

/**
 * The renderer process of the only page open in the browser: the largest of its renderers (a
 * spare renderer Chromium keeps warm holds far less). undefined when none is found (not Linux).
 */
export function pageRendererPid(tag: string): number | undefined {
  return rendererPids(tag)
    .map((pid) => ({ pid, rss: rssBytes(pid) }))
    .sort((a, b) => b.rss - a.rss)[0]?.pid
}

/** Memory of a page after a full garbage collection: renderer RSS, JS heap and DOM nodes. */
export interface PageMemory {
  rssBytes: number
  jsHeapBytes: number
  domNodes: number
}

/** Collects garbage in the page (CDP HeapProfiler), then reads its memory. */
export async function pageMemory(page: Page, rendererPid: number | undefined): Promise<PageMemory> {
  const cdp = await page.context().newCDPSession(page)
  try {
    await cdp.send('HeapProfiler.collectGarbage')
    await cdp.send('Performance.enable')
    const { metrics } = await cdp.send('Performance.getMetrics')
    const { nodes } = await cdp.send('Memory.getDOMCounters')
    return {
      rssBytes: rendererPid === undefined ? 0 : rssBytes(rendererPid),
      jsHeapBytes: metrics.find((m) => m.name === 'JSHeapUsedSize')?.value ?? 0,
      domNodes: nodes
    }
  } finally {
    await cdp.detach()
  }
}

/** What draws WebGL in the benchmark's Chromium: the unmasked renderer string, and whether it is a software rasteriser. */
export interface WebglSupport {
  /** `UNMASKED_RENDERER_WEBGL` of a WebGL2 context (e.g. "ANGLE (Google, Vulkan 1.3.0 (SwiftShader Device …))"); null when WebGL2 is unavailable. */
  renderer: string | null
  /** SwiftShader, llvmpipe and the like: WebGL drawn on the CPU, in the GPU process (the panes' own test, gpu.ts). */
  software: boolean
}

/** Asks a blank page of `browser` for a WebGL2 context and reports what renders it. */
export async function webglSupport(browser: Browser): Promise<WebglSupport> {
  const context = await browser.newContext()
  try {
    const page = await context.newPage()
    const renderer = (await page.evaluate(`(() => {
      const gl = document.createElement('canvas').getContext('webgl2')
      if (!gl) return null
      const info = gl.getExtension('WEBGL_debug_renderer_info')
      return info ? String(gl.getParameter(info.UNMASKED_RENDERER_WEBGL)) : String(gl.getParameter(gl.RENDERER))
    })()`)) as string | null
    return { renderer, software: renderer !== null && isSoftwareRenderer(renderer) }
  } finally {
    await context.close()
  }
}
