import { readFileSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import type { Browser } from '@playwright/test'
import { build } from 'esbuild'
import { packageRoot } from '../../src/main/runtime/packageRoot'
import { pageMemory, pageRendererPid } from './chromium'
import { figures, readProbe, runWindow, until, type UiFigures } from './measure'
import { benchLineSource, probeScript } from './probeScript'
import { offeredBytes, type UiLoad } from './scenario'
import { PROFILE, startProfiler, startTrace, TRACE, VIEWPORT } from './swarmdeskRun'

/** The baseline page on a loopback HTTP server. */
export interface BaselineSite {
  origin: string
  close(): Promise<void>
}

const PAGE = `<!doctype html>
<html><head><meta charset="utf-8"><title>bare xterm.js baseline</title>
<link rel="stylesheet" href="/xterm.css">
<style>
  html, body { margin: 0; height: 100%; background: #0f1115; }
  body { display: grid; grid-template-rows: minmax(0, 1fr) auto; }
  #grid { display: grid; gap: 6px; padding: 6px; align-content: start; overflow: hidden; }
  .tile { overflow: hidden; }
  #box { height: 60px; margin: 6px; font: 13px monospace; }
</style></head>
<body><div id="grid"></div><textarea id="box" aria-label="Baseline input"></textarea><script src="/baseline.js"></script></body></html>`

/** Bundles page/baseline.js (xterm and its addons) and serves it with xterm's stylesheet on 127.0.0.1. */
export async function startBaselineSite(): Promise<BaselineSite> {
  const root = packageRoot()
  const bundle = await build({ absWorkingDir: root, entryPoints: [join('bench', 'ui', 'page', 'baseline.js')], bundle: true, write: false, format: 'iife', platform: 'browser', target: 'chrome120', logLevel: 'warning' })
  const files: Record<string, { type: string; body: string | Uint8Array }> = {
    '/': { type: 'text/html', body: PAGE },
    '/baseline.js': { type: 'text/javascript', body: bundle.outputFiles[0]!.contents },
    '/xterm.css': { type: 'text/css', body: readFileSync(join(root, 'node_modules', '@xterm', 'xterm', 'css', 'xterm.css')) }
  }
  const server: Server = createServer((req, res) => {
    const file = files[new URL(req.url ?? '/', 'http://x').pathname]
    if (!file) return res.writeHead(404).end()
    res.writeHead(200, { 'content-type': file.type }).end(file.body)
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => new Promise((r) => server.close(() => r())) }
}

/**
 * The same load on bare xterm.js: `load.visible` terminals of Swarmdesk's tile size on a plain
 * page, the lines generated in the page at the same rate (no runtime, no transport), the same probe
 * and the same keystrokes into a plain text box.
 */
export async function runBaseline(browser: Browser, tag: string, site: BaselineSite, load: UiLoad, tile: { width: number; height: number }): Promise<UiFigures> {
  const context = await browser.newContext({ viewport: VIEWPORT })
  const shots = process.env.UI_BENCH_SCREENSHOTS
  try {
    const page = await context.newPage()
    await page.addInitScript({ content: probeScript({ readySelector: '#ready', inputSelector: '#box', wrapWebSocket: false }) })
    await page.goto(`${site.origin}/?visible=${load.visible}&w=${Math.max(tile.width, 80)}&h=${Math.max(tile.height, 40)}`)
    await until(async () => (await page.evaluate('window.__uiBench.firstPaintMs')) !== undefined, 30_000, 'the baseline page never painted')
    const renderers = (await page.evaluate('window.__baseline.renderers')) as { webgl: number; dom: number }
    const rendererPid = pageRendererPid(tag)
    const run = { streams: load.panes, rate: load.bytesPerSecond, seconds: load.seconds, benchLineSource: benchLineSource() }
    const profiler = PROFILE ? await startProfiler(page) : undefined
    const trace = TRACE ? await startTrace(page, join(TRACE, `baseline-${load.panes}-${load.visible}-${load.bytesPerSecond}.json`)) : undefined
    const window = await runWindow(page, {
      inputSelector: '#box',
      rendererPid,
      start: async () => void (await page.evaluate(`window.__baseline.run(${JSON.stringify({ ...run, startAt: Date.now() + 200 })})`)),
      finished: async () => (await page.evaluate('window.__baseline.done !== undefined')) as boolean,
      timeoutMs: load.seconds * 4_000 + 30_000,
      ...(shots ? { midway: { atMs: load.seconds * 500, run: async () => void (await page.screenshot({ path: join(shots, `baseline-${load.panes}-${load.visible}-${load.bytesPerSecond}.png`) })) } } : {})
    })
    await trace?.()
    if (profiler) writeFileSync(join(PROFILE!, `baseline-${load.panes}-${load.visible}-${load.bytesPerSecond}.cpuprofile`), JSON.stringify(await profiler()))
    const done = (await page.evaluate('window.__baseline.done')) as { lines: number; bytes: number; streams: number; startedAt: number; endedAt: number }
    const after = await pageMemory(page, rendererPid)
    return figures({
      readout: await readProbe(page),
      window,
      after,
      produced: { bytes: done.bytes * done.streams, offered: offeredBytes(load), seconds: (done.endedAt - done.startedAt) / 1000 },
      visiblePanes: load.visible,
      renderers
    })
  } finally {
    await context.close()
  }
}
