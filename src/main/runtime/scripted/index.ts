/**
 * The scripted model (docs/model.md#model-access, docs/scenarios.md#scripted-model-scenarios): an Anthropic-compatible HTTP server answering from scenario
 * files, with a simulated prompt cache and scripted faults. The offline demo and every test run on it.
 *
 * HTTP surface (node:http, 127.0.0.1 by default):
 * - `POST /v1/messages` (`?beta=true` too), streaming or not. Key by `x-api-key` or
 *   `Authorization: Bearer`. Errors have the API's shape `{type:"error", error:{type, message}}`
 *   and a `request-id` header: 401 `authentication_error` (no key / key not the scenario's
 *   `apiKey`), 400 `invalid_request_error` (body; more than 4 breakpoints; a `tool_use` without its `tool_result` in the next message), 404 `not_found_error`
 *   (`model: X`), 400 `scenario_error` (`(no script) …` / `(scenario exhausted) …`, not retried),
 *   400 `invalid_request_error` "prompt is too long: N tokens > W maximum" for a prompt over the
 *   scenario's `contextWindow` (default 200,000 tokens; tokens are UTF-8 bytes / 4), as the API refuses one,
 *   429 `rate_limit_error` with `retry-after: 0` (or without it) and 529 `overloaded_error`
 *   (scripted faults; the others — a cut, a stall, a malformed event — break the stream itself,
 *   see `FaultSchema`).
 * - `GET /_scripted/requests` (the request log), `GET /_scripted/stats`, `POST /_scripted/reset`,
 *   `GET /_scripted/health`. No key is needed for these.
 */
export { ScenarioError, ScriptedModelError, ScriptUnavailableError, type ScriptUnavailableReason } from './errors'
export {
  loadScenario,
  parseScenario,
  validateScenario,
  ScenarioSchema,
  DEFAULT_SCRIPTED_CONTEXT_WINDOW,
  TurnSchema,
  type Scenario,
  type ScenarioInput,
  type Turn,
  type Fault,
  type CacheSettings,
  type ScriptedToolCall
} from './scenario'
export { startScriptedServer, type ScriptedServer, type ScriptedServerOptions, type ServedRequest } from './server'
export type { RecordedRequest, ScriptedStats } from './state'
export type { Clock, CacheUsage } from './promptCache'
export { PromptCache, LOOKBACK_BLOCKS } from './promptCache'
export { analysePrompt, promptBlocks, tokensForBytes, BYTES_PER_TOKEN, type PromptPrefixes } from './prompt'
export { canonicalJson } from './canonical'
export * from './identityHeaders'
