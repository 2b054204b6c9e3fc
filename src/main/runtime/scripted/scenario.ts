import { readFile } from 'node:fs/promises'
import { basename, extname } from 'node:path'
import { isNode, LineCounter, parse as parseYaml, parseDocument, YAMLParseError } from 'yaml'
import { z } from 'zod'
import { ScenarioError } from './errors'
import { ScriptedWebSearchSchema } from './webSearch'

/**
 * Faults a turn can inject (docs/scenarios.md#scripted-model-scenarios); each fires on the first request selecting the turn (or the
 * first `faultCount` ones), and the turn then answers normally.
 *
 * Scripted faults (docs/scenarios.md#scripted-model-scenarios's four, then the ones issue 10's fault suite needs):
 * `rate_limit` 429 with `retry-after: 0`; `overloaded` 529; `overloaded_mid_stream` an in-band
 * overloaded error after some text; `disconnect` the socket closed before any answer;
 * `rate_limit_no_retry_after` 429 without the header (the client picks its own backoff);
 * `disconnect_mid_stream` the socket closed after some text; `malformed_sse` a stream whose event
 * data is not JSON; `stall_mid_stream` some text, then nothing until the client gives up.
 */
export const FaultSchema = z.enum([
  'rate_limit',
  'overloaded',
  'overloaded_mid_stream',
  'disconnect',
  'rate_limit_no_retry_after',
  'disconnect_mid_stream',
  'malformed_sse',
  'stall_mid_stream'
])
export type Fault = z.infer<typeof FaultSchema>

/** Stop reasons the Messages API can return; a turn may force one. */
export const StopReasonSchema = z.enum(['end_turn', 'tool_use', 'max_tokens', 'stop_sequence', 'pause_turn', 'refusal'])

/** One scripted tool call: a tool_use block with this name and input (placeholders filled). */
export const ScriptedToolCallSchema = z.strictObject({
  name: z.string().min(1),
  input: z.record(z.string(), z.unknown()).default({})
})
export type ScriptedToolCall = z.infer<typeof ScriptedToolCallSchema>

/**
 * One scripted model answer (docs/scenarios.md#scripted-model-scenarios). `when` is a case-sensitive substring looked for in the
 * newest user message; `delayMs` (ms) waits before answering.
 */
export const TurnSchema = z.strictObject({
  text: z.string().optional(),
  tools: z.array(ScriptedToolCallSchema).optional(),
  when: z.string().min(1).optional(),
  fault: FaultSchema.optional(),
  /**
   * How many requests selecting the turn get its fault before it answers (default 1). More than
   * the client retries makes the model call fail: the retries are spent, and the turn is still
   * there for the next request (a person's next prompt retries it).
   */
  faultCount: z.number().int().positive().optional(),
  /** `retry-after-ms` of the turn's 429 or 529 fault (ms), which the SDK waits instead of its own backoff (0.5 s doubling). */
  retryAfterMs: z.number().int().positive().optional(),
  delayMs: z.number().int().nonnegative().optional(),
  stopReason: StopReasonSchema.optional(),
  /**
   * A server-side web search the model makes before its text (docs/scenarios.md#web-tools): answered
   * with a `server_tool_use` and a `web_search_tool_result` block; the request must offer a
   * `web_search_*` tool.
   */
  webSearch: ScriptedWebSearchSchema.optional()
})
export type Turn = z.infer<typeof TurnSchema>

/** Prompt-cache settings (docs/model.md#model-access): the API caches nothing under 1,024 tokens, for 5 minutes. */
export const CacheSettingsSchema = z.strictObject({
  minTokens: z.number().int().nonnegative().default(1024),
  ttlMs: z.number().int().positive().default(300_000)
})
export type CacheSettings = z.infer<typeof CacheSettingsSchema>

/**
 * The context window the scripted model enforces, in its tokens (UTF-8 bytes of the prompt / 4,
 * see `tokensForBytes`): 200,000, the window of every Claude model (Anthropic's models overview).
 */
export const DEFAULT_SCRIPTED_CONTEXT_WINDOW = 200_000

/**
 * A scenario's suggested prompt: what a person new to the workspace sends first (its first screen
 * offers it as a button). One line of text, up to 500 characters: a button holds no more.
 */
export const SuggestedPromptSchema = z
  .string({ error: 'the suggested prompt must be text (a quoted string)' })
  .trim()
  .min(1, 'the suggested prompt is empty: write the first prompt a person should send, or leave `prompt` out')
  .max(500, 'the suggested prompt is longer than 500 characters: a first-screen button shows one short line')
  .refine((text) => !/[\r\n]/.test(text), 'the suggested prompt has a line break: write it on one line')

/**
 * A scenario file (docs/scenarios.md#scripted-model-scenarios). `agents` keys are an agent name, `type:<agentType>` or `*`.
 * `prompt`, when set, is the prompt the scenario is written for ({@link SuggestedPromptSchema}).
 * `apiKey`, when set, is the only key accepted; `models`, when set, the only models accepted.
 * `contextWindow` (tokens, default {@link DEFAULT_SCRIPTED_CONTEXT_WINDOW}): a request whose
 * prompt passes it is refused as the real API refuses it, HTTP 400 `invalid_request_error`
 * "prompt is too long: N tokens > W maximum".
 */
export const ScenarioSchema = z.strictObject({
  name: z.string().optional(),
  prompt: SuggestedPromptSchema.optional(),
  strict: z.boolean().default(false),
  cache: CacheSettingsSchema.default({ minTokens: 1024, ttlMs: 300_000 }),
  apiKey: z.string().min(1).optional(),
  models: z.array(z.string().min(1)).min(1).optional(),
  contextWindow: z.number().int().positive().default(DEFAULT_SCRIPTED_CONTEXT_WINDOW),
  agents: z.record(z.string().min(1), z.array(TurnSchema))
})
/** A validated scenario, defaults applied. */
export type Scenario = z.infer<typeof ScenarioSchema>
/** A scenario as written in a file, before defaults. */
export type ScenarioInput = z.input<typeof ScenarioSchema>

/** `agents.team-lead[2].tools[0].name` from a zod issue path. */
function formatPath(path: readonly PropertyKey[]): string {
  let out = ''
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`
    else out += out ? `.${String(key)}` : String(key)
  }
  return out
}

/**
 * Validates an already-parsed scenario object. With `text` (the file's source), the message also
 * names the line of the file where the problem's value is.
 * @throws ScenarioError naming `file`, the path of the first problem and the reason.
 */
export function validateScenario(data: unknown, fileNameForErrors: string, text?: string): Scenario {
  const result = ScenarioSchema.safeParse(data)
  if (result.success) return result.data
  const issue = result.error.issues[0]
  const line = text === undefined ? undefined : lineOfPath(text, issue.path)
  throw new ScenarioError(
    fileNameForErrors,
    formatPath(issue.path),
    line === undefined ? issue.message : `${issue.message} (line ${line})`
  )
}

/**
 * The 1-based line of the file where the value at `path` starts (the nearest enclosing value
 * when the key itself is missing); undefined when the text does not parse as YAML. JSON is
 * YAML, so this serves both formats.
 */
function lineOfPath(text: string, path: readonly PropertyKey[]): number | undefined {
  const lines = new LineCounter()
  const doc = parseDocument(text, { lineCounter: lines })
  if (doc.errors.length > 0) return undefined
  for (let n = path.length; n >= 0; n--) {
    const node = doc.getIn(path.slice(0, n) as Array<string | number>, true)
    if (isNode(node) && node.range) return lines.linePos(node.range[0]).line
  }
  return undefined
}

/**
 * Parses scenario text. `format` defaults to YAML, which also reads JSON; pass 'json' for a
 * strict JSON parse (clearer errors for .json files). Errors name the line of the file.
 * @throws ScenarioError for a syntax error (with line) or an invalid scenario.
 */
export function parseScenario(text: string, fileNameForErrors: string, format: 'json' | 'yaml' = 'yaml'): Scenario {
  let data: unknown
  try {
    data = format === 'json' ? JSON.parse(text) : parseYaml(text)
  } catch (error) {
    const reason =
      error instanceof YAMLParseError
        ? `invalid YAML at line ${error.linePos?.[0].line ?? '?'}: ${error.message.split('\n')[0]}`
        : `invalid JSON${jsonErrorLine(text)}: ${(error as Error).message.split('\n')[0]}`
    throw new ScenarioError(fileNameForErrors, '', reason)
  }
  return validateScenario(data, fileNameForErrors, text)
}

/** ` at line N` for JSON that does not parse: JSON.parse names no line, the YAML parser (JSON is YAML) does. */
function jsonErrorLine(text: string): string {
  const error = parseDocument(text, { prettyErrors: true }).errors[0]
  return error?.linePos ? ` at line ${error.linePos[0].line}` : ''
}

/**
 * Reads and validates a scenario file; `.json` is parsed as JSON, anything else as YAML.
 * @throws ScenarioError when the file cannot be read or is malformed (message names the file).
 */
export async function loadScenario(file: string): Promise<Scenario> {
  let text: string
  try {
    text = await readFile(file, 'utf8')
  } catch (error) {
    throw new ScenarioError(
      file,
      '',
      `cannot read file: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`
    )
  }
  const scenario = parseScenario(text, file, extname(file).toLowerCase() === '.json' ? 'json' : 'yaml')
  return scenario.name === undefined ? { ...scenario, name: basename(file) } : scenario
}
