import { mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs'
import { cpus, loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { installClaudeCode } from '../../src/main/runtime/scripted/claudeCode.testkit'
import { runProduct } from '../peer/products'
import { makeWorkspace, PROMPT, toolsFigures, toolsScenario } from '../peer/scenarios'
import { median, round, type Product } from '../peer/stats'
import { measureBashSteps, type BashSteps } from './steps'

/**
 * One side of the gap figures: the median gap after a Bash `true`, after a Read, and after the
 * Edit that follows each Bash (where the start of the next spare shell, 100 ms after the Bash,
 * may land when the scripted model answers at once), ms.
 */
export interface GapFigures {
  bashGapMs: number
  readGapMs: number
  editGapMs: number
  /** Gap samples per side (two Bash calls and two Reads a run). */
  samples: number
}

/** What `npm run bench -- bash` prints. */
export interface BashBenchResult {
  name: 'bash'
  machine: { cpus: number; loadAverage: number[] }
  /** Whole-process runs of the peer benchmark's tools scenario, per product, alternating. */
  runs: number
  gaps: Partial<Record<Product | 'compare', GapFigures>>
  /** Swarmdesk's Bash gap over Claude Code's (null when Claude Code was not run). */
  bashGapRatio: number | null
  /** When `BENCH_BASH_COMPARE` names another checkout: its Swarmdesk's gaps, run in turn with this one's. */
  compare?: string
  claudeCodeSkipped?: string
  steps: BashSteps
  goal: string
  verdict: 'pass' | 'fail'
}

/** Options of {@link runBashBenchmark}. */
export interface BashBenchOptions {
  /** Whole-process tools runs per product (each gives two Bash gaps). */
  runs: number
  /** Interleaved rounds of the in-process step timings. */
  rounds: number
  /** Whether to run the pinned Claude Code beside Swarmdesk (installed into the test cache once). */
  claudeCode: boolean
  /** Another checkout's `bin/swarmdesk`, run in turn with this one's (a before/after in one run). */
  compareBin?: string
}

/**
 * The gap after a Bash `true` to the next model request (the peer benchmark's `bashGapMs`, issue
 * 26), measured here alone so it can be run often: the peer benchmark's tools scenario as whole
 * processes — Swarmdesk, then Claude Code (and another Swarmdesk build when asked), in turn — and
 * the in-process steps of one Bash call ({@link measureBashSteps}) to show where the time goes.
 * Goal: Swarmdesk's median Bash gap at most Claude Code's (without Claude Code: not judged).
 * @throws when a run fails.
 */
export async function runBashBenchmark(o: BashBenchOptions): Promise<BashBenchResult> {
  const install = o.claudeCode
    ? await installClaudeCode().catch((e: Error) => ({ bin: undefined, skip: e.message.slice(0, 300) }))
    : { bin: undefined, skip: 'not asked for (BENCH_BASH_PEER=0)' }
  type Side = Product | 'compare'
  const sides: Side[] = [
    'swarmdesk',
    ...(install.bin ? (['claudeCode'] as const) : []),
    ...(o.compareBin ? (['compare'] as const) : [])
  ]
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'swarmdesk-bench-bash-')))
  const gaps: Record<string, { bash: number[]; read: number[]; edit: number[] }> = {}
  let n = 0
  const run = async (side: Side) => {
    const product: Product = side === 'claudeCode' ? 'claudeCode' : 'swarmdesk'
    const cwd = join(root, `run-${n++}`)
    makeWorkspace(cwd)
    const r = await runProduct({
      product,
      scenario: toolsScenario(cwd, product),
      prompt: PROMPT,
      cwd,
      home: join(root, `home-${side}`),
      claudeBin: install.bin,
      ...(side === 'compare' ? { swarmdeskBin: o.compareBin } : {})
    })
    if (r.code !== 0)
      throw new Error(`${side} tools run exited ${r.code}: ${(r.stderr || r.stdout).trim().slice(-1500)}`)
    return toolsFigures(r.requests)
  }
  try {
    for (const side of sides) mkdirSync(join(root, `home-${side}`))
    for (const side of sides) await run(side) // warm-up, not counted
    for (let i = 0; i < o.runs; i++) {
      // rotate the order, so no side always runs right after the same other one
      const order = sides.map((_, k) => sides[(i + k) % sides.length]!)
      for (const side of order) {
        const f = await run(side)
        const g = (gaps[side] ??= { bash: [], read: [], edit: [] })
        g.bash.push(...f.gaps.Bash)
        g.read.push(...f.gaps.Read)
        g.edit.push(...f.gaps.Edit)
      }
    }
    const steps = await measureBashSteps(join(root, 'run-0'), join(root, 'home-steps'), o.rounds)
    const figures = Object.fromEntries(
      Object.entries(gaps).map(([side, g]) => [
        side,
        {
          bashGapMs: round(median(g.bash)),
          readGapMs: round(median(g.read)),
          editGapMs: round(median(g.edit)),
          samples: g.bash.length
        }
      ])
    ) as BashBenchResult['gaps']
    const sw = figures.swarmdesk!.bashGapMs
    const cc = figures.claudeCode?.bashGapMs
    const ratio = cc ? round(sw / cc) : null
    return {
      name: 'bash',
      machine: { cpus: cpus().length, loadAverage: loadavg().map(round) },
      runs: o.runs,
      gaps: figures,
      bashGapRatio: ratio,
      ...(o.compareBin ? { compare: o.compareBin } : {}),
      ...(install.skip ? { claudeCodeSkipped: install.skip } : {}),
      steps,
      goal: "Swarmdesk's median gap after a Bash `true` at most Claude Code's (ratio <= 1)",
      verdict: ratio !== null && ratio <= 1 ? 'pass' : 'fail'
    }
  } finally {
    rmSync(root, { recursive: true, force: true })
  }
}
