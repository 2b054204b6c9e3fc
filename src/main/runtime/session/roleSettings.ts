import type { LoadedSettings } from '../permissions'
import { SUBAGENT_MODEL_ENV } from '../agentDefinitions'
import { AUTO_BACKGROUND_ENV } from '../subagents'
import { MCP_CALL_TIMEOUT_ENV, MCP_START_TIMEOUT_ENV } from '../mcp'

/**
 * The value of a top-level settings key from the highest source that sets it with the type
 * `guard` accepts (docs/permissions.md#permissions: single values take the highest source); undefined when none does.
 * Values are validated when the settings load (settingsSchema.ts).
 */
export function settingValue<T>(
  settings: Pick<LoadedSettings, 'sources'>,
  key: string,
  guard: (value: unknown) => value is T
): T | undefined {
  let value: T | undefined
  for (const source of settings.sources) {
    const v = (source.data as Record<string, unknown>)[key]
    if (guard(v)) value = v
  }
  return value
}

const isText = (v: unknown): v is string => typeof v === 'string' && v.trim() !== ''
const isNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v)

/**
 * The environment the runtime reads, with the Settings view's choices (docs/ui.md#the-workspace-ui) filled in where
 * the environment is silent — a variable set by the person always wins over a settings file:
 * `SWARMDESK_MODEL` from `model` (the leader's model), `SWARMDESK_SUBAGENT_MODEL` from
 * `subagentModel`, `SWARMDESK_AUTO_BACKGROUND_MS` from `autoBackgroundSeconds` (× 1000), and
 * `MCP_TIMEOUT` / `MCP_TOOL_TIMEOUT` from the settings' `env` block.
 * Returns a new object; `env` is not changed.
 */
export function envWithSettings(env: NodeJS.ProcessEnv, settings: LoadedSettings): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = { ...env }
  const model = settingValue(settings, 'model', isText)
  if (!out.SWARMDESK_MODEL && model) out.SWARMDESK_MODEL = model.trim()
  const subagentModel = settingValue(settings, 'subagentModel', isText)
  if (!out[SUBAGENT_MODEL_ENV] && subagentModel) out[SUBAGENT_MODEL_ENV] = subagentModel.trim()
  const delay = settingValue(settings, 'autoBackgroundSeconds', isNumber)
  if ((out[AUTO_BACKGROUND_ENV] === undefined || out[AUTO_BACKGROUND_ENV] === '') && delay !== undefined)
    out[AUTO_BACKGROUND_ENV] = String(Math.round(delay * 1000))
  // the MCP timeouts of the settings' `env` block, as Claude Code reads them (docs/tools.md#mcp-servers)
  for (const name of [MCP_START_TIMEOUT_ENV, MCP_CALL_TIMEOUT_ENV])
    if ((out[name] === undefined || out[name] === '') && settings.env[name]) out[name] = settings.env[name]
  return out
}

/** The `teammateModel` setting: every teammate's model, when set. */
export function teammateModelSetting(settings: LoadedSettings): string | undefined {
  return settingValue(settings, 'teammateModel', isText)?.trim()
}
