/**
 * The scripted model (SPEC §13, §15): an Anthropic-compatible HTTP server answering from scenario
 * files, with a simulated prompt cache and scripted faults. The offline demo and every test run on it.
 */
export { ScenarioError, ScriptedModelError, ScriptUnavailableError, type ScriptUnavailableReason } from './errors'
export {
  loadScenario,
  parseScenario,
  validateScenario,
  ScenarioSchema,
  TurnSchema,
  type Scenario,
  type ScenarioInput,
  type Turn,
  type Fault,
  type CacheSettings,
  type ScriptedToolCall
} from './scenario'
export { startScriptedServer, type ScriptedServer, type ScriptedServerOptions } from './server'
export type { RecordedRequest, ScriptedStats } from './state'
export type { Clock, CacheUsage } from './promptCache'
export { PromptCache, LOOKBACK_BLOCKS } from './promptCache'
export { analysePrompt, promptBlocks, tokensForBytes, BYTES_PER_TOKEN, type PromptPrefixes } from './prompt'
export { canonicalJson } from './canonical'
