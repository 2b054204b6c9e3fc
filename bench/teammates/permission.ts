import { LEAD_NAME } from '../../src/main/runtime/teams'
import { createTeamContext } from '../../src/main/runtime/teamStore'
import { randomUUID } from 'node:crypto'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { BroadcastChannel, Worker } from 'node:worker_threads'
import { parseMessageBody } from '../../src/shared/mailbox'
import type { PermissionPromptAnswer, PermissionPromptRequest } from '../../src/shared/permissions'
import { EventBus } from '../../src/main/runtime/events/bus'
import { createMailbox } from '../../src/main/runtime/mailbox'
import type { PermissionPrompter } from '../../src/main/runtime/permissions/prompter'
import { createPtyHost } from '../../src/main/runtime/pty'
import { startScriptedServer } from '../../src/main/runtime/scripted'

import { TeammateExecutorRegistry, type TeammateBackend } from '../../src/main/runtime/teammates/executor'
import { ProcessTeammateExecutor } from '../../src/main/runtime/teammates/process'
import { TeammateSupervisor } from '../../src/main/runtime/teammates/supervisor'
import { WorkerTeammateExecutor } from '../../src/main/runtime/teammates/worker'
import { UiPrompter } from '../../src/main/app/uiPrompter'
import { createWorkspace, MODEL, sleep, spread, STAMP_CHANNEL, until, writeInstrumentedWorkerPrelude } from './harness'

/** Bound on the whole run of one backend's samples, ms. */
const WAIT_MS = 90_000

/** Gap between two baseline samples, ms (the teammate's requests are spaced by a model turn and a command). */
const BASELINE_GAP_MS = 10

/** Figures of one backend's permission path. Latencies in ms. */
export interface PermissionFigures {
  backend: TeammateBackend
  /** 1-minute load average when the measurement started (2 cores): other work on the machine slows every figure here. */
  loadAverage1m: number
  /** Bash calls scripted for the teammate, each of which the gate must put to a person. */
  samples: number
  /** Requests listed by the leader's UI prompter (must equal `samples`). */
  bubblesShown: number
  /** Commands that ran after their allow came back (each writes its own file; must equal `samples`). */
  commandsRun: number
  /**
   * Request created → bubble shown. "Created": worker — the teammate's bridge prompter posts
   * `permission.prompt` on its port (stamped in the worker thread by an instrumented entry that
   * wraps the real bundle); process — the `permission_request` message is made for the leader's
   * inbox (its `timestamp`, taken just before the file is written). "Bubble shown": the leader's
   * UiPrompter — the prompter the workspace gives both backends and the supervisor — lists the
   * request (its onDidChange fires, which is when the workspace pushes `permissions.changed` to
   * the window). The path between is the real wiring: worker executor → prompter; process →
   * leader inbox watch → TeammateSupervisor → prompter.
   */
  requestToBubbleP50Ms: number
  requestToBubbleP95Ms: number
  requestToBubbleMaxMs: number
  /** Request created → the leader's prompter called (just before UiPrompter.prompt; the rest is its own work). */
  requestToPrompterCallP50Ms: number
  /** worker: `process.hrtime` in both threads (one monotonic clock, µs); process: the wall clock of two processes in whole ms (±1 ms a sample). */
  clock: string
  /**
   * The bare transport of each path, same process, after the teammate is gone: worker — a bare
   * worker's `postMessage` to the main thread (sent → 'message' handler); process — a mailbox
   * `send` to an inbox → that inbox's `onDidReceive` listener (the same watch the supervisor uses;
   * the writer is this process, where the teammate's is another one).
   */
  baseline: { what: string; samples: number; p50Ms: number; p95Ms: number; maxMs: number }
}

/** An instant on both clocks. */
interface Stamp {
  hr: bigint
  wall: number
}
const stamp = (): Stamp => ({ hr: process.hrtime.bigint(), wall: Date.now() })
const hrMs = (from: bigint, to: bigint): number => Number(to - from) / 1e6

/**
 * A `default`-mode teammate of `backend` runs `samples` Bash commands that write a file in the
 * workspace (`echo hi` alone is read-only and allowed without asking), one per model turn; each
 * goes through its permission gate to the leader, where a person (this benchmark) allows it as
 * soon as the bubble is listed. Measures request → bubble, then the bare baseline.
 */
export async function measurePermission(backend: TeammateBackend, samples: number): Promise<PermissionFigures> {
  const loadAverage1m = Math.round(loadavg()[0]! * 100) / 100
  const ws = createWorkspace(`perm-${backend}`)
  const entryDir = mkdtempSync(join(tmpdir(), 'swarmdesk-bench-teammates-entry-'))
  const turns = [
    ...Array.from({ length: samples }, (_, i) => ({
      tools: [{ name: 'Bash', input: { command: `echo hi > perm-${i}.txt` } }]
    })),
    { text: 'All done.' }
  ]
  const server = await startScriptedServer({ scenario: { strict: true, agents: { asker: turns } } })
  const pty = createPtyHost()
  const bus = new EventBus()

  // the leader's side: the workspace's UI prompter, answered "allow" by the benchmark once listed
  const ui = new UiPrompter(ws.work)
  const called = new Map<string, Stamp>()
  const shown = new Map<string, Stamp>()
  const answered = new Set<string>()
  const prompter: PermissionPrompter = {
    prompt(request: PermissionPromptRequest, signal: AbortSignal): Promise<PermissionPromptAnswer> {
      called.set(request.requestId, stamp())
      return ui.prompt(request, signal)
    }
  }
  const uiSub = ui.onDidChange((list) => {
    const now = stamp()
    for (const view of list) {
      if (shown.has(view.requestId)) continue
      shown.set(view.requestId, now)
      setImmediate(() => {
        if (ui.respond(view.requestId, { decision: 'allow' })) answered.add(view.requestId)
      })
    }
  })

  // worker: when the bridge posted each question, stamped in the worker thread
  const created = new Map<string, bigint>()
  const channel = new BroadcastChannel(STAMP_CHANNEL)
  channel.onmessage = (event) => {
    const data = (event as { data: { requestId: string; at: string } }).data
    created.set(data.requestId, BigInt(data.at))
  }
  const prelude = writeInstrumentedWorkerPrelude(entryDir)

  // as createTeammateBackends, with the instrumented prelude for the worker backend
  const registry = new TeammateExecutorRegistry()
  registry.register(new WorkerTeammateExecutor({ bus, pty, prompter, prelude, codeCacheDir: join(entryDir, 'v8') }))
  registry.register(new ProcessTeammateExecutor({ bus, pty }))
  const team = 'bench'
  const sessionId = randomUUID()
  const context = createTeamContext({ home: ws.home, sessionId, bus, leaderName: LEAD_NAME })
  let supervisor: TeammateSupervisor | undefined
  try {
    await context.store.config.create({
      name: team,
      description: 'teammates benchmark',
      lead: { name: LEAD_NAME, agentType: 'main', model: MODEL, backendType: 'main', cwd: ws.work }
    })
    context.setTeam(team)
    supervisor = new TeammateSupervisor({
      cwd: ws.work,
      sessionId,
      bus,
      team: context,
      registry,
      defaultBackend: backend,
      prompter,
      askPersonForPlans: true,
      enqueue: () => undefined,
      modelEnv: () => ({
        ANTHROPIC_BASE_URL: server.url,
        SWARMDESK_SCRIPTED_MODEL_URL: server.url,
        ANTHROPIC_API_KEY: 'bench-key'
      })
    })
    await supervisor.spawn({
      name: 'asker',
      prompt: 'Run the commands.',
      description: 'asks for permission',
      agentType: 'general-purpose',
      model: MODEL,
      backend,
      mode: 'default'
    })
    const commandsRun = (): number =>
      Array.from({ length: samples }, (_, i) => existsSync(join(ws.work, `perm-${i}.txt`))).filter(Boolean).length
    await until(
      `${samples} permission bubbles of the ${backend} teammate, each allowed and its command run`,
      () => answered.size >= samples && commandsRun() >= samples,
      WAIT_MS
    )

    let createdAt: Map<string, Stamp>
    if (backend === 'worker') {
      await until('every stamp from the worker', () => [...shown.keys()].every((id) => created.has(id)), 5_000)
      createdAt = new Map([...created].map(([id, hr]) => [id, { hr, wall: Number.NaN }]))
    } else {
      createdAt = new Map()
      for (const { message } of await context.store.mailbox.read(team, LEAD_NAME)) {
        const body = parseMessageBody(message.text)
        if (body.kind === 'structured' && body.body.type === 'permission_request')
          createdAt.set(body.body.requestId, { hr: 0n, wall: Date.parse(message.timestamp) })
      }
    }
    const ids = [...shown.keys()]
    const missing = ids.filter((id) => !createdAt.has(id))
    if (missing.length) throw new Error(`no creation time for bubbles ${missing.join(', ')}`)
    const latency =
      (at: Map<string, Stamp>) =>
      (id: string): number =>
        backend === 'worker' ? hrMs(createdAt.get(id)!.hr, at.get(id)!.hr) : at.get(id)!.wall - createdAt.get(id)!.wall
    const toBubble = spread(ids.map(latency(shown)))
    const toCall = spread(ids.map(latency(called)))
    const figures: Omit<PermissionFigures, 'baseline'> = {
      backend,
      loadAverage1m,
      samples,
      bubblesShown: shown.size,
      commandsRun: commandsRun(),
      requestToBubbleP50Ms: toBubble.p50Ms,
      requestToBubbleP95Ms: toBubble.p95Ms,
      requestToBubbleMaxMs: toBubble.maxMs,
      requestToPrompterCallP50Ms: toCall.p50Ms,
      clock:
        backend === 'worker'
          ? 'process.hrtime in both threads (µs)'
          : 'Date.now in two processes (whole ms at both ends, so each sample is within ±1 ms)'
    }
    await supervisor.dispose()
    await registry.dispose()
    return {
      ...figures,
      baseline: backend === 'worker' ? await bareWorkerPosts(samples) : await bareMailboxSends(ws.home, samples)
    }
  } finally {
    await supervisor?.dispose()
    await registry.dispose()
    await pty.dispose()
    await server.close()
    uiSub.dispose()
    channel.close()
    ws.dispose()
    rmSync(entryDir, { recursive: true, force: true })
  }
}

/** A bare worker posts `samples` stamped messages, one per ask: worker `postMessage` → main 'message' handler. */
async function bareWorkerPosts(samples: number): Promise<PermissionFigures['baseline']> {
  const worker = new Worker(
    "const { parentPort } = require('node:worker_threads'); parentPort.on('message', () => parentPort.postMessage(String(process.hrtime.bigint())))",
    { eval: true }
  )
  let reply: ((sent: string) => void) | undefined
  const failed = new Promise<never>((_, reject) => worker.once('error', reject))
  failed.catch(() => undefined)
  worker.on('message', (sent: string) => reply?.(sent))
  try {
    const latencies: number[] = []
    for (let i = 0; i < samples; i++) {
      const answered = new Promise<bigint>((resolve) => {
        reply = (sent) => resolve(process.hrtime.bigint() - BigInt(sent))
      })
      worker.postMessage('go')
      const took = await Promise.race([answered, failed])
      latencies.push(Number(took) / 1e6)
      await sleep(BASELINE_GAP_MS)
    }
    return { what: 'bare worker postMessage → main thread handler', samples: latencies.length, ...spread(latencies) }
  } finally {
    await worker.terminate()
  }
}

/** `samples` mailbox sends to an inbox this process watches: send called → onDidReceive listener. */
async function bareMailboxSends(home: string, samples: number): Promise<PermissionFigures['baseline']> {
  const mailbox = createMailbox({ home })
  const received = new Map<string, bigint>()
  const sub = mailbox.onDidReceive('baseline', 'lead', (entry) =>
    received.set(entry.message.id, process.hrtime.bigint())
  )
  try {
    await sub.ready
    const latencies: number[] = []
    for (let i = 0; i < samples; i++) {
      const t0 = process.hrtime.bigint()
      const { id } = await mailbox.send('baseline', 'lead', { from: 'asker', text: `ping ${i}` })
      await until('the baseline message', () => received.has(id), 10_000)
      latencies.push(hrMs(t0, received.get(id)!))
      await sleep(BASELINE_GAP_MS)
    }
    return {
      what: 'bare mailbox send → onDidReceive of the same inbox',
      samples: latencies.length,
      ...spread(latencies)
    }
  } finally {
    sub.dispose()
  }
}
