import type { ImageBlockParam, TextBlockParam } from '@anthropic-ai/sdk/resources/messages'
import type { ToolResult } from '../types'

/**
 * The output cap of one MCP result, in tokens: Claude Code's `MAX_MCP_OUTPUT_TOKENS`, default
 * 25,000 (Claude Code's MCP documentation, "MCP output limits"), read from the same environment
 * variable. Tokens are counted as the loop counts them, ≈ 4 characters each
 * (docs/loop.md#the-agent-loop), so the default is 100,000 characters of text.
 */
export const DEFAULT_MCP_OUTPUT_TOKENS = 25_000
const CHARS_PER_TOKEN = 4

/** The cap in tokens from `env.MAX_MCP_OUTPUT_TOKENS` (a positive whole number), else the default. */
export function mcpOutputTokens(env: NodeJS.ProcessEnv = process.env): number {
  const n = Number(env.MAX_MCP_OUTPUT_TOKENS)
  return Number.isInteger(n) && n > 0 ? n : DEFAULT_MCP_OUTPUT_TOKENS
}

/** A content item of an MCP tool result or a read resource, as the SDK types it (loosely: servers vary). */
interface McpContent {
  type: string
  text?: string
  data?: string
  mimeType?: string
  uri?: string
  name?: string
  description?: string
  resource?: { uri: string; mimeType?: string; text?: string; blob?: string }
}

/** The part of an MCP `tools/call` result this reads. */
export interface McpCallResult {
  content?: unknown
  structuredContent?: unknown
  isError?: boolean
}

const IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp'])

/** Text of a resource's content: its text, or a note for binary content the model cannot read. */
export function resourceText(r: { uri: string; mimeType?: string; text?: string; blob?: string }): string {
  if (r.text !== undefined) return r.text
  return `[binary resource ${r.uri}${r.mimeType ? ` (${r.mimeType})` : ''}, ${Math.floor(((r.blob?.length ?? 0) * 3) / 4)} bytes: not shown]`
}

/**
 * Turns an MCP result's content into a tool result (docs/tools.md#mcp-servers): text as text;
 * images (png, jpeg, gif, webp) as image blocks; resource links as a line naming the URI; an
 * embedded resource as its text (an image blob as an image); audio and other types as a note;
 * `structuredContent` as JSON when the server sent no content. Text past `capTokens` is cut
 * with a marker saying so and how to get less; an image past it is left out with a note.
 * `isError` results keep the flag and name `label` (`MCP server 'x' tool 'y'`).
 */
export function toToolResult(result: McpCallResult, label: string, capTokens: number): ToolResult {
  const items = Array.isArray(result.content) ? (result.content as McpContent[]) : []
  const blocks: Array<TextBlockParam | ImageBlockParam> = []
  let budget = capTokens * CHARS_PER_TOKEN
  let cut = false
  const pushText = (text: string): void => {
    if (budget <= 0) {
      cut = cut || text.length > 0
      return
    }
    const kept = text.length > budget ? text.slice(0, budget) : text
    if (kept.length < text.length) cut = true
    budget -= kept.length
    blocks.push({ type: 'text', text: kept })
  }
  const pushImage = (data: string, mimeType: string): void => {
    if (!IMAGE_TYPES.has(mimeType)) return pushText(`[image (${mimeType}): a type the model cannot read; not shown]`)
    if (data.length > budget) {
      cut = true
      return
    }
    budget -= data.length
    blocks.push({
      type: 'image',
      source: { type: 'base64', media_type: mimeType as 'image/png', data }
    })
  }
  for (const item of items) {
    if (item.type === 'text') pushText(item.text ?? '')
    else if (item.type === 'image' && item.data) pushImage(item.data, item.mimeType ?? '')
    else if (item.type === 'resource_link')
      pushText(
        `[resource link: ${item.uri}${item.name ? ` (${item.name})` : ''}${item.description ? ` — ${item.description}` : ''}]`
      )
    else if (item.type === 'resource' && item.resource) {
      const r = item.resource
      if (r.blob !== undefined && r.mimeType && IMAGE_TYPES.has(r.mimeType)) pushImage(r.blob, r.mimeType)
      else pushText(`[resource ${r.uri}]\n${resourceText(r)}`)
    } else pushText(`[${item.type} content${item.mimeType ? ` (${item.mimeType})` : ''}: not shown to the model]`)
  }
  if (items.length === 0 && result.structuredContent !== undefined)
    pushText(JSON.stringify(result.structuredContent, null, 2))
  if (cut)
    blocks.push({
      type: 'text',
      text: `\n[${label}: output cut at the ${capTokens}-token limit (MAX_MCP_OUTPUT_TOKENS). Ask the tool for less: a page, a filter or a limit.]`
    })
  const text = blocks.map((b) => (b.type === 'text' ? b.text : '[image]')).join('\n')
  const content = result.isError ? `${label} returned an error: ${text || '(no message)'}` : text || '(no output)'
  const hasImage = blocks.some((b) => b.type === 'image')
  return {
    content,
    ...(result.isError ? { isError: true } : {}),
    ...(hasImage && !result.isError ? { blocks } : {})
  }
}
