import type { EventOf } from '../../src/shared/events'
import { runUntilSettled } from '../../src/main/runtime/session/headless'
import { startSubagentHarness } from '../../src/main/runtime/subagents/subagents.testkit'

/** Token figures of the children's first requests in one run (tokens; cost-equivalent weights cache writes 1.25×, reads 0.1×). */
export interface ChildrenFirstRequests {
  children: number
  inputTokens: number
  cacheWriteTokens: number
  cacheReadTokens: number
  costEquivalentTokens: number
  /** Cache-read share of all input, for children 2..N (forks after the first read from the cache). */
  laterChildrenCacheReadShare: number
}

export interface ForkCacheLevel {
  n: number
  forks: ChildrenFirstRequests
  fresh: ChildrenFirstRequests
  /** forks.costEquivalentTokens / fresh.costEquivalentTokens */
  costRatio: number
}

export interface ForkCacheResult {
  name: 'fork-cache'
  parentHistoryTokens: number
  levels: ForkCacheLevel[]
  target: string
  verdict: 'pass' | 'fail'
}

/** About 20k tokens of earlier conversation (≈4 bytes a token, as the scripted model counts). */
function parentContext(): string {
  const lines: string[] = []
  for (let i = 0; lines.join('\n').length < 80_000; i++)
    lines.push(
      `Finding ${i}: module m${i % 37} calls helper h${i % 11} with options {retry: ${i % 5}, timeout: ${1000 + i}} and logs to channel c${i % 7}.`
    )
  return lines.join('\n')
}

const DIRECTIVES = (n: number) =>
  Array.from(
    { length: n },
    (_, i) => `Part ${i + 1} of ${n}: check the findings about module m${i} and report problems.`
  )

async function measure(n: number, mode: 'forks' | 'fresh', context: string): Promise<ChildrenFirstRequests> {
  const directives = DIRECTIVES(n)
  // A fresh subagent sees nothing of the conversation: to do the same job it must be briefed with it.
  const calls = directives.map((d, i) =>
    mode === 'forks'
      ? { name: 'Agent', input: { description: `part ${i + 1}`, prompt: d } }
      : {
          name: 'Agent',
          input: {
            subagent_type: 'general-purpose',
            description: `part ${i + 1}`,
            prompt: `Context so far:\n${context}\n\n${d}`,
            run_in_background: true
          }
        }
  )
  const children = Object.fromEntries(
    directives.map((_, i) => [`part-${i + 1}`, [{ delayMs: 50 * i, text: `part ${i + 1} done` }]])
  )
  const h = await startSubagentHarness(
    {
      agents: {
        'team-lead': [
          { tools: calls },
          { text: 'launched' },
          ...directives.map(() => ({ when: '<task-notification>', text: 'noted' }))
        ],
        ...children
      }
    },
    { subagents: { forkEnabled: mode === 'forks' } }
  )
  try {
    const firsts: Array<EventOf<'usage'>> = []
    const seen = new Set<string>()
    h.bus.onEvent((e) => {
      if (e.type === 'usage' && e.agentName.startsWith('part-') && !seen.has(e.agentName)) {
        seen.add(e.agentName)
        firsts.push(e)
      }
    })
    await runUntilSettled(h.session, context)
    const sum = (key: 'inputTokens' | 'cacheCreationInputTokens' | 'cacheReadInputTokens', list = firsts) =>
      list.reduce((a, u) => a + u[key], 0)
    const later = firsts.slice(1)
    const laterTotal =
      sum('inputTokens', later) + sum('cacheCreationInputTokens', later) + sum('cacheReadInputTokens', later)
    return {
      children: firsts.length,
      inputTokens: sum('inputTokens'),
      cacheWriteTokens: sum('cacheCreationInputTokens'),
      cacheReadTokens: sum('cacheReadInputTokens'),
      costEquivalentTokens: Math.round(
        sum('inputTokens') + 1.25 * sum('cacheCreationInputTokens') + 0.1 * sum('cacheReadInputTokens')
      ),
      laterChildrenCacheReadShare:
        laterTotal === 0 ? 0 : Math.round((sum('cacheReadInputTokens', later) / laterTotal) * 1000) / 1000
    }
  } finally {
    await h.close()
  }
}

/** Targets (issue: fork cache): at N = 4 forks cost ≤ 15% of fresh subagents, and forks 2..N read ≥ 95% of their input from the cache. */
export async function runForkCacheBenchmark(levels: number[] = [1, 2, 4, 8]): Promise<ForkCacheResult> {
  const context = parentContext()
  const results: ForkCacheLevel[] = []
  for (const n of levels) {
    const forks = await measure(n, 'forks', context)
    const fresh = await measure(n, 'fresh', context)
    results.push({
      n,
      forks,
      fresh,
      costRatio: Math.round((forks.costEquivalentTokens / fresh.costEquivalentTokens) * 1000) / 1000
    })
  }
  const at4 = results.find((r) => r.n === 4) ?? results[results.length - 1]!
  const pass = at4.costRatio <= 0.15 && (at4.n < 2 || at4.forks.laterChildrenCacheReadShare >= 0.95)
  return {
    name: 'fork-cache',
    parentHistoryTokens: Math.ceil(context.length / 4),
    levels: results,
    target: `at N=${at4.n}: forks' cost-equivalent <= 15% of fresh subagents' and forks 2..N cache-read share >= 95%`,
    verdict: pass ? 'pass' : 'fail'
  }
}
