import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { ScenarioInput } from '../../src/main/runtime/scripted'
import type { Product } from './stats'

/**
 * The scripted scenarios both products run, and how each run's model requests turn into figures.
 * Each scenario is written for one working directory (its tools name absolute paths in it), and
 * every script is picked by agent name, which both products send (docs/scenarios.md).
 */

/** The tool kinds whose gap is measured, in the order the tools scenario calls them (twice). */
export const TOOL_KINDS = ['Read', 'Grep', 'Glob', 'Bash', 'Edit'] as const
export type ToolKind = (typeof TOOL_KINDS)[number]

/** Tool turns of the tools scenario: each kind twice; then a text turn ends the run. */
export const TOOL_TURNS = TOOL_KINDS.length * 2

/** The prompt of every run. */
export const PROMPT = 'Run the benchmark script'

/** A working directory for one run: a small project the tools read, search and edit. */
export function makeWorkspace(dir: string): void {
  mkdirSync(join(dir, 'src'), { recursive: true })
  writeFileSync(join(dir, 'notes.txt'), 'alpha\nsecond line\nthird line\n')
  for (let i = 0; i < 8; i++) writeFileSync(join(dir, 'src', `file${i}.txt`), `line of file ${i}\nalpha ${i}\n`)
}

/** A 1-turn text run: start-up to exit. */
export function textScenario(): ScenarioInput {
  return { name: 'peer-text', agents: { 'team-lead': [{ text: 'hello from the scripted model' }] } }
}

/**
 * The tool calls of the tools scenario, in order (`cwd` absolute). Claude Code 2.1.197 offers no
 * Grep or Glob tool to `claude -p` here (it answers "No such tool available: Grep … search file
 * contents with `grep` via the Bash tool instead"), so its searches are the Bash commands it
 * names, `grep -rn` and `find`; the gap is still the one after that kind of call.
 */
export function toolCalls(cwd: string, product: Product = 'swarmdesk'): ToolCall[] {
  const file = join(cwd, 'notes.txt')
  const words = ['alpha', 'beta', 'gamma']
  const calls: ToolCall[] = []
  const cc = product === 'claudeCode'
  for (let round = 0; round < 2; round++) {
    calls.push(
      { kind: 'Read', name: 'Read', input: { file_path: file } },
      cc
        ? { kind: 'Grep', name: 'Bash', input: { command: `grep -rn ${words[round]} ${cwd}`, description: 'Search' } }
        : { kind: 'Grep', name: 'Grep', input: { pattern: words[round], path: cwd } },
      cc
        ? { kind: 'Glob', name: 'Bash', input: { command: `find ${cwd} -name '*.txt'`, description: 'Find files' } }
        : { kind: 'Glob', name: 'Glob', input: { pattern: '**/*.txt', path: cwd } },
      { kind: 'Bash', name: 'Bash', input: { command: 'true', description: 'Do nothing' } },
      {
        kind: 'Edit',
        name: 'Edit',
        input: { file_path: file, old_string: words[round], new_string: words[round + 1] }
      }
    )
  }
  return calls
}

/** One scripted tool call of the tools scenario: the kind its gap is filed under, and the call. */
export interface ToolCall {
  kind: ToolKind
  name: string
  input: Record<string, unknown>
}

/** Ten tool turns (each kind twice, Read before each Edit) and a closing text turn. */
export function toolsScenario(cwd: string, product: Product = 'swarmdesk'): ScenarioInput {
  return {
    name: 'peer-tools',
    agents: {
      'team-lead': [
        ...toolCalls(cwd, product).map((c) => ({ tools: [{ name: c.name, input: c.input }] })),
        { text: 'all tools ran' }
      ]
    }
  }
}

/** The background agent's answer waits this long, so the leader has ended its turn before it finishes. */
export const BACKGROUND_DELAY_MS = 300

/** A sync Explore subagent, then a background agent whose notification wakes the leader. */
export function agentsScenario(): ScenarioInput {
  return {
    name: 'peer-agents',
    agents: {
      'team-lead': [
        {
          tools: [
            {
              name: 'Agent',
              input: { subagent_type: 'Explore', description: 'Look around', prompt: 'List the files here' }
            }
          ]
        },
        {
          when: 'explore found 3 files',
          tools: [
            {
              name: 'Agent',
              input: { description: 'Back job', prompt: 'Do the background job', run_in_background: true }
            }
          ]
        },
        { text: 'launched the background job' },
        { when: '<task-notification>', text: 'notified' }
      ],
      'look-around': [{ text: 'explore found 3 files' }],
      'back-job': [{ text: 'background work finished', delayMs: BACKGROUND_DELAY_MS }]
    }
  }
}

/** The request fields figures are read from (a subset of a timed request). */
export interface Req {
  agentName?: string
  arrivedAt: number
  endedAt?: number
  bodyBytes: number
  raw: string
  promptTokens: number
}

/** Figures of one tools run. */
export interface ToolsFigures {
  /** Gap after each call, ms, by kind (two samples each). */
  gaps: Record<ToolKind, number[]>
  requestBytesPerTurn: number
  /** Tool results that came back as errors (their gaps measure an error path). */
  toolErrors: number
}

function ended(r: Req, what: string): number {
  if (r.endedAt === undefined) throw new Error(`the answer to ${what} never finished`)
  return r.endedAt
}

/**
 * The figures of a tools run from its requests (arrival order): the leader's i-th request got
 * tool turn i, so the gap after call i is request i+1's arrival minus the end of answer i.
 * @throws when the leader did not make exactly one request per turn.
 */
export function toolsFigures(requests: readonly Req[]): ToolsFigures {
  const lead = requests.filter((r) => r.agentName === 'team-lead')
  if (lead.length !== TOOL_TURNS + 1)
    throw new Error(`the tools run made ${lead.length} leader requests, expected ${TOOL_TURNS + 1} (one per turn)`)
  const gaps = Object.fromEntries(TOOL_KINDS.map((k) => [k, [] as number[]])) as Record<ToolKind, number[]>
  let toolErrors = 0
  for (let i = 0; i < TOOL_TURNS; i++) {
    const kind = TOOL_KINDS[i % TOOL_KINDS.length]!
    gaps[kind].push(lead[i + 1]!.arrivedAt - ended(lead[i]!, `tool turn ${i}`))
    if (/"is_error":\s*true/.test(lastUserMessage(lead[i + 1]!.raw))) toolErrors++
  }
  const bytes = requests.reduce((n, r) => n + r.bodyBytes, 0)
  return { gaps, requestBytesPerTurn: bytes / lead.length, toolErrors }
}

/**
 * The JSON text of every message after the newest assistant one (the turn the request asks about,
 * as the scripted server reads it; '' when the body is not JSON).
 */
export function lastUserMessage(raw: string): string {
  try {
    const messages = (JSON.parse(raw) as { messages?: Array<{ role?: string }> }).messages ?? []
    let from = messages.length
    while (from > 0 && messages[from - 1]!.role !== 'assistant') from--
    return JSON.stringify(messages.slice(from))
  } catch {
    return ''
  }
}

/** Prompt-cache read tokens over prompt tokens of every request of a run (0 without prompt tokens). */
export function cacheReadShare(requests: readonly Req[], cacheReadTokens: number): number {
  const prompt = requests.reduce((n, r) => n + r.promptTokens, 0)
  return prompt === 0 ? 0 : cacheReadTokens / prompt
}

/** Figures of one agents run, ms. */
export interface AgentsFigures {
  subagentSpawnMs: number
  subagentReturnMs: number
  backgroundSpawnMs: number
  notificationMs: number
}

/**
 * The figures of an agents run from its requests (arrival order), found by agent name and by
 * what the leader's requests carry (the sync result, the notification).
 * @throws naming the request that is missing.
 */
export function agentsFigures(requests: readonly Req[]): AgentsFigures {
  const lead = requests.filter((r) => r.agentName === 'team-lead')
  const sub = requests.filter((r) => r.agentName === 'look-around')
  const back = requests.filter((r) => r.agentName === 'back-job')
  // the newest turn only: a system prompt or tool description may name the notification tag
  const withResult = lead.find((r) => lastUserMessage(r.raw).includes('explore found 3 files'))
  const notified = lead.find((r) => lastUserMessage(r.raw).includes('<task-notification>'))
  const missing = [
    lead.length === 0 && 'the leader’s first request',
    sub.length === 0 && 'the Explore subagent’s request',
    back.length === 0 && 'the background agent’s request',
    !withResult && 'the leader’s request with the subagent’s result',
    !notified && 'the leader’s request with the task notification'
  ].filter(Boolean)
  if (missing.length > 0) throw new Error(`the agents run is missing ${missing.join(', ')}`)
  return {
    subagentSpawnMs: sub[0]!.arrivedAt - ended(lead[0]!, 'the Agent call'),
    subagentReturnMs: withResult!.arrivedAt - ended(sub.at(-1)!, 'the subagent'),
    backgroundSpawnMs: back[0]!.arrivedAt - ended(withResult!, 'the background Agent call'),
    notificationMs: notified!.arrivedAt - ended(back.at(-1)!, 'the background agent')
  }
}
