import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import type { Browser } from '@playwright/test'
import { build } from 'esbuild'
import { packageRoot } from '../../src/main/runtime/install/packageRoot'
import { pageMemory, pageRendererPid } from './chromium'
import { figures, readProbe, runWindow, until, type UiFigures } from './measure'
import { benchLineSource, probeScript } from './probeScript'
import { offeredBytes, type UiLoad } from './scenario'
import { filesOf, PROFILE, startProfiler, startTrace, TRACE, VIEWPORT } from './swarmdeskRun'

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
  const bundle = await build({
    absWorkingDir: root,
    entryPoints: [join('bench', 'ui', 'page', 'baseline.js')],
    bundle: true,
    write: false,
    format: 'iife',
    platform: 'browser',
    target: 'chrome120',
    logLevel: 'warning'
  })
  const files: Record<string, { type: string; body: string | Uint8Array }> = {
    '/': { type: 'text/html', body: PAGE },
    '/baseline.js': { type: 'text/javascript', body: bundle.outputFiles[0]!.contents },
    '/xterm.css': {
      type: 'text/css',
      body: readFileSync(join(root, 'node_modules', '@xterm', 'xterm', 'css', 'xterm.css'))
    }
  }
  const server: Server = createServer((req, res) => {
    const file = files[new URL(req.url ?? '/', 'http://x').pathname]
    if (!file) return res.writeHead(404).end()
    res.writeHead(200, { 'content-type': file.type }).end(file.body)
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((r) => server.close(() => r()))
  }
}

/**
 * The same load on bare xterm.js: `load.visible` terminals of Swarmdesk's tile size on a plain
 * page, the lines generated in the page at the same rate (no runtime, no transport), the same probe
 * and the same keystrokes into a plain text box.
 *
 * With `producers`, the Swarmdesk run's `load.panes` producer processes (producer.mjs, the agents'
 * commands) run beside the page at the same rate, from the same start, their output going to
 * /dev/null: bare xterm.js on a machine as busy with the agents' commands as Swarmdesk's was, but
 * with no runtime reading them. What Swarmdesk then misses beyond this is its own doing.
 * @throws Error when the page does not paint, or a producer does not start within 30 s.
 */
export async function runBaseline(
  browser: Browser,
  tag: string,
  site: BaselineSite,
  load: UiLoad,
  tile: { width: number; height: number },
  options: { producers?: boolean } = {}
): Promise<UiFigures> {
  const context = await browser.newContext({ viewport: VIEWPORT })
  const shots = process.env.UI_BENCH_SCREENSHOTS
  const background = options.producers ? await startProducers(load) : undefined
  const name = `${options.producers ? 'baseline-loaded' : 'baseline'}-${load.panes}-${load.visible}-${load.bytesPerSecond}`
  try {
    const page = await context.newPage()
    await page.addInitScript({
      content: probeScript({ readySelector: '#ready', inputSelector: '#box', wrapWebSocket: false })
    })
    await page.goto(
      `${site.origin}/?visible=${load.visible}&w=${Math.max(tile.width, 80)}&h=${Math.max(tile.height, 40)}`
    )
    await until(
      async () => (await page.evaluate('window.__uiBench.firstPaintMs')) !== undefined,
      30_000,
      'the baseline page never painted'
    )
    const renderers = (await page.evaluate('window.__baseline.renderers')) as { webgl: number; dom: number }
    const rendererPid = pageRendererPid(tag)
    const run = {
      streams: load.panes,
      rate: load.bytesPerSecond,
      seconds: load.seconds,
      benchLineSource: benchLineSource()
    }
    const profiler = PROFILE ? await startProfiler(page) : undefined
    const trace = TRACE ? await startTrace(page, join(TRACE, `${name}.json`)) : undefined
    const window = await runWindow(page, {
      inputSelector: '#box',
      rendererPid,
      start: async () => {
        const startAt = Date.now() + 200
        background?.go(startAt)
        await page.evaluate(`window.__baseline.run(${JSON.stringify({ ...run, startAt })})`)
      },
      finished: async () => (await page.evaluate('window.__baseline.done !== undefined')) as boolean,
      timeoutMs: load.seconds * 4_000 + 30_000,
      ...(shots
        ? {
            midway: {
              atMs: load.seconds * 500,
              run: async () => void (await page.screenshot({ path: join(shots, `${name}.png`) }))
            }
          }
        : {})
    })
    await trace?.()
    if (profiler) writeFileSync(join(PROFILE!, `${name}.cpuprofile`), JSON.stringify(await profiler()))
    const done = (await page.evaluate('window.__baseline.done')) as {
      lines: number
      bytes: number
      streams: number
      startedAt: number
      endedAt: number
    }
    const after = await pageMemory(page, rendererPid)
    return figures({
      readout: await readProbe(page),
      window,
      after,
      produced: {
        bytes: done.bytes * done.streams,
        offered: offeredBytes(load),
        seconds: (done.endedAt - done.startedAt) / 1000
      },
      visiblePanes: load.visible,
      renderers
    })
  } finally {
    await context.close()
    await background?.stop()
  }
}

/** The load's producers writing to /dev/null, each ready and waiting for `go(startAt)`. */
async function startProducers(load: UiLoad): Promise<{ go(startAt: number): void; stop(): Promise<void> }> {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'swarmdesk-bench-ui-baseline-')))
  const producer = join(packageRoot(), 'bench', 'ui', 'producer.mjs')
  const children: ChildProcess[] = Array.from({ length: load.panes }, (_, i) =>
    spawn(process.execPath, [producer, String(i), String(load.bytesPerSecond), String(load.seconds), dir], {
      stdio: ['ignore', 'ignore', 'inherit']
    })
  )
  const exited = children.map((c) => new Promise<void>((r) => (c.exitCode !== null ? r() : c.once('exit', () => r()))))
  const stop = async () => {
    for (const c of children) if (c.exitCode === null) c.kill('SIGKILL')
    await Promise.all(exited)
    if (existsSync(dir)) rmSync(dir, { recursive: true, force: true })
  }
  try {
    await until(
      () => filesOf(dir, 'ready-').length === load.panes,
      30_000,
      `not all ${load.panes} baseline producers started`
    )
  } catch (error) {
    await stop()
    throw error
  }
  return {
    go: (startAt) => writeFileSync(join(dir, 'go'), String(startAt)),
    stop: async () => {
      // they finish on their own at the end of the load; a run that ended early ends them
      await Promise.race([Promise.all(exited), new Promise((r) => setTimeout(r, load.seconds * 1500 + 5_000))])
      await stop()
    }
  }
}
