import type { ContentBlockParam, MessageParam } from '@anthropic-ai/sdk/resources/messages'

/** The placeholder result every tool_use of the parent's message gets in a fork (docs/agents.md#forks, exact text). */
export const FORK_PLACEHOLDER = 'Fork started — processing in background'

/** The tag that marks a fork's directive; its presence in a history means "this is a fork" (docs/agents.md#forks guard). */
export const FORK_BOILERPLATE_TAG = 'fork-boilerplate'

/** The fixed part of a fork's directive message: who it is and how it reports. */
const BOILERPLATE = `You are a fork of the agent whose conversation is above: a worker that carries out one directive directly, in the background. Do not ask questions and do not wait for confirmation; nobody will answer. Do not start other agents. Work with the tools you have, then end with a report in this shape:
Scope: what you were asked to do
Result: what you found or did
Key files: the files that matter, with paths
Files changed: every file you changed (or "none")
Issues: anything that failed, is uncertain, or needs the parent's attention`

/**
 * The text block that ends a fork's first user message: the boilerplate inside
 * `<fork-boilerplate>`, then `Your directive: …` last, so sibling forks' requests are
 * byte-identical up to the directive. `notice` (a worktree path translation) goes inside the tag.
 */
export function forkDirectiveText(directive: string, notice?: string): string {
  const body = notice ? `${BOILERPLATE}\n\n${notice}` : BOILERPLATE
  return `<${FORK_BOILERPLATE_TAG}>\n${body}\n</${FORK_BOILERPLATE_TAG}>\n\nYour directive: ${directive}`
}

/**
 * A fork's starting history (docs/agents.md#forks): the parent's whole history as it is — its last message is
 * the assistant message holding the Agent call, with every tool_use of it — then ONE user message
 * with the placeholder result for every tool_use id and the directive. Returns where the fourth
 * cache breakpoint goes: the last placeholder tool_result.
 * @throws Error when the parent's history does not end with an assistant message that has tool_use blocks (a bug: the Agent tool runs inside one).
 */
export function buildForkMessages(
  parentMessages: readonly MessageParam[],
  directive: string,
  notice?: string
): { messages: MessageParam[]; extraBreakpoint: { messageIndex: number; blockIndex: number } } {
  const last = parentMessages[parentMessages.length - 1]
  const uses =
    last?.role === 'assistant' && Array.isArray(last.content) ? last.content.filter((b) => b.type === 'tool_use') : []
  if (uses.length === 0)
    throw new Error(
      'A fork needs the parent assistant message that called the Agent tool as the last message of its history.'
    )
  const placeholders: ContentBlockParam[] = uses.map((u) => ({
    type: 'tool_result',
    tool_use_id: (u as { id: string }).id,
    content: FORK_PLACEHOLDER
  }))
  const messages: MessageParam[] = [
    ...structuredClone(parentMessages as MessageParam[]),
    { role: 'user', content: [...placeholders, { type: 'text', text: forkDirectiveText(directive, notice) }] }
  ]
  return { messages, extraBreakpoint: { messageIndex: messages.length - 1, blockIndex: placeholders.length - 1 } }
}

/** True when a history carries a fork directive (the history-scan half of the fork guard). */
export function historyIsFork(messages: readonly MessageParam[]): boolean {
  const tag = `<${FORK_BOILERPLATE_TAG}>`
  return messages.some(
    (m) =>
      m.role === 'user' &&
      (typeof m.content === 'string'
        ? m.content.includes(tag)
        : m.content.some((b) => b.type === 'text' && b.text.includes(tag)))
  )
}

/**
 * A fork started by a person (`/fork <directive>` in the prompt box) rather than by an Agent call:
 * the parent's whole history, then one user message with the directive. The breakpoint goes on
 * the parent's last block, which the parent's own last request cached.
 */
export function buildPromptForkMessages(
  parentMessages: readonly MessageParam[],
  directive: string,
  notice?: string
): { messages: MessageParam[]; extraBreakpoint?: { messageIndex: number; blockIndex: number } } {
  const history = structuredClone(parentMessages as MessageParam[])
  const last = history[history.length - 1]
  const directiveMessage: MessageParam = {
    role: 'user',
    content: [{ type: 'text', text: forkDirectiveText(directive, notice) }]
  }
  if (!last) return { messages: [directiveMessage] }
  const blocks = typeof last.content === 'string' ? 1 : last.content.length
  // A history ending with the person's own message gets the directive in that same turn.
  const messages =
    last.role === 'user'
      ? [
          ...history.slice(0, -1),
          {
            role: 'user' as const,
            content: [
              ...(typeof last.content === 'string' ? [{ type: 'text' as const, text: last.content }] : last.content),
              ...(directiveMessage.content as ContentBlockParam[])
            ]
          }
        ]
      : [...history, directiveMessage]
  return { messages, extraBreakpoint: { messageIndex: history.length - 1, blockIndex: blocks - 1 } }
}
