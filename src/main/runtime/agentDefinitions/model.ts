import { resolveModel } from '../model'

/** The environment variable that forces every subagent's model (docs/agents.md#agent-definitions "env override"). */
export const SUBAGENT_MODEL_ENV = 'SWARMDESK_SUBAGENT_MODEL'

/** Which level decided a subagent's model; recorded on the agent task next to the id. */
export type ModelSource = 'env' | 'call' | 'definition' | 'parent'

/** Input of {@link resolveAgentModel}. Empty strings count as absent. */
export interface ResolveAgentModelInput {
  /** `SWARMDESK_SUBAGENT_MODEL`, read by the caller (see {@link subagentModelOverride}). */
  envOverride?: string | undefined
  /** The Agent tool call's `model` argument. */
  callModel?: string | undefined
  /** The definition's `model` (`inherit`, an alias or an id). */
  definitionModel?: string | undefined
  /** The parent's effective model id. */
  parentModel: string
}

/**
 * A subagent's effective model (docs/agents.md#agent-definitions): env override > the call's `model` > the definition's
 * `model` > the parent's model. Aliases (`sonnet`, `opus`, `haiku`) resolve to ids; `inherit` at
 * any level means the parent's model, and that level is still the one recorded as deciding.
 * Pure.
 */
export function resolveAgentModel(input: ResolveAgentModelInput): { model: string; source: ModelSource } {
  const levels: Array<[ModelSource, string | undefined]> = [
    ['env', input.envOverride],
    ['call', input.callModel],
    ['definition', input.definitionModel]
  ]
  for (const [source, value] of levels) {
    const named = value?.trim()
    if (named) return { model: named === 'inherit' ? input.parentModel : resolveModel(named), source }
  }
  return { model: input.parentModel, source: 'parent' }
}

/** The env override of {@link resolveAgentModel}, from `env` (process.env by default). */
export function subagentModelOverride(env: NodeJS.ProcessEnv = process.env): string | undefined {
  return env[SUBAGENT_MODEL_ENV] || undefined
}
