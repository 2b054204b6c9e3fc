import { RunUsageError } from '../base'
import {
  loadAgentDefinitions,
  resolveAgentModel,
  resolveSubagentTools,
  subagentModelOverride,
  type AgentFileReport
} from '../agentDefinitions'
import { trustStatus } from '../permissions'
import type { SubagentRuntimeOptions } from './options'

/** The subagent options a session takes (the rest of {@link SubagentRuntimeOptions} the session fills in itself). */
export type SessionSubagentOptions = Pick<
  SubagentRuntimeOptions,
  | 'definitions'
  | 'resolveTools'
  | 'resolveModel'
  | 'resolveTeammateModel'
  | 'autoBackgroundMs'
  | 'maxConcurrentAgents'
  | 'bubblePermissions'
  | 'backgroundDisabled'
  | 'projectContext'
  | 'forkEnabled'
  | 'coordinator'
>

/** Environment variable: ms before a sync subagent moves to the background (docs/agents.md#auto-background); 0 = never. */
export const AUTO_BACKGROUND_ENV = 'SWARMDESK_AUTO_BACKGROUND_MS'

/** Environment variable: subagents and forks a session may run at once (a positive integer); see DEFAULT_MAX_CONCURRENT_AGENTS. */
export const MAX_CONCURRENT_AGENTS_ENV = 'SWARMDESK_MAX_CONCURRENT_AGENTS'

/**
 * The concurrent-agent cap from the environment, undefined when unset.
 * @throws RunUsageError when it is set but not a positive integer (a typo must not lift the cap).
 */
function maxConcurrentAgentsFrom(env: NodeJS.ProcessEnv): number | undefined {
  const raw = env[MAX_CONCURRENT_AGENTS_ENV]
  if (raw === undefined || raw === '') return undefined
  const n = Number(raw)
  if (!Number.isInteger(n) || n < 1)
    throw new RunUsageError(
      `${MAX_CONCURRENT_AGENTS_ENV} must be a positive whole number of agents; got '${raw}'. Unset it for the default.`
    )
  return n
}

/**
 * The session's subagent configuration from the definitions visible in `cwd` (docs/agents.md#agent-definitions): the
 * loaded definitions, docs/agents.md#agent-definitions's tool filtering and model precedence, and the auto-background
 * delay; `teammateModel` (settings) forces every teammate's model. Also returns the definition
 * files' reports, so callers can show what was wrong.
 *
 * The workspace counts as trusted (docs/permissions.md#permissions) when `trustProject` is set (`--trust-project`, or a
 * teammate's per-run trust from its environment), or when `<home>/trusted.json` lists it;
 * until then project definitions cannot raise their agents' permission mode (loader.ts).
 */
export async function loadSubagentWiring(options: {
  cwd: string
  home: string
  env: NodeJS.ProcessEnv
  trustProject?: boolean
  teammateModel?: string
}): Promise<{ subagents: SessionSubagentOptions; files: AgentFileReport[] }> {
  const projectTrusted = options.trustProject === true || (await trustStatus(options.home, options.cwd)).trusted
  const loaded = await loadAgentDefinitions({ cwd: options.cwd, home: options.home, projectTrusted })
  const maxConcurrentAgents = maxConcurrentAgentsFrom(options.env)
  const rawDelay = options.env[AUTO_BACKGROUND_ENV]
  const autoBackgroundMs =
    rawDelay !== undefined && rawDelay !== '' && Number.isFinite(Number(rawDelay)) && Number(rawDelay) >= 0
      ? Number(rawDelay)
      : undefined
  return {
    files: loaded.files,
    subagents: {
      definitions: () => loaded.definitions,
      resolveTools: (definition, parentTools, isAsync, depth) => {
        const { tools } = resolveSubagentTools({
          definition,
          available: parentTools.map((t) => t.name),
          async: isAsync,
          depth
        })
        return parentTools.filter((t) => tools.includes(t.name))
      },
      resolveModel: (definition, argument, parentModel) =>
        resolveAgentModel({
          envOverride: subagentModelOverride(options.env),
          callModel: argument,
          definitionModel: definition.model,
          parentModel
        }),
      // the `teammateModel` setting overrides a teammate's model as SWARMDESK_SUBAGENT_MODEL does a subagent's
      ...(options.teammateModel
        ? {
            resolveTeammateModel: (definition, argument, parentModel) =>
              resolveAgentModel({
                envOverride: options.teammateModel,
                callModel: argument,
                definitionModel: definition.model,
                parentModel
              })
          }
        : {}),
      ...(autoBackgroundMs !== undefined ? { autoBackgroundMs } : {}),
      ...(maxConcurrentAgents !== undefined ? { maxConcurrentAgents } : {})
    }
  }
}

/** One line per problem or warning of the definition files, for notices. */
export function definitionFileNotices(
  files: AgentFileReport[]
): Array<{ level: 'warning' | 'error'; message: string }> {
  return files.flatMap((f) => [
    ...f.problems.map((p) => ({
      level: 'error' as const,
      message: `Agent definition ${f.source} cannot be used: ${p.field}: ${p.message}`
    })),
    ...f.warnings.map((w) => ({
      level: 'warning' as const,
      message: `Agent definition ${f.source}: ${w.field}: ${w.message}`
    }))
  ])
}
