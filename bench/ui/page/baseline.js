// The baseline of the UI benchmark: bare xterm.js terminals on a plain page, no Swarmdesk. The
// same terminal options and renderer choice as a Swarmdesk pane (WebGL for up to 12 visible
// terminals, in try/catch, else the DOM renderer — or the DOM renderer for all where WebGL runs in
// software, by the panes' own probe, gpu.ts; fit to a tile of the size the panes had), fed
// the same benchmark lines at the same rate, 60 writes a second per terminal (what main's pane
// batcher sends at most), generated in the page itself: no transport at all. Streams that are not
// visible are generated and counted but written to no terminal, like a hidden pane's output.
// Plain JavaScript, bundled by esbuild for the page (bench/ui/baseline.ts).
import { FitAddon } from '@xterm/addon-fit'
import { WebglAddon } from '@xterm/addon-webgl'
import { Terminal } from '@xterm/xterm'
import { storedRendererPreference, webglBudget } from '../../../src/renderer/src/features/panes/gpu'
import { DEFAULT_PANE_SCROLLBACK_LINES } from '../../../src/shared/paneScrollback'

/** Same as src/renderer/src/features/panes/terminal.ts. */
const THEME = {
  background: '#0f1115',
  foreground: '#d7dae0',
  cursor: '#d7dae0',
  selectionBackground: '#3a4a66',
  black: '#1b1f27',
  red: '#ef6b73',
  green: '#7ad67a',
  yellow: '#e5c07b',
  blue: '#5fa8ff',
  magenta: '#c678dd',
  cyan: '#56d4dd',
  white: '#d7dae0',
  brightBlack: '#5c6370'
}
const MAX_WEBGL = webglBudget(storedRendererPreference(), 12)
const FLUSH_MS = 1000 / 60

const params = new URLSearchParams(location.search)
const visible = Number(params.get('visible'))
const tileWidth = Number(params.get('w'))
const tileHeight = Number(params.get('h'))

const grid = document.getElementById('grid')
grid.style.gridTemplateColumns = `repeat(auto-fill, ${tileWidth}px)`
grid.style.gridAutoRows = `${tileHeight}px`
const terminals = []
const renderers = { webgl: 0, dom: 0 }
for (let i = 0; i < visible; i++) {
  const host = document.createElement('div')
  host.className = 'tile'
  grid.appendChild(host)
  const term = new Terminal({
    theme: THEME,
    fontFamily: '"JetBrains Mono", "Fira Code", "Cascadia Code", Menlo, Consolas, "DejaVu Sans Mono", monospace',
    fontSize: 13,
    lineHeight: 1.15,
    // a pane's terminal keeps the paneScrollbackLines setting's lines; the benchmark runs at its default
    scrollback: DEFAULT_PANE_SCROLLBACK_LINES,
    disableStdin: true,
    cursorBlink: false,
    cursorInactiveStyle: 'none',
    allowProposedApi: true
  })
  const fit = new FitAddon()
  term.loadAddon(fit)
  term.open(host)
  let renderer = 'dom'
  if (i < MAX_WEBGL) {
    try {
      term.loadAddon(new WebglAddon())
      renderer = 'webgl'
    } catch {
      /* WebGL2 missing: the DOM renderer, as a pane would */
    }
  }
  renderers[renderer]++
  fit.fit()
  terminals.push(term)
}
const ready = document.createElement('div')
ready.id = 'ready'
document.body.appendChild(ready)

/**
 * Starts the output: `streams` producers of `rate` bytes a second for `seconds` seconds, from
 * `startAt` (epoch ms). `window.__baseline.done` is set when every line is out.
 */
function run({ streams, rate, seconds, startAt, benchLineSource }) {
  const benchLine = new Function(`return (${benchLineSource})`)()
  const lineBytes = benchLine(0, 0).length
  const total = Math.floor((rate * seconds) / lineBytes)
  const seqs = new Array(streams).fill(0)
  let startedAt
  const tick = () => {
    const now = Date.now()
    if (now < startAt) return setTimeout(tick, startAt - now)
    startedAt ??= now
    const due = Math.min(total, Math.floor((((now - startedAt) / 1000) * rate) / lineBytes))
    for (let i = 0; i < streams; i++) {
      let chunk = ''
      // a PTY turns "\n" into "\r\n"
      while (seqs[i] < due) chunk += benchLine(i, seqs[i]++).slice(0, -1) + '\r\n'
      if (!chunk) continue
      if (i < terminals.length) terminals[i].write(chunk)
      window.__uiBench.receive(`stream-${i}`, chunk)
    }
    if (seqs.every((s) => s >= total)) {
      window.__baseline.done = { lines: total, bytes: total * lineBytes, streams, startedAt, endedAt: Date.now() }
      return
    }
    setTimeout(tick, FLUSH_MS)
  }
  tick()
}

window.__baseline = { run, renderers, done: undefined }
