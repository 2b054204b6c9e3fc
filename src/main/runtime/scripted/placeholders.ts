import { messageTexts, toolResultText, type MessagesRequest } from './request'

/**
 * Values of the placeholders a scenario may use (docs/scenarios.md#scripted-model-scenarios). A value the request does not provide
 * is the empty string, so a scenario never sends a literal `{{…}}` to the runtime by accident.
 */
export interface PlaceholderValues {
  cwd: string
  agent_name: string
  agent_id: string
  /** Text of the newest tool_result block. */
  last_tool_result: string
  /** `agentId` from the newest tool_result that reports one (an Agent tool result, docs/tools.md#tools). */
  last_agent_id: string
  /** `request_id` attribute of the newest `<teammate-message>` that has one (docs/teams.md#mailbox), or the newest `"requestId"` of a protocol JSON (Claude Code's). */
  request_id: string
  /** Id from the newest `Task #<id> created`. */
  task_id: string
}

// Swarmdesk writes `agentId:`, Claude Code `agent_id:` in a background agent's spawn result
const AGENT_ID_LINE = /^\s*(?:agentId|agent_id):\s*(\S+)/m
const AGENT_ID_JSON = /"(?:agentId|agent_id)"\s*:\s*"([^"]+)"/
// Swarmdesk's `request_id` attribute, or the `requestId` of Claude Code's protocol JSON inside a message
const REQUEST_ID = /<teammate-message\b[^>]*?\brequest_id="([^"]*)"[^>]*>|"requestId"\s*:\s*"([^"]+)"/g
const TASK_CREATED = /Task #([\w-]+) created/g

/** Tool results of the request, newest first. */
function toolResultsNewestFirst(request: MessagesRequest): string[] {
  const results: string[] = []
  for (const message of request.messages) {
    if (typeof message.content === 'string') continue
    for (const block of message.content) if (block.type === 'tool_result') results.push(toolResultText(block))
  }
  return results.reverse()
}

/** Every text of every message (text blocks, tool results, string contents), newest first. */
function textsNewestFirst(request: MessagesRequest): string[] {
  return request.messages.flatMap(messageTexts).reverse()
}

function lastMatch(
  text: string,
  pattern: RegExp,
  pick: (match: RegExpMatchArray) => string | undefined
): string | undefined {
  let found: string | undefined
  for (const match of text.matchAll(pattern)) found = pick(match) ?? found
  return found
}

/** Reads the placeholder values out of a request and its `x-swarmdesk-*` headers. */
export function placeholderValues(
  request: MessagesRequest,
  agent: { name?: string; id?: string; cwd?: string }
): PlaceholderValues {
  const results = toolResultsNewestFirst(request)
  const texts = textsNewestFirst(request)
  const findInTexts = (find: (text: string) => string | undefined): string => {
    for (const text of texts) {
      const value = find(text)
      if (value !== undefined) return value
    }
    return ''
  }
  let lastAgentId = ''
  for (const result of results) {
    const match = AGENT_ID_LINE.exec(result) ?? AGENT_ID_JSON.exec(result)
    if (match) {
      lastAgentId = match[1]
      break
    }
  }
  return {
    cwd: agent.cwd ?? '',
    agent_name: agent.name ?? '',
    agent_id: agent.id ?? '',
    last_tool_result: results[0] ?? '',
    last_agent_id: lastAgentId,
    request_id: findInTexts((text) => lastMatch(text, REQUEST_ID, (match) => match[1] ?? match[2])),
    task_id: findInTexts((text) => lastMatch(text, TASK_CREATED, (match) => match[1]))
  }
}

const PLACEHOLDER = /\{\{\s*(\w+)\s*\}\}/g

/** Replaces known `{{name}}` placeholders in a string; unknown names are left as written. */
export function fillString(template: string, values: PlaceholderValues): string {
  return template.replace(PLACEHOLDER, (whole, name: string) =>
    Object.hasOwn(values, name) ? values[name as keyof PlaceholderValues] : whole
  )
}

/** Fills placeholders in every string of a JSON value (object keys are left alone). */
export function fillDeep<T>(value: T, values: PlaceholderValues): T {
  if (typeof value === 'string') return fillString(value, values) as T
  if (Array.isArray(value)) return value.map((item) => fillDeep(item, values)) as T
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, fillDeep(item, values)])) as T
  }
  return value
}
