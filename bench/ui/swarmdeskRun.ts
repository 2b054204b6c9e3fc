import { execFileSync } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser, Page } from '@playwright/test'
import { pageMemory, pageRendererPid } from './chromium'
import { figures, readProbe, runWindow, sleep, until, type UiFigures } from './measure'
import { probeScript, type ProbeReadout } from './probeScript'
import { offeredBytes, producerName, producerScenario, type UiLoad } from './scenario'
import { startBenchServe } from './serve'

/** The desktop the benchmark's page gets (a 1080p screen: 16 tiles fit once both side panels are closed). */
export const VIEWPORT = { width: 1920, height: 1080 }

const LEADER_PANE = 'section.pane[data-agent-id="team-lead"]'
const PROMPT = 'textarea[aria-label="Message to the leader"]'

/** A Swarmdesk run's figures, plus what the baseline needs to copy and what only Swarmdesk has. */
export interface SwarmdeskFigures extends UiFigures {
  /** Visible producer panes whose terminal shows the producer's last line at the end. */
  lastLinesShown: number
  /** `pane.data` and `runtime.event` pushes the page received during the run. */
  paneDataPushes: number
  runtimeEventPushes: number
  /** WebSocket frames the page received during the run (the host sends the pushes of one tick as one frame). */
  socketFrames: number
  /** Times the page's WebSocket dropped and the client reconnected (the host cuts off only a client that reads nothing for 60 s). */
  reconnects: number
  /** Close codes of the dropped sockets (1006: cut off without a close frame, as the host's `terminate()` does). */
  closeCodes: number[]
  /** Lines `serve` logged about clients it cut off (a client that read nothing for 60 s); empty when a drop was not the host's doing. */
  hostCutoffs: string[]
  /** `pane.scrollback` requests: one per pane mounted, plus one per pane after each reconnect or gap. */
  scrollbackRequests: number
  /**
   * From the end of the output (every producer done) until the page had every line, ms (polled
   * every 100 ms): the backlog the page still had to work through. Undefined when some never came.
   */
  tailMs: number | undefined
}

/** A folder to save screenshots of each run in (`UI_BENCH_SCREENSHOTS`), for a person to look at. */
const SHOTS = process.env.UI_BENCH_SCREENSHOTS
/**
 * A folder to save a CPU profile of each page's main thread (Swarmdesk's and the baseline's)
 * during each run's output in (`UI_BENCH_PROFILE`; open the .cpuprofile in Chromium's DevTools),
 * and one of the `serve` process (runtime and web host) over its whole life (`host-….cpuprofile`).
 * Sampling costs frames: not for figures you report.
 */
export const PROFILE = process.env.UI_BENCH_PROFILE

/**
 * A folder to save a Chromium performance trace of each page during each run's output in
 * (`UI_BENCH_TRACE`; open the .json in DevTools' Performance panel, or read its events: every task,
 * frame, style, layout and paint of the page's main thread). Tracing costs frames too.
 */
export const TRACE = process.env.UI_BENCH_TRACE

/** Starts a performance trace of `page` into `file` (Chromium tracing); resolves to a function that stops it. */
export async function startTrace(page: Page, file: string): Promise<() => Promise<void>> {
  const browser = page.context().browser()!
  await browser.startTracing(page, {
    path: file,
    categories: [
      'devtools.timeline',
      'disabled-by-default-devtools.timeline',
      'disabled-by-default-devtools.timeline.frame',
      'blink.user_timing',
      'v8.execute'
    ]
  })
  return async () => void (await browser.stopTracing())
}

/** Starts the V8 sampling profiler of the page (CDP); resolves to a function that stops it and returns the profile. */
export async function startProfiler(page: Page): Promise<() => Promise<unknown>> {
  const cdp = await page.context().newCDPSession(page)
  await cdp.send('Profiler.enable')
  await cdp.send('Profiler.setSamplingInterval', { interval: 1000 })
  await cdp.send('Profiler.start')
  return async () => (await cdp.send('Profiler.stop')).profile
}

/** A fresh git repository for the workspace (removed by the caller). */
function tempRepo(): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'swarmdesk-bench-ui-repo-')))
  writeFileSync(join(dir, 'README.md'), '# bench\n')
  const git = (...args: string[]) =>
    execFileSync(
      'git',
      ['-c', 'user.name=Bench', '-c', 'user.email=bench@swarmdesk.invalid', '-c', 'commit.gpgsign=false', ...args],
      { cwd: dir, stdio: 'pipe' }
    )
  git('init', '-q', '-b', 'main')
  git('add', '.')
  git('commit', '-q', '-m', 'Initial commit')
  return dir
}

/** Producer files of `prefix` in `dir` (`ready-`, `done-`: producer.mjs). */
export const filesOf = (dir: string, prefix: string) => readdirSync(dir).filter((f) => f.startsWith(prefix))

/** The median size of the visible producer panes' terminals, px (the baseline's tiles copy it). */
async function terminalTile(page: Page): Promise<{ width: number; height: number }> {
  return (await page.evaluate(`(() => {
    const boxes = [...document.querySelectorAll('section.pane:not([data-agent-id="team-lead"]) .xterm')].map((e) => e.getBoundingClientRect()).filter((r) => r.width > 0)
    const mid = (xs) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0
    return { width: Math.round(mid(boxes.map((r) => r.width))), height: Math.round(mid(boxes.map((r) => r.height))) }
  })()`)) as { width: number; height: number }
}

/** Producer panes with at least 90% of their area on screen. */
async function visibleProducerPanes(page: Page): Promise<number> {
  return (await page.evaluate(`[...document.querySelectorAll('section.pane:not([data-agent-id="team-lead"])')].filter((e) => {
    const r = e.getBoundingClientRect()
    const w = Math.max(0, Math.min(r.right, innerWidth) - Math.max(r.left, 0))
    const h = Math.max(0, Math.min(r.bottom, innerHeight) - Math.max(r.top, 0))
    return r.width > 0 && r.height > 0 && (w * h) / (r.width * r.height) >= 0.9
  }).length`)) as number
}

/** How the producer panes' terminals draw (`data-renderer` of each pane's terminal host). */
async function producerRenderers(page: Page): Promise<{ webgl: number; dom: number }> {
  return (await page.evaluate(`(() => {
    const kinds = [...document.querySelectorAll('section.pane:not([data-agent-id="team-lead"]) [data-renderer]')].map((e) => e.dataset.renderer)
    return { webgl: kinds.filter((k) => k === 'webgl').length, dom: kinds.filter((k) => k === 'dom').length }
  })()`)) as { webgl: number; dom: number }
}

/**
 * One load through the real thing: `swarmdesk serve` on a scripted scenario whose leader starts
 * `load.panes` background subagents, each printing coloured lines from a real PTY
 * (producer.mjs), shown in Chromium on the built renderer. The side panels are closed so the
 * panes get the screen, the layout is Tiled, and the panes beyond `load.visible` are hidden with their × button.
 * Returns the figures and the terminal tile size for the baseline.
 * @throws Error when the workspace does not come up, a producer does not start or finish, or the page does not receive every line within 60 s after the output ended (bytes would then count as dropped, but a stuck run is a broken bench).
 */
export async function runSwarmdesk(
  browser: Browser,
  tag: string,
  load: UiLoad
): Promise<{ figures: SwarmdeskFigures; tile: { width: number; height: number } }> {
  const repo = tempRepo()
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'swarmdesk-bench-ui-producers-')))
  const serve = await startBenchServe(
    repo,
    producerScenario(load, dir),
    PROFILE ? { cpuProfile: join(PROFILE, `host-${load.panes}-${load.visible}-${load.bytesPerSecond}.cpuprofile`) } : {}
  )
  const context = await browser.newContext({ viewport: VIEWPORT })
  try {
    const page = await context.newPage()
    await page.addInitScript({
      content: probeScript({ readySelector: LEADER_PANE, inputSelector: PROMPT, wrapWebSocket: true })
    })
    await page.goto(serve.url)
    await until(
      async () => (await page.evaluate('window.__uiBench.firstPaintMs')) !== undefined,
      30_000,
      'the workspace never painted'
    )
    for (const name of ['Hide the team dashboard', 'Hide the side drawer'])
      await page.getByRole('button', { name }).click()
    await page.getByRole('radio', { name: 'Tiled' }).click()
    const prompt = page.locator(PROMPT)
    await until(() => prompt.isEnabled(), 30_000, 'the prompt box never became enabled')
    await prompt.fill('Start the producers.')
    await prompt.press('Enter')
    await until(
      () => filesOf(dir, 'ready-').length === load.panes,
      60_000,
      `not all ${load.panes} producers started (serve stderr: ${serve.stderr().slice(-2000)})`
    )
    await until(
      async () => (await page.locator('section.pane').count()) === load.panes + 1,
      30_000,
      `the page never showed ${load.panes + 1} panes`
    )
    const agentIds: string[] = []
    for (let i = 0; i < load.panes; i++)
      agentIds.push(
        (await page.locator(`section.pane[aria-label="${producerName(i)} pane"]`).getAttribute('data-agent-id')) ?? ''
      )
    for (let i = load.visible; i < load.panes; i++)
      await page.getByRole('button', { name: `Hide ${producerName(i)}'s pane` }).click()
    await until(
      async () => (await page.locator('section.pane').count()) === load.visible + 1,
      10_000,
      'hidden panes are still shown'
    )
    await until(() => prompt.isEnabled(), 30_000, "the leader's turn never ended")
    await sleep(500) // debounced fits and WebGL hand-outs settle
    const tile = await terminalTile(page)
    const visiblePanes = await visibleProducerPanes(page)
    const renderers = await producerRenderers(page)
    const rendererPid = pageRendererPid(tag)

    const profiler = PROFILE ? await startProfiler(page) : undefined
    const trace = TRACE
      ? await startTrace(page, join(TRACE, `swarmdesk-${load.panes}-${load.visible}-${load.bytesPerSecond}.json`))
      : undefined
    const window = await runWindow(page, {
      inputSelector: PROMPT,
      rendererPid,
      hostPid: serve.pid,
      start: async () => writeFileSync(join(dir, 'go'), String(Date.now() + 200)),
      finished: async () => filesOf(dir, 'done-').length === load.panes,
      timeoutMs: load.seconds * 4_000 + 30_000,
      ...(SHOTS
        ? {
            midway: {
              atMs: load.seconds * 500,
              run: async () =>
                void (await page.screenshot({
                  path: join(SHOTS, `swarmdesk-${load.panes}-${load.visible}-${load.bytesPerSecond}.png`)
                }))
            }
          }
        : {})
    })
    await trace?.()
    if (profiler)
      writeFileSync(
        join(PROFILE!, `swarmdesk-${load.panes}-${load.visible}-${load.bytesPerSecond}.cpuprofile`),
        JSON.stringify(await profiler())
      )
    const done = filesOf(dir, 'done-').map(
      (f) =>
        JSON.parse(readFileSync(join(dir, f), 'utf8')) as {
          agent: number
          lines: number
          bytes: number
          startedAt: number
          endedAt: number
        }
    )
    const producedLines = Array.from({ length: load.panes }, (_, i) => done.find((d) => d.agent === i)?.lines ?? 0)
    const tailMs = await settle(page, producedLines, agentIds)
    const lastLinesShown = await countLastLines(page, load, producedLines)
    const after = await pageMemory(page, rendererPid)
    const readout = await readProbe(page)
    const withheld = await showMuted(page, readout, producedLines, agentIds, done)
    const base = figures({
      readout,
      window,
      after,
      produced: {
        bytes: done.reduce((s, d) => s + d.bytes, 0),
        offered: offeredBytes(load),
        seconds: Math.max(...done.map((d) => (d.endedAt - d.startedAt) / 1000))
      },
      withheld,
      visiblePanes,
      renderers
    })
    return {
      figures: {
        ...base,
        lastLinesShown,
        paneDataPushes: readout.paneFrames,
        runtimeEventPushes: readout.eventFrames,
        socketFrames: readout.wsFrames,
        reconnects: readout.sockets - 1,
        closeCodes: readout.closeCodes,
        hostCutoffs: serve
          .stderr()
          .split('\n')
          .filter((l) => l.includes('cut off a client')),
        scrollbackRequests: readout.scrollbackRequests,
        tailMs
      },
      tile
    }
  } finally {
    await context.close()
    await serve.stop()
    rmSync(repo, { recursive: true, force: true })
    if (existsSync(dir)) rmSync(dir, { recursive: true, force: true })
  }
}

/** Visible producer panes whose terminal shows the producer's last line (waited for up to 10 s: xterm parses asynchronously). */
async function countLastLines(page: Page, load: UiLoad, producedLines: number[]): Promise<number> {
  const count = async (): Promise<number> => {
    let shown = 0
    for (let i = 0; i < load.visible; i++) {
      const agentId = await page
        .locator(`section.pane[aria-label="${producerName(i)} pane"]`)
        .getAttribute('data-agent-id')
      const text = (await page.evaluate(`window.__swarmdeskTest.paneText(${JSON.stringify(agentId)})`)) as string
      const last = `[bench a=${String(i).padStart(2, '0')} s=${String(producedLines[i]! - 1).padStart(7, '0')}]`
      if (text.includes(last)) shown++
    }
    return shown
  }
  let shown = 0
  await until(async () => (shown = await count()) === load.visible, 10_000, '').catch(() => undefined)
  return shown
}

/**
 * The producer panes the page muted (`pane.mute`: hidden, it dropped what it held and will restore
 * from main's scrollback when shown, so their output stopped crossing the socket), shown again
 * through the Hidden menu once the measuring is over: each that then shows its producer's last
 * line (waited for up to 20 s) counts its unreceived bytes as withheld; one that does not, as
 * dropped.
 */
async function showMuted(
  page: Page,
  readout: ProbeReadout,
  producedLines: number[],
  agentIds: string[],
  done: Array<{ agent: number; bytes: number }>
): Promise<{ panes: number; restored: number; bytes: number }> {
  const muted = agentIds.flatMap((agentId, index) =>
    readout.mutes[agentId] === true ? [{ index, agentId, bytes: readout.producers[index]?.bytes ?? 0 }] : []
  )
  if (muted.length === 0) return { panes: 0, restored: 0, bytes: 0 }
  for (const m of muted) {
    // the menu stays open while it lists more than one pane
    const item = page.getByRole('menuitem', { name: `Show ${producerName(m.index)}`, exact: true })
    if (!(await item.isVisible())) await page.getByRole('button', { name: /^Hidden \(\d+\) ▾$/ }).click()
    await item.click()
  }
  let restored = 0
  let bytes = 0
  for (const m of muted) {
    const last = `[bench a=${String(m.index).padStart(2, '0')} s=${String(producedLines[m.index]! - 1).padStart(7, '0')}]`
    const shown = await until(
      async () =>
        ((await page.evaluate(`window.__swarmdeskTest.paneText(${JSON.stringify(m.agentId)})`)) as string).includes(
          last
        ),
      20_000,
      ''
    ).then(
      () => true,
      () => false
    )
    if (!shown) continue
    restored++
    bytes += (done.find((d) => d.agent === m.index)?.bytes ?? 0) - m.bytes
  }
  return { panes: muted.length, restored, bytes }
}

/**
 * Waits for output still on its way (batcher, socket, parser): until every producer's last line
 * has arrived (or its pane is muted: its output no longer crosses the socket), or for 5 s neither a `pane.data` push has come nor the page has acknowledged
 * anything (a page still acknowledging is still working through output held back for it: that is
 * late, not dropped; what has not come by the end is dropped), at most 60 s.
 * @returns ms until every line had arrived, or undefined when some never did
 */
async function settle(page: Page, producedLines: number[], agentIds: string[]): Promise<number | undefined> {
  const start = Date.now()
  let progress = ''
  let quietSince = Date.now()
  let complete = false
  await until(
    async () => {
      const readout = await readProbe(page)
      const settled = (n: number, i: number) =>
        (readout.producers[i]?.next ?? 0) >= n || readout.mutes[agentIds[i]!] === true
      if (producedLines.every(settled)) return (complete = true)
      const now = `${readout.paneFrames}/${readout.ackRequests}`
      if (now !== progress) {
        progress = now
        quietSince = Date.now()
      }
      return Date.now() - quietSince > 5_000
    },
    60_000,
    ''
  ).catch(() => undefined)
  return complete ? Date.now() - start : undefined
}
