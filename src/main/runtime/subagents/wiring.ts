import { loadAgentDefinitions, resolveAgentModel, resolveSubagentTools, subagentModelOverride, type AgentFileReport } from '../agents'
import type { SessionOptions } from '../session/session'

/** Environment variable: ms before a sync subagent moves to the background (SPEC §6.4); 0 = never. */
export const AUTO_BACKGROUND_ENV = 'SWARMDESK_AUTO_BACKGROUND_MS'

/**
 * The session's subagent configuration from the definitions visible in `cwd` (SPEC §5): the
 * loaded definitions, SPEC §5's tool filtering and model precedence, and the auto-background
 * delay; `teammateModel` (settings) forces every teammate's model. Also returns the definition files' reports, so callers can show what was wrong.
 */
export async function loadSubagentWiring(options: { cwd: string; home: string; env: NodeJS.ProcessEnv; teammateModel?: string }): Promise<{ subagents: NonNullable<SessionOptions['subagents']>; files: AgentFileReport[] }> {
  const loaded = await loadAgentDefinitions({ cwd: options.cwd, home: options.home })
  const rawDelay = options.env[AUTO_BACKGROUND_ENV]
  const autoBackgroundMs = rawDelay !== undefined && rawDelay !== '' && Number.isFinite(Number(rawDelay)) && Number(rawDelay) >= 0 ? Number(rawDelay) : undefined
  return {
    files: loaded.files,
    subagents: {
      definitions: () => loaded.definitions,
      resolveTools: (definition, parentTools, isAsync, depth) => {
        const { tools } = resolveSubagentTools({ definition, available: parentTools.map((t) => t.name), async: isAsync, depth })
        return parentTools.filter((t) => tools.includes(t.name))
      },
      resolveModel: (definition, argument, parentModel) =>
        resolveAgentModel({ envOverride: subagentModelOverride(options.env), callModel: argument, definitionModel: definition.model, parentModel }),
      // the `teammateModel` setting overrides a teammate's model as SWARMDESK_SUBAGENT_MODEL does a subagent's
      ...(options.teammateModel
        ? { resolveTeammateModel: (definition, argument, parentModel) => resolveAgentModel({ envOverride: options.teammateModel, callModel: argument, definitionModel: definition.model, parentModel }) }
        : {}),
      ...(autoBackgroundMs !== undefined ? { autoBackgroundMs } : {})
    }
  }
}

/** One line per problem or warning of the definition files, for notices. */
export function definitionFileNotices(files: AgentFileReport[]): Array<{ level: 'warning' | 'error'; message: string }> {
  return files.flatMap((f) => [
    ...f.problems.map((p) => ({ level: 'error' as const, message: `Agent definition ${f.source} cannot be used: ${p.field}: ${p.message}` })),
    ...f.warnings.map((w) => ({ level: 'warning' as const, message: `Agent definition ${f.source}: ${w.field}: ${w.message}` }))
  ])
}
