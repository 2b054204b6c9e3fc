import { join } from 'node:path'
import { runClaudeTeam, TEAM_PROMPT } from './claudeTeam'
import { makeWorkspace, PROMPT } from './scenarios'
import { runProduct, type TimedRequest } from './products'
import { round, type Product } from './stats'
import {
  claudeCodeSpawned,
  mateNames,
  pingPongDeliveries,
  pingPongDone,
  pingPongScenario,
  spawnDone,
  spawnErrors,
  spawnMs,
  spawnScenario
} from './teams'

/** Teammates spawned at once in the spawn runs (1 is the ping-pong run's bob); memory per teammate is read from the largest. */
export const SPAWNS = [4, 8] as const

/** What the team runs of one product need. */
export interface TeamRunContext {
  /** A fresh working directory per run. */
  nextCwd(): string
  /** The product's scratch home (Claude Code's interactive runs get one of their own: its config is seeded). */
  home(p: Product): string
  claudeBin?: string
  /** Peak RSS of this pair's 1-turn text run of Swarmdesk, bytes: its baseline for memory per teammate. */
  swarmdeskTextPeak: number
  /** Adds samples of a figure for a product. */
  add(p: Product, name: string, ...xs: number[]): void
  /** Records a teammate of Claude Code that failed to start (its Agent result's error). */
  spawnError(p: Product, what: string): void
  /** Records the peak and baseline RSS (MiB) behind a memory-per-teammate sample. */
  memory(p: Product, sample: TeamMemory): void
}

const MiB = 1024 * 1024

/**
 * What a `teammateMemoryMiB` sample was read from, MiB; for Claude Code also its RSS at rest
 * just before the spawn and once the teammates are idle (its in-process teammates often add
 * less than its own start-up peak, so the peak figure can read 0).
 */
export interface TeamMemory {
  baselineMiB: number
  peakMiB: number
  teammates: number
  restBeforeMiB?: number
  restAfterMiB?: number
}

interface TeamRunResult {
  requests: TimedRequest[]
  /** Peak RSS over the run, and the baseline it is compared with, bytes. */
  peakRssBytes: number
  baselineRssBytes: number
  /** The teammates that started (Claude Code may start fewer than asked, see claudeCodeSpawned). */
  started: string[]
  restRssBytes?: { before: number; after: number }
}

/**
 * One product's team runs of a pair: the ping-pong run (deliveries each way, and the spawn of its
 * one teammate) and a spawn run of each of {@link SPAWNS}; memory per teammate from the largest.
 * Swarmdesk runs `swarmdesk run` to its exit, its baseline the pair's 1-turn run; Claude Code runs
 * interactively (claudeTeam.ts) until the figures are in, its baseline its own first turn.
 * @throws when a run fails or misses a request the figures need.
 */
export async function runTeamRuns(p: Product, ctx: TeamRunContext): Promise<void> {
  const team = (kind: string) => `bench-${kind}-${Math.random().toString(36).slice(2, 8)}`
  const run = async (kind: 'pingPong' | (typeof SPAWNS)[number]): Promise<TeamRunResult> => {
    const cwd = ctx.nextCwd()
    makeWorkspace(cwd)
    const names = kind === 'pingPong' ? ['bob'] : mateNames(kind)
    const scenario = kind === 'pingPong' ? pingPongScenario(team('pp'), p) : spawnScenario(kind, team('spawn'), p)
    if (p === 'swarmdesk') {
      const r = await runProduct({ product: p, scenario, prompt: PROMPT, cwd, home: ctx.home(p), sampleMemory: true })
      if (r.code !== 0)
        throw new Error(`swarmdesk ${kind} team run exited ${r.code}: ${(r.stderr || r.stdout).trim().slice(-1500)}`)
      return {
        requests: r.requests,
        peakRssBytes: r.peakRssBytes ?? 0,
        baselineRssBytes: ctx.swarmdeskTextPeak,
        started: names
      }
    }
    if (!ctx.claudeBin) throw new Error('a Claude Code team run needs the installed claude')
    const r = await runClaudeTeam({
      claudeBin: ctx.claudeBin,
      scenario,
      cwd,
      home: ctx.home(p),
      done: (rs) => {
        if (kind === 'pingPong') return pingPongDone(rs)
        const started = claudeCodeSpawned(rs, names)
        return started !== undefined && spawnDone(rs, started)
      },
      // the spawned teammates answered and went idle: sample their memory a moment longer
      settleMs: kind === 'pingPong' ? 0 : 1_000
    })
    const started = claudeCodeSpawned(r.requests, names) ?? []
    for (const e of spawnErrors(r.requests)) ctx.spawnError(p, `spawning ${names.length} (${TEAM_PROMPT}): ${e}`)
    if (started.length === 0) throw new Error(`claude started none of ${names.join(', ')}`)
    return { ...r, started }
  }
  const pp = await run('pingPong')
  const d = pingPongDeliveries(pp.requests)
  ctx.add(p, 'deliveriesToTeammate', ...d.toTeammate)
  ctx.add(p, 'deliveriesToLeader', ...d.toLeader)
  ctx.add(p, 'teammateSpawn1Ms', spawnMs(pp.requests, ['bob']))
  for (const n of SPAWNS) {
    const r = await run(n)
    ctx.add(p, `teammateSpawn${n}Ms`, spawnMs(r.requests, r.started))
    if (n === SPAWNS.at(-1)) {
      ctx.add(p, 'teammateMemoryMiB', (r.peakRssBytes - r.baselineRssBytes) / r.started.length / MiB)
      ctx.memory(p, {
        baselineMiB: round(r.baselineRssBytes / MiB),
        peakMiB: round(r.peakRssBytes / MiB),
        teammates: r.started.length,
        ...(r.restRssBytes
          ? { restBeforeMiB: round(r.restRssBytes.before / MiB), restAfterMiB: round(r.restRssBytes.after / MiB) }
          : {})
      })
    }
  }
}

/** Where a product's team runs keep their home under `root`. */
export const teamHome = (root: string, p: Product): string =>
  join(root, p === 'claudeCode' ? 'home-claudeCode-interactive' : `home-${p}`)
