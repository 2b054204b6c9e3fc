import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { cpus, loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { CLAUDE_CODE_VERSION, installClaudeCode } from '../../src/main/runtime/scripted/claudeCode.testkit'
import { FIGURE_SPECS, TEAM_FIGURES } from './goals'
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
import { pingPongDeliveries, pingPongScenario, spawnMs, spawnScenario } from './teams'
import { figure, pairOrder, percentile, round, verdict, type FigureOrSkipped, type Product } from './stats'

/** Sizes of one run. */
export interface PeerBenchOptions {
  /** Alternating pairs per scenario (each figure is the median over them); at least 1. */
  pairs: number
  /** Why Claude Code's side of the team figures is not measured (it needs interactive Claude Code in a PTY). */
  teamSkipReason: string
  /** Whether Swarmdesk's side of the team figures is measured (default true). */
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
  /** Per product: requests per scenario run and tool results that were errors (a gap then measures an error path). */
  checks: Record<Product, { toolsRunRequests: number[]; toolErrors: number }>
  verdict: 'pass' | 'fail'
  failed: string[]
  notMeasured: string[]
  /** Every measured figure that misses its goal, in the verdict or not. */
  missed: string[]
}

type Samples = Record<string, number[]>

/** Teammates spawned at once in the spawn runs; memory per teammate is read from the largest. */
const SPAWNS = [1, 4, 8] as const

/**
 * Swarmdesk's team runs are made in a pair only while the benchmark has used less than this share
 * of its budget, so the pairs of both products come first (each team figure says over how many
 * pairs it was measured).
 */
const TEAM_SHARE = 0.5

/** A scenario: the text, tools and agents runs of both products; Swarmdesk's team runs. */
type Kind = 'text' | 'tools' | 'agents' | 'pingPong' | (typeof SPAWNS)[number]

const MiB = 1024 * 1024

/**
 * Runs Swarmdesk and the pinned Claude Code on the same scripted scenarios (a 1-turn text run, ten
 * tool turns, a sync subagent and a background agent), alternating within each pair, and judges
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
    swarmdesk: { toolsRunRequests: [], toolErrors: 0 },
    claudeCode: { toolsRunRequests: [], toolErrors: 0 }
  }
  const add = (p: Product, name: string, ...xs: number[]) => (samples[p][name] ??= []).push(...xs)
  let runs = 0
  const run = async (p: Product, kind: Kind): Promise<ProductRun> => {
    const cwd = join(root, `run-${runs++}`)
    makeWorkspace(cwd)
    const scenario =
      kind === 'text'
        ? textScenario()
        : kind === 'tools'
          ? toolsScenario(cwd, p)
          : kind === 'agents'
            ? agentsScenario()
            : kind === 'pingPong'
              ? pingPongScenario(`bench-${runs}`)
              : spawnScenario(kind, `bench-${runs}`)
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
  let teamPairs = 0
  let pairsRun = 0
  const budget = o.budgetMs ?? 8 * 60_000
  try {
    for (const p of products) mkdirSync(join(root, `home-${p}`))
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
      if (o.teams !== false && performance.now() - started < budget * TEAM_SHARE) {
        // Swarmdesk's side only: Claude Code's teams need its interactive mode in a PTY
        teamPairs++
        add('swarmdesk', 'deliveries', ...pingPongDeliveries((await run('swarmdesk', 'pingPong')).requests))
        for (const n of SPAWNS) {
          const r = await run('swarmdesk', n)
          add('swarmdesk', `teammateSpawn${n}Ms`, spawnMs(r.requests, n))
          if (n === SPAWNS.at(-1))
            add('swarmdesk', 'teammateMemoryMiB', ((r.peakRssBytes ?? 0) - textPeak.get('swarmdesk')!) / n / MiB)
        }
      }
    }
  } finally {
    rmSync(root, { recursive: true, force: true })
  }
  const figures: Record<string, FigureOrSkipped> = {}
  const sw = samples.swarmdesk
  if (sw.deliveries) {
    sw.mailboxP50Ms = [percentile(sw.deliveries, 50)]
    sw.mailboxP99Ms = [percentile(sw.deliveries, 99)]
  }
  for (const [name, spec] of Object.entries(FIGURE_SPECS)) {
    if (!(TEAM_FIGURES as readonly string[]).includes(name))
      figures[name] = figure(sw[name]!, install.bin ? samples.claudeCode[name] : undefined, spec)
    else if (sw[name])
      figures[name] = { ...figure(sw[name], undefined, spec), pairs: teamPairs, claudeCodeSkipped: o.teamSkipReason }
    else figures[name] = { skipped: o.teamSkipReason }
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
    ...v,
    ...(incomplete ? { verdict: 'fail' as const } : {}),
    missed: Object.entries(figures)
      .filter(([, f]) => !('skipped' in f) && f.pass === false)
      .map(([name]) => name)
  }
}
