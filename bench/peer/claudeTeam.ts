import { startScriptedServer, type ScenarioInput } from '../../src/main/runtime/scripted'
import { startInteractiveClaude } from '../../src/main/runtime/scripted/claudeInteractive.testkit'
import { sampleTreePeak, treeRssBytes } from './procTree'
import { timedRequests, type TimedRequest } from './products'
import { startTimingProxy } from './proxy'

/**
 * Claude Code's side of the team figures: its agent teams exist only in an interactive session
 * (docs/claude-code.md#testing-against-the-real-claude), so each run starts the real `claude`
 * in a PTY with agent teams on and in-process teammates, against a fresh scripted server behind
 * the same timing proxy as every other run, and types two prompts: {@link WARM_PROMPT} (the
 * session's first turn, a text answer; the memory baseline is the peak up to its end) and
 * {@link TEAM_PROMPT}, which the scenario answers by spawning the team.
 */

/** The first prompt: one text turn, so the session is warm and its own peak known before a team exists. */
export const WARM_PROMPT = 'Get ready for the benchmark'

/** The second prompt: the scenario's leader spawns its teammates on it. */
export const TEAM_PROMPT = 'Start the benchmark team'

/** What one interactive team run needs. */
export interface ClaudeTeamRunOptions {
  /** The installed `claude`. */
  claudeBin: string
  /** A scenario whose leader answers {@link WARM_PROMPT} with text and {@link TEAM_PROMPT} by spawning. */
  scenario: ScenarioInput
  cwd: string
  /** Scratch HOME (its `.claude` is seeded with a finished first run's config). */
  home: string
  /** Whether the run has what it needs, from its requests so far (polled every 50 ms). */
  done(requests: readonly TimedRequest[]): boolean
  /** Memory is sampled this long after `done`, ms (default 0). */
  settleMs?: number
  /** From start to `done`, ms (default 120 s). */
  timeoutMs?: number
}

/** One interactive team run of Claude Code. */
export interface ClaudeTeamRun {
  /** Model requests (POST /v1/messages), in arrival order, timed at the proxy. */
  requests: TimedRequest[]
  /** Peak RSS of claude's process tree from start to the end of its answer to {@link WARM_PROMPT}, bytes. */
  baselineRssBytes: number
  /** Peak RSS of claude's process tree over the whole run, bytes. */
  peakRssBytes: number
  /** RSS of claude's process tree at rest: back at its prompt after the first turn, and when the run is over (after `settleMs`), bytes. */
  restRssBytes: { before: number; after: number }
}

/**
 * Runs `claude` interactively with agent teams on (see the module comment) until `done` holds,
 * then SIGKILLs its process group (a session's teammates live in its process: in-process mode).
 * @throws with claude's screen when it shows no prompt, or `done` does not hold in `timeoutMs`.
 */
export async function runClaudeTeam(o: ClaudeTeamRunOptions): Promise<ClaudeTeamRun> {
  const server = await startScriptedServer({ scenario: o.scenario })
  const proxy = await startTimingProxy(server.url)
  const requests = () => timedRequests(server.requests(), proxy.timings())
  const claude = await startInteractiveClaude(o.claudeBin, {
    baseUrl: proxy.url,
    cwd: o.cwd,
    home: o.home,
    teams: true,
    args: ['--dangerously-skip-permissions']
  }).catch(async (error: unknown) => {
    await proxy.close()
    await server.close()
    throw error
  })
  const sampler = sampleTreePeak(claude.pid)
  const deadline = performance.now() + (o.timeoutMs ?? 120_000)
  const until = async (what: string, check: () => boolean) => {
    while (!check()) {
      if (performance.now() > deadline)
        throw new Error(
          `claude's team run: ${what} did not happen in time; requests by agent: ${requests()
            .map((r) => `${r.agentName ?? '?'}${r.endedAt === undefined ? '…' : ''}`)
            .join(' ')}; its screen:\n${claude.screen()}`
        )
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
  }
  try {
    await claude.waitForScreen(/[>❯]\s/, o.timeoutMs ?? 120_000)
    await claude.submit(WARM_PROMPT)
    const leaderEnded = () => requests().filter((r) => r.agentName === 'team-lead' && r.endedAt !== undefined).length
    await until('the answer to the first prompt', () => leaderEnded() >= 1)
    // the answer on the screen: the session is back at its prompt
    await until('the session idle after the first prompt', () => claude.screen().includes('Ready.'))
    const baselineRssBytes = sampler.peak()
    const before = treeRssBytes(claude.pid)
    await claude.submit(TEAM_PROMPT)
    await until('the run', () => o.done(requests()))
    if (o.settleMs) await new Promise((resolve) => setTimeout(resolve, o.settleMs))
    const after = treeRssBytes(claude.pid)
    return { requests: requests(), baselineRssBytes, peakRssBytes: sampler.stop(), restRssBytes: { before, after } }
  } finally {
    sampler.stop()
    await claude.kill()
    await proxy.close()
    await server.close()
  }
}
