import { z } from 'zod'
import type { AssistantMessage, WebSearchTool20250305 } from '../../model'
import { ToolError, type Tool, type ToolContext, type ToolResult } from '../types'
import { answerText, sideRequest } from './sideRequest'

const WebSearchInput = z.object({
  query: z.string().min(2).describe('The search query.'),
  allowed_domains: z.array(z.string().min(1)).optional().describe('Only return results from these domains.'),
  blocked_domains: z.array(z.string().min(1)).optional().describe('Never return results from these domains.')
})

/** Input of WebSearch (Claude Code's fields). */
export type WebSearchInput = z.infer<typeof WebSearchInput>

/** The agent name and type of WebSearch's own model request (docs/tools.md#web-tools). */
export const WEB_SEARCH_AGENT = 'web-search'

/** Searches one request may make: 8, as Claude Code's WebSearch asks of the API. */
export const WEB_SEARCH_MAX_USES = 8

const SYSTEM =
  'You search the web for the query the user gives, with the web_search tool, then say in a few sentences what the results show.'

/**
 * WebSearch (docs/tools.md#web-tools): the Messages API's server-side web search
 * (`web_search_20250305`), passed through in a request of its own to the fast model, as agent
 * `web-search`. The API runs the searches; the answer's `server_tool_use` and
 * `web_search_tool_result` blocks become the result: each query with its results (title and
 * URL), then the model's summary. Permission: asks unless a `WebSearch` rule decides.
 * Errors (as ToolError): both domain lists given, a failed model request.
 */
export const WebSearchTool: Tool<WebSearchInput> = {
  name: 'WebSearch',
  description: [
    'Searches the web and returns the results (titles and URLs) with a short summary.',
    '- query: what to search for.',
    '- allowed_domains / blocked_domains: keep results to these domains, or leave these out (one or the other, not both).',
    '- Cite the sources you use as Markdown links. Use WebFetch to read a page of the results.'
  ].join('\n'),
  inputSchema: WebSearchInput,
  isReadOnly: () => true,
  isConcurrencySafe: () => true,
  permissionSubject: () => ({ kind: 'tool', tool: 'WebSearch', readOnly: true, reachesNetwork: true }),
  call: webSearch
}

async function webSearch(input: WebSearchInput, ctx: ToolContext): Promise<ToolResult> {
  if (input.allowed_domains?.length && input.blocked_domains?.length)
    throw new ToolError('Give allowed_domains or blocked_domains, not both: the search takes one list.')
  const tool: WebSearchTool20250305 = {
    type: 'web_search_20250305',
    name: 'web_search',
    max_uses: WEB_SEARCH_MAX_USES,
    ...(input.allowed_domains?.length ? { allowed_domains: input.allowed_domains } : {}),
    ...(input.blocked_domains?.length ? { blocked_domains: input.blocked_domains } : {})
  }
  const answer = await sideRequest(
    { agent: WEB_SEARCH_AGENT, system: SYSTEM, prompt: input.query, tools: [tool], maxTokens: 4096 },
    ctx
  )
  return { content: formatSearch(input.query, answer) }
}

/**
 * The result a person and the model read: per search, its query and numbered results (title, then
 * URL) or why it failed; then the model's own text; then a reminder to cite.
 */
export function formatSearch(query: string, answer: AssistantMessage): string {
  const queries = new Map<string, string>()
  const sections: string[] = []
  for (const block of answer.content) {
    if (block.type === 'server_tool_use') {
      const q = (block.input as { query?: unknown } | null)?.query
      queries.set(block.id, typeof q === 'string' ? q : query)
    } else if (block.type === 'web_search_tool_result') {
      const searched = queries.get(block.tool_use_id) ?? query
      if (!Array.isArray(block.content)) {
        sections.push(`Web search for "${searched}" failed: ${block.content.error_code}.`)
        continue
      }
      const lines = block.content.map((r, i) => `${i + 1}. ${r.title}\n   ${r.url}`)
      sections.push(`Web search results for "${searched}":\n${lines.length > 0 ? lines.join('\n') : '(no results)'}`)
    }
  }
  if (sections.length === 0) sections.push(`No web search was made for "${query}".`)
  const text = answerText(answer)
  if (text) sections.push(text)
  sections.push('Cite the sources you use as Markdown links.')
  return sections.join('\n\n')
}
