import { ScriptUnavailableError } from './errors'
import type { Scenario, Turn } from './scenario'

/** Who is asking, from the runtime's `x-swarmdesk-agent-*` headers (docs/scenarios.md#scripted-model-scenarios); each may be absent. */
export interface AgentIdentity {
  name?: string
  type?: string
  id?: string
}

/** The turn picked for one request. `fault` is set only the first `faultCount` times (default once) a faulty turn is picked. */
export interface Selection {
  scriptKey: string
  turnIndex: number
  turn: Turn
  /** The fault to inject now; the turn then stays unused so the retry is answered normally. */
  fault?: Turn['fault']
}

/**
 * Script key of an agent no script applies to in a non-strict scenario: it gets a fixed text
 * answer that ends its turn, at every request, so an unscripted helper cannot break a demo run.
 * Strict scenarios make that case a `(no script)` error instead (docs/scenarios.md#scripted-model-scenarios).
 */
export const UNSCRIPTED = '(unscripted)'

interface InstanceState {
  scriptKey: string
  used: Set<number>
  /** Per turn index, how many times its fault fired. */
  faultsFired: Map<number, number>
}

/**
 * Per-instance consumption of a scenario's scripts (docs/scenarios.md#scripted-model-scenarios). An agent instance (keyed by its id,
 * else its name, else its type) gets its own copy of its script's turns. Selection at each
 * request: the first unused turn whose `when` occurs in the newest user message, else the next
 * unused turn without `when`. An instance keeps the script it was first given.
 */
export class ScriptBook {
  readonly #instances = new Map<string, InstanceState>()

  constructor(private readonly scenario: Scenario) {}

  /** Forgets every instance's consumption and fired faults. */
  reset(): void {
    this.#instances.clear()
  }

  /** The script key an agent uses: its name, else `type:<agentType>`, else `*`; undefined when none applies. */
  scriptKeyFor(agent: AgentIdentity): string | undefined {
    const { agents } = this.scenario
    if (agent.name !== undefined && agents[agent.name]) return agent.name
    if (agent.type !== undefined && agents[`type:${agent.type}`]) return `type:${agent.type}`
    if (agents['*']) return '*'
    return undefined
  }

  /**
   * Picks and consumes the turn answering one request.
   * @param userText the newest user message's text (see `newestUserText`).
   * @throws ScriptUnavailableError `(no script)` when no script applies, `(scenario exhausted)` when no turn is left.
   */
  select(agent: AgentIdentity, userText: string): Selection {
    const state = this.#state(agent)
    if (state.scriptKey === UNSCRIPTED) {
      return { scriptKey: UNSCRIPTED, turnIndex: -1, turn: { text: `Nothing is scripted for ${describe(agent)}.` } }
    }
    const turns = this.scenario.agents[state.scriptKey]
    const index = pickTurn(turns, state.used, userText)
    if (index === undefined) {
      throw new ScriptUnavailableError(
        'exhausted',
        `${describe(agent)} has used ${state.used.size} of the ${turns.length} turns of script '${state.scriptKey}' ` +
          `in scenario '${this.scenario.name ?? 'unnamed'}' and none left matches the request`
      )
    }
    const turn = turns[index]
    const fired = state.faultsFired.get(index) ?? 0
    if (turn.fault && fired < (turn.faultCount ?? 1)) {
      state.faultsFired.set(index, fired + 1)
      return { scriptKey: state.scriptKey, turnIndex: index, turn, fault: turn.fault }
    }
    state.used.add(index)
    return { scriptKey: state.scriptKey, turnIndex: index, turn }
  }

  #state(agent: AgentIdentity): InstanceState {
    const instanceKey = agent.id ?? (agent.name !== undefined ? `name:${agent.name}` : `type:${agent.type ?? ''}`)
    let state = this.#instances.get(instanceKey)
    if (!state) {
      const scriptKey = this.scriptKeyFor(agent)
      if (scriptKey === undefined && this.scenario.strict) {
        throw new ScriptUnavailableError(
          'no_script',
          `no script for ${describe(agent)} in strict scenario '${this.scenario.name ?? 'unnamed'}' ` +
            `(scripts: ${Object.keys(this.scenario.agents).join(', ') || 'none'})`
        )
      }
      state = { scriptKey: scriptKey ?? UNSCRIPTED, used: new Set(), faultsFired: new Map() }
      this.#instances.set(instanceKey, state)
    }
    return state
  }
}

/** Index of the turn to use, or undefined when none is left (docs/scenarios.md#scripted-model-scenarios selection rule). */
export function pickTurn(turns: readonly Turn[], used: ReadonlySet<number>, userText: string): number | undefined {
  const matched = turns.findIndex((t, i) => !used.has(i) && t.when !== undefined && userText.includes(t.when))
  if (matched >= 0) return matched
  const next = turns.findIndex((t, i) => !used.has(i) && t.when === undefined)
  return next >= 0 ? next : undefined
}

function describe(agent: AgentIdentity): string {
  const parts = [`agent '${agent.name ?? '(no name)'}'`]
  if (agent.type !== undefined) parts.push(`type '${agent.type}'`)
  if (agent.id !== undefined) parts.push(`id '${agent.id}'`)
  return parts.join(', ')
}
