// In-page instrumentation of the UI benchmark, installed before any of the page's scripts (Playwright
// addInitScript) in the Swarmdesk page and in the baseline page alike, so both pay the same
// measuring costs. Plain JavaScript: the page's code is not part of the Node typecheck.
//
// The bench injects `(installUiBenchProbe)(config, benchLine)` where config is
//   { readySelector: string,   // the element whose first painted frame is "first paint"
//     inputSelector: string,   // the text box whose keystrokes are timed
//     wrapWebSocket: boolean } // count `pane.data` pushes arriving over the page's WebSocket
// and benchLine is line.mjs's function. Everything is read back from `window.__uiBench`.

// eslint-disable-next-line @typescript-eslint/no-unused-vars -- never called here: probeScript.ts injects its source into the page
function installUiBenchProbe(config, benchLine) {
  const probe = {
    /** requestAnimationFrame deltas (ms) while recording. */
    frames: [],
    /** Keystroke → character in the box and the next frame painted (ms), while recording. */
    inputs: [],
    /** Keystrokes whose character was not at the end of the box afterwards. */
    inputMisses: 0,
    /** Long tasks (≥ 50 ms) while recording: count and total ms. */
    longTasks: 0,
    longTaskMs: 0,
    /** performance.now() when readySelector's element was first painted; undefined before. */
    firstPaintMs: undefined,
    /** First contentful paint of the document (ms since navigation), when the browser reports it. */
    firstContentfulPaintMs: undefined,
    recording: false,
    /** WebSocket frames seen (a frame may carry several pushes), `pane.data` pushes, `runtime.event` pushes; characters of all frames. */
    wsFrames: 0,
    paneFrames: 0,
    eventFrames: 0,
    wsChars: 0,
    /** WebSockets the page opened (more than 1: the connection dropped and the client reconnected), closes seen, `pane.scrollback` requests sent. */
    sockets: 0,
    socketCloses: 0,
    /** Close codes of the sockets that closed (1006: cut off without a close frame, e.g. terminated by the host). */
    closeCodes: [],
    scrollbackRequests: 0,
    /** `pane.ack` requests the page sent (it is still working through received output while they go on). */
    ackRequests: 0,
    /** `pane.mute` requests the page sent, and each agent's latest (true: its live output stopped crossing the socket). */
    muteRequests: 0,
    mutes: {},
    /** performance.now() when the last benchmark line arrived whole. */
    lastLineAt: undefined,
    /** Per producer index: whole lines received in order, their bytes as produced, gaps, corrupt lines, repeats. */
    producers: {},
    /** Characters of pane output received per pane (agent id), benchmark lines or not. */
    paneChars: {},
    start() {
      this.frames = []
      this.inputs = []
      this.inputMisses = 0
      this.longTasks = 0
      this.longTaskMs = 0
      lastFrame = undefined
      this.recording = true
    },
    stop() {
      this.recording = false
    },
    /** Takes pane output as the page received it (the WebSocket wrapper, or the baseline's generator). */
    receive
  }
  Object.defineProperty(window, '__uiBench', { value: probe, configurable: true })

  // Frame times: the gap between consecutive animation frames (16.7 ms at 60 Hz when nothing is late).
  let lastFrame
  const onFrame = (t) => {
    if (probe.recording && lastFrame !== undefined) probe.frames.push(t - lastFrame)
    lastFrame = t
    requestAnimationFrame(onFrame)
  }
  requestAnimationFrame(onFrame)

  /** Runs `done` once the frame after now has been painted (rAF runs before paint; a message after it runs after). */
  const afterPaint = (done) =>
    requestAnimationFrame(() => {
      const channel = new MessageChannel()
      channel.port1.onmessage = () => done()
      channel.port2.postMessage(0)
    })

  try {
    new PerformanceObserver((list) => {
      if (!probe.recording) return
      for (const e of list.getEntries()) {
        probe.longTasks++
        probe.longTaskMs += e.duration
      }
    }).observe({ type: 'longtask', buffered: false })
  } catch {
    /* no Long Tasks API: the counts stay 0 */
  }
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries())
        if (e.name === 'first-contentful-paint') probe.firstContentfulPaintMs = e.startTime
    }).observe({ type: 'paint', buffered: true })
  } catch {
    /* no Paint Timing API */
  }

  // First paint of the workspace: the first frame painted with readySelector's element in the DOM.
  const watchReady = () => {
    if (document.querySelector(config.readySelector)) {
      afterPaint(() => (probe.firstPaintMs = performance.now()))
      return true
    }
    return false
  }
  const observer = new MutationObserver(() => {
    if (watchReady()) observer.disconnect()
  })
  observer.observe(document, { subtree: true, childList: true })

  // Input latency: keydown's timeStamp (when the browser took the key, queueing included) to the
  // frame painted after the `input` event put the character in the box.
  let pending
  document.addEventListener(
    'keydown',
    (e) => {
      if (
        probe.recording &&
        e.key.length === 1 &&
        e.target instanceof Element &&
        e.target.matches(config.inputSelector)
      )
        pending = { key: e.key, t0: e.timeStamp, target: e.target }
    },
    true
  )
  document.addEventListener(
    'input',
    (e) => {
      if (!pending || e.target !== pending.target) return
      const p = pending
      pending = undefined
      if (!String(e.target.value).endsWith(p.key)) {
        probe.inputMisses++
        return
      }
      afterPaint(() => {
        if (probe.recording) probe.inputs.push(performance.now() - p.t0)
      })
    },
    true
  )

  // Received output, checked line by line against the producer's own line.
  const LINE_BYTES = benchLine(0, 0).length
  const MARK = '[bench a='
  const rests = new Map()
  function receive(agentId, data) {
    probe.paneChars[agentId] = (probe.paneChars[agentId] ?? 0) + data.length
    const text = (rests.get(agentId) ?? '') + data
    let from = 0
    for (;;) {
      const nl = text.indexOf('\n', from)
      if (nl < 0) break
      checkLine(text.slice(from, nl))
      from = nl + 1
    }
    // A line never legitimately runs this long: keep the tail only, so a broken stream cannot eat memory.
    const rest = text.slice(from)
    rests.set(agentId, rest.length > 65536 ? rest.slice(-4096) : rest)
  }
  function checkLine(raw) {
    const at = raw.indexOf(MARK)
    if (at < 0) return
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw
    const agent = Number(line.substr(at + MARK.length, 2))
    const seq = Number(line.substr(at + MARK.length + 5, 7))
    const p = (probe.producers[agent] ??= { lines: 0, bytes: 0, next: 0, gaps: 0, corrupt: 0, repeats: 0 })
    if (!Number.isInteger(agent) || !Number.isInteger(seq) || !line.endsWith(benchLine(agent, seq).slice(0, -1))) {
      p.corrupt++
      return
    }
    if (seq < p.next) {
      p.repeats++
      return
    }
    if (seq > p.next) p.gaps += seq - p.next
    p.next = seq + 1
    probe.lastLineAt = performance.now()
    p.lines++
    p.bytes += LINE_BYTES
  }

  if (config.wrapWebSocket) {
    // The host sends one push as a `push` frame and several made together as one `pushes` frame.
    const PUSH = '{"kind":"push",'
    const PUSHES = '{"kind":"pushes",'
    const count = (push) => {
      if (push.channel === 'pane.data') {
        probe.paneFrames++
        receive(push.payload.agentId, push.payload.data)
      } else if (push.channel === 'runtime.event') probe.eventFrames++
    }
    const Native = window.WebSocket
    class CountingWebSocket extends Native {
      constructor(...args) {
        super(...args)
        probe.sockets++
        this.addEventListener('close', (ev) => {
          probe.socketCloses++
          probe.closeCodes.push(ev.code)
        })
        this.addEventListener('message', (ev) => {
          if (typeof ev.data !== 'string') return
          probe.wsFrames++
          probe.wsChars += ev.data.length
          if (ev.data.startsWith(PUSH)) count(JSON.parse(ev.data))
          else if (ev.data.startsWith(PUSHES)) for (const push of JSON.parse(ev.data).pushes) count(push)
        })
      }
    }
    const send = Native.prototype.send
    CountingWebSocket.prototype.send = function (data) {
      if (typeof data === 'string' && data.includes('"channel":"pane.scrollback"')) probe.scrollbackRequests++
      if (typeof data === 'string' && data.includes('"channel":"pane.ack"')) probe.ackRequests++
      if (typeof data === 'string' && data.includes('"channel":"pane.mute"')) {
        const { agentId, muted } = JSON.parse(data).payload
        probe.muteRequests++
        probe.mutes[agentId] = muted
      }
      return send.call(this, data)
    }
    window.WebSocket = CountingWebSocket
  }
}
