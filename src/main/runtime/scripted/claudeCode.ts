import type { IncomingMessage } from 'node:http'
import { header } from './http'
import type { MessagesRequest } from './request'
import type { AnswerBlock } from './response'

/**
 * The headers by which Claude Code says who is asking (docs/model.md#claude-code): its session id
 * on every request, and for any agent but the session's main one that agent's id (`name@team` for
 * a teammate, `a` + 16 hex digits for a subagent) and, when the agent was started by another
 * subagent or teammate, that one's id.
 */
export const CLAUDE_CODE_HEADERS = {
  sessionId: 'x-claude-code-session-id',
  agentId: 'x-claude-code-agent-id',
  parentAgentId: 'x-claude-code-parent-agent-id'
} as const

/** Who a Claude Code request comes from, as the script book reads it (the fields of `AgentIdentity`). */
export interface ClaudeCodeIdentity {
  name?: string
  type?: string
  id?: string
  cwd?: string
  /** True for Claude Code's session-title call (no agent id, structured output): answered by `cc-title`. */
  title?: boolean
}

/** The script key of Claude Code's title call (docs/scenarios.md#claude-code). */
export const TITLE_SCRIPT = 'cc-title'

/** What the server remembers of an Agent call it answered, to know the subagent or teammate it starts. */
export interface SpawnRecord {
  prompt: string
  name?: string
  type: string
  /** Claimed by the agent it started (its Claude Code agent id). */
  claimedBy?: string
}

const TEAMMATE_ID = /^(.+)@([^@]+)$/
const WORKING_DIRECTORY = /Primary working directory: ([^\n\\]+)/

/** Slug of an Agent call's description, the name Swarmdesk gives an unnamed subagent (docs/scenarios.md#picking-a-script). */
export function descriptionSlug(description: string): string {
  return description
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '')
}

/** Every Agent (or older Task) tool call of an answer that starts an agent with a prompt. */
export function spawnsOf(content: readonly AnswerBlock[]): SpawnRecord[] {
  const out: SpawnRecord[] = []
  for (const block of content) {
    if (block.type !== 'tool_use' || (block.name !== 'Agent' && block.name !== 'Task')) continue
    const { prompt, name, description, subagent_type } = block.input as Record<string, unknown>
    if (typeof prompt !== 'string' || prompt === '') continue
    const given =
      typeof name === 'string' && name
        ? name
        : typeof description === 'string' && description
          ? descriptionSlug(description)
          : undefined
    out.push({
      prompt,
      ...(given ? { name: given } : {}),
      type: typeof subagent_type === 'string' && subagent_type ? subagent_type : 'general-purpose'
    })
  }
  return out
}

/** The first user message's texts: where Claude Code puts the prompt an agent was started with. */
function firstUserText(request: MessagesRequest): string {
  const first = request.messages.find((message) => message.role === 'user')
  if (!first) return ''
  return typeof first.content === 'string'
    ? first.content
    : first.content.map((block) => (typeof block.text === 'string' ? block.text : '')).join('\n')
}

/** The `Primary working directory:` line of Claude Code's system prompt, the agent's cwd. */
function workingDirectory(request: MessagesRequest): string | undefined {
  const system =
    typeof request.system === 'string'
      ? request.system
      : (request.system ?? []).map((block) => (typeof block.text === 'string' ? block.text : '')).join('\n')
  return WORKING_DIRECTORY.exec(system)?.[1]?.trim()
}

/**
 * Reads who is asking from Claude Code's headers; undefined when the request carries none (not
 * Claude Code). The session's main agent is `team-lead` of type `main` with the session id as its
 * id, as Swarmdesk's leader is; a teammate is named by its id's part before `@`; a subagent (and a
 * teammate's type) is found by the Agent call whose prompt its first message holds, newest first,
 * each call claimed by one agent. A request with no agent id asking for structured output is the
 * session-title call.
 */
export function claudeCodeIdentity(
  req: IncomingMessage,
  request: MessagesRequest | undefined,
  spawns: SpawnRecord[]
): ClaudeCodeIdentity | undefined {
  const sessionId = header(req, CLAUDE_CODE_HEADERS.sessionId)
  const agentId = header(req, CLAUDE_CODE_HEADERS.agentId)
  if (sessionId === undefined && agentId === undefined) return undefined
  const cwd = request ? workingDirectory(request) : undefined
  const where = cwd !== undefined ? { cwd } : {}
  if (agentId === undefined) {
    if (request?.output_config?.format)
      return { name: TITLE_SCRIPT, id: `${TITLE_SCRIPT}:${sessionId ?? ''}`, title: true, ...where }
    return { name: 'team-lead', type: 'main', ...(sessionId !== undefined ? { id: sessionId } : {}), ...where }
  }
  let spawn = spawns.find((record) => record.claimedBy === agentId)
  if (!spawn && request) {
    const text = firstUserText(request)
    spawn = [...spawns].reverse().find((record) => record.claimedBy === undefined && text.includes(record.prompt))
    if (spawn) spawn.claimedBy = agentId
  }
  const teammate = TEAMMATE_ID.exec(agentId)
  const name = teammate ? teammate[1] : spawn?.name
  return { id: agentId, ...(name !== undefined ? { name } : {}), ...(spawn ? { type: spawn.type } : {}), ...where }
}
