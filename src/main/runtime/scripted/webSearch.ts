import { z } from 'zod'
import { newestUserText, type MessagesRequest } from './request'
import { randomId } from './response'

/**
 * A turn's simulated server-side web search (docs/scenarios.md#web-tools): the query the model
 * searched for (default: the newest user message's text) and the results the search returns.
 */
export const ScriptedWebSearchSchema = z.strictObject({
  query: z.string().min(1).optional(),
  results: z
    .array(
      z.strictObject({
        url: z.url(),
        title: z.string(),
        /** As the API gives it (`"3 days ago"`, a date); absent: null. */
        page_age: z.string().optional()
      })
    )
    .default([])
})
export type ScriptedWebSearch = z.infer<typeof ScriptedWebSearchSchema>

/** The `server_tool_use` block of a web search, as the API sends it. */
export interface ServerToolUseBlock {
  type: 'server_tool_use'
  id: string
  name: 'web_search'
  input: { query: string }
}

/** The `web_search_tool_result` block answering it. */
export interface WebSearchToolResultBlock {
  type: 'web_search_tool_result'
  tool_use_id: string
  content: Array<{
    type: 'web_search_result'
    url: string
    title: string
    encrypted_content: string
    page_age: string | null
  }>
}

/** The web search tool a request offers: `type` `web_search_<date>`, with its domain lists. */
interface OfferedWebSearch {
  allowed_domains?: string[] | null
  blocked_domains?: string[] | null
}

/** The request's server-side web search tool, if it offers one (any `web_search_*` version). */
export function offeredWebSearch(request: MessagesRequest): OfferedWebSearch | undefined {
  const tool = request.tools?.find((t) => typeof t.type === 'string' && t.type.startsWith('web_search_'))
  return tool as OfferedWebSearch | undefined
}

/** Whether `host` is `domain` or below it (`docs.example.com` is in `example.com`), as the API's domain lists match. */
function inDomain(host: string, domain: string): boolean {
  const d = domain
    .toLowerCase()
    .replace(/^https?:\/\//, '')
    .replace(/\/.*$/, '')
  return host === d || host.endsWith(`.${d}`)
}

/**
 * The two blocks of a simulated search: the model's `server_tool_use` (id `srvtoolu_` + 24 base62
 * characters) and its `web_search_tool_result`, the scripted results kept only when the offered
 * tool's `allowed_domains` admit them and its `blocked_domains` do not. The `encrypted_content` is
 * an opaque stand-in, as a client must send it back untouched.
 */
export function webSearchBlocks(
  search: ScriptedWebSearch,
  offered: OfferedWebSearch,
  request: MessagesRequest
): [ServerToolUseBlock, WebSearchToolResultBlock] {
  const id = randomId('srvtoolu_')
  const query = search.query ?? newestUserText(request).trim()
  const allowed = offered.allowed_domains ?? []
  const blocked = offered.blocked_domains ?? []
  const kept = search.results.filter((r) => {
    const host = new URL(r.url).hostname.toLowerCase()
    if (allowed.length > 0 && !allowed.some((d) => inDomain(host, d))) return false
    return !blocked.some((d) => inDomain(host, d))
  })
  return [
    { type: 'server_tool_use', id, name: 'web_search', input: { query } },
    {
      type: 'web_search_tool_result',
      tool_use_id: id,
      content: kept.map((r) => ({
        type: 'web_search_result',
        url: r.url,
        title: r.title,
        encrypted_content: Buffer.from(`scripted:${r.url}`).toString('base64'),
        page_age: r.page_age ?? null
      }))
    }
  ]
}
