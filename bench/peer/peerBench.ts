import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { cpus, loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { CLAUDE_CODE_VERSION, installClaudeCode } from '../../src/main/runtime/scripted/claudeCode.testkit'
import { FIGURE_SPECS } from './goals'
import { runProduct, type ProductRun, type RunOptions } from './products'
import {
  agentsFigures,
  agentsScenario,
  cacheReadShare,
  makeWorkspace,
  PROMPT,
  TOOL_KINDS,
  TOOL_TURNS,
  textScenario,
  toolsFigures,
  toolsScenario
} from './scenarios'
import { runTeamRuns, teamHome, type TeamMemory } from './teamPair'
import { figure, pairOrder, percentile, round, verdict, type FigureOrSkipped, type Product } from './stats'

/** Sizes of one run. */
export interface PeerBenchOptions {
  /** Alternating pairs per scenario (each figure is the median over them); at least 1. */
  pairs: number
  /** Whether the team figures are measured (default true): both products' team runs in each pair. */
  teams?: boolean
  /**
   * Time the benchmark may take, ms (default 8 minutes, inside the runner's 10): a pair that would
   * end past it (projected from the pairs so far) is not started, and the result says so.
   */
  budgetMs?: number
}

/** What the benchmark prints. */
export interface PeerBenchResult {
  name: 'peer'
  peer: { product: 'claude-code'; version: string; skipped?: string }
  /** Load average (1, 5, 15 min) when the run ended: the machine may be shared. */
  machine: { cpus: number; loadAverage: number[] }
  /** Pairs run, and asked for; fewer when the budget ran out (a loaded machine), and then `incomplete` says so. */
  pairs: number
  pairsWanted: number
  incomplete?: string
  figures: Record<string, FigureOrSkipped>
  /**
   * Per product: requests per scenario run, tool results that were errors (a gap then measures an
   * error path), and teammates that failed to start (their Agent result's error; the spawn and
   * memory figures of that run are over the teammates that started), and what each
   * `teammateMemoryMiB` sample was read from.
   */
  checks: Record<
    Product,
    {
      toolsRunRequests: number[]
      toolErrors: number
      teammateSpawnErrors: string[]
      teamMemory: TeamMemory[]
    }
  >
  /** Team ping-pong deliveries each way, p50 and p99 of every run's, ms (the mailbox figures pool both ways). */
  mailbox?: Record<Product, Record<'toTeammate' | 'toLeader', { p50: number; p99: number; n: number }>>
  verdict: 'pass' | 'fail'
  failed: string[]
  notMeasured: string[]
  /** Every measured figure that misses its goal, in the verdict or not. */
  missed: string[]
}

type Samples = Record<string, number[]>

/** A whole-process scenario of both products (the team runs are teamPair.ts's). */
type Kind = 'text' | 'tools' | 'agents'

const MiB = 1024 * 1024

/**
 * Runs Swarmdesk and the pinned Claude Code on the same scripted scenarios (a 1-turn text run, ten
 * tool turns, a sync subagent and a background agent, and the team runs: a ping-pong between a
 * leader and a teammate, 4 and 8 teammates spawned at once; Claude Code's interactively in a PTY,
 * teamPair.ts), alternating within each pair, and judges
 * the medians against {@link FIGURE_SPECS}. Where Claude Code cannot be installed, Swarmdesk's
 * figures are still measured and the peer is named `skipped` with npm's reason.
 * @throws when a run fails (exit code not 0, or its requests are not the scenario's).
 */
export async function runPeerBenchmark(o: PeerBenchOptions): Promise<PeerBenchResult> {
  if (!(o.pairs >= 1)) throw new Error(`pairs must be at least 1, got ${o.pairs}`)
  const install = await installClaudeCode().catch((error: Error) => ({
    bin: undefined,
    skip: `installing @anthropic-ai/claude-code@${CLAUDE_CODE_VERSION} failed: ${error.message.slice(0, 300)}`
  }))
  const products: Product[] = install.bin ? ['swarmdesk', 'claudeCode'] : ['swarmdesk']
  const root = mkdtempSync(join(tmpdir(), 'swarmdesk-bench-peer-'))
  const samples: Record<Product, Samples> = { swarmdesk: {}, claudeCode: {} }
  const checks: PeerBenchResult['checks'] = {
    swarmdesk: { toolsRunRequests: [], toolErrors: 0, teammateSpawnErrors: [], teamMemory: [] },
    claudeCode: { toolsRunRequests: [], toolErrors: 0, teammateSpawnErrors: [], teamMemory: [] }
  }
  const add = (p: Product, name: string, ...xs: number[]) => (samples[p][name] ??= []).push(...xs)
  let runs = 0
  const run = async (p: Product, kind: Kind): Promise<ProductRun> => {
    const cwd = join(root, `run-${runs++}`)
    makeWorkspace(cwd)
    const scenario = kind === 'text' ? textScenario() : kind === 'tools' ? toolsScenario(cwd, p) : agentsScenario()
    const options: RunOptions = {
      product: p,
      scenario,
      prompt: PROMPT,
      cwd,
      home: join(root, `home-${p}`),
      claudeBin: install.bin,
      sampleMemory: true
    }
    const r = await runProduct(options)
    if (r.code !== 0)
      throw new Error(`${p} ${kind} run exited ${r.code}: ${(r.stderr || r.stdout).trim().slice(-1500)}`)
    return r
  }
  const started = performance.now()
  let pairsRun = 0
  const budget = o.budgetMs ?? 8 * 60_000
  try {
    for (const p of products) mkdirSync(join(root, `home-${p}`))
    const teamContext = {
      nextCwd: () => join(root, `run-${runs++}`),
      home: (p: Product) => teamHome(root, p),
      claudeBin: install.bin,
      add,
      spawnError: (p: Product, what: string) => checks[p].teammateSpawnErrors.push(what),
      memory: (p: Product, m: TeamMemory) => checks[p].teamMemory.push(m)
    }
    // warm-up, not counted: each product's first run in its home, and the disk cache
    for (const p of products) await run(p, 'text')
    for (let i = 0; i < o.pairs; i++) {
      const elapsed = performance.now() - started
      if (i > 0 && elapsed + elapsed / i > budget) break
      pairsRun = i + 1
      // each scenario runs both products back to back, in the pair's order
      const order = pairOrder(i).filter((x) => products.includes(x))
      const startup = new Map<Product, number>()
      const textPeak = new Map<Product, number>()
      for (const p of order) {
        const text = await run(p, 'text')
        startup.set(p, text.wallMs)
        textPeak.set(p, text.peakRssBytes ?? 0)
        add(p, 'startupMs', text.wallMs)
      }
      for (const p of order) {
        const tools = await run(p, 'tools')
        const t = toolsFigures(tools.requests)
        add(p, 'perTurnMs', (tools.wallMs - startup.get(p)!) / TOOL_TURNS)
        for (const k of TOOL_KINDS) add(p, `${k.toLowerCase()}GapMs`, ...t.gaps[k])
        add(p, 'peakMemoryMiB', (tools.peakRssBytes ?? 0) / MiB)
        add(p, 'requestBytesPerTurn', t.requestBytesPerTurn)
        add(p, 'cacheReadShare', cacheReadShare(tools.requests, tools.stats.cacheReadTokens))
        checks[p].toolsRunRequests.push(tools.requests.length)
        checks[p].toolErrors += t.toolErrors
      }
      for (const p of order) {
        const a = agentsFigures((await run(p, 'agents')).requests)
        for (const [name, ms] of Object.entries(a)) add(p, name, ms)
      }
      if (o.teams !== false)
        for (const p of order) await runTeamRuns(p, { ...teamContext, swarmdeskTextPeak: textPeak.get('swarmdesk')! })
    }
  } finally {
    rmSync(root, { recursive: true, force: true })
  }
  const figures: Record<string, FigureOrSkipped> = {}
  const measured = products.filter((p) => samples[p].deliveriesToLeader)
  const mailbox = measured.length > 0 ? mailboxSummary(samples, measured) : undefined
  for (const p of measured) {
    const all = [...samples[p].deliveriesToTeammate!, ...samples[p].deliveriesToLeader!]
    samples[p].mailboxP50Ms = [percentile(all, 50)]
    samples[p].mailboxP99Ms = [percentile(all, 99)]
  }
  const pooled = new Set(['mailboxP50Ms', 'mailboxP99Ms'])
  for (const [name, spec] of Object.entries(FIGURE_SPECS)) {
    const sw = samples.swarmdesk[name]
    if (!sw) {
      figures[name] = { skipped: 'the team runs were not made (teams: false)' }
      continue
    }
    const f = figure(sw, install.bin ? samples.claudeCode[name] : undefined, spec)
    // a pooled percentile is one number over every run's deliveries: it says over how many pairs
    figures[name] = pooled.has(name) ? { ...f, pairs: pairsRun } : f
  }
  const v = verdict(figures, FIGURE_SPECS)
  const incomplete =
    pairsRun < o.pairs
      ? `only ${pairsRun} of ${o.pairs} pairs fitted in the ${Math.round(budget / 1000)} s budget (load average ${loadavg()
          .map(round)
          .join(', ')} on ${cpus().length} cpus): the verdict is fail`
      : undefined
  return {
    name: 'peer',
    peer: { product: 'claude-code', version: CLAUDE_CODE_VERSION, ...(install.skip ? { skipped: install.skip } : {}) },
    machine: { cpus: cpus().length, loadAverage: loadavg().map(round) },
    pairs: pairsRun,
    pairsWanted: o.pairs,
    ...(incomplete ? { incomplete } : {}),
    figures,
    checks,
    ...(mailbox ? { mailbox } : {}),
    ...v,
    ...(incomplete ? { verdict: 'fail' as const } : {}),
    missed: Object.entries(figures)
      .filter(([, f]) => !('skipped' in f) && f.pass === false)
      .map(([name]) => name)
  }
}

/** The ping-pong deliveries of each product, each way: p50, p99 and how many, ms. */
function mailboxSummary(
  samples: Record<Product, Samples>,
  products: Product[]
): NonNullable<PeerBenchResult['mailbox']> {
  const out = {} as NonNullable<PeerBenchResult['mailbox']>
  for (const p of products) {
    const way = (xs: number[]) => ({ p50: round(percentile(xs, 50)), p99: round(percentile(xs, 99)), n: xs.length })
    out[p] = { toTeammate: way(samples[p].deliveriesToTeammate!), toLeader: way(samples[p].deliveriesToLeader!) }
  }
  return out
}
