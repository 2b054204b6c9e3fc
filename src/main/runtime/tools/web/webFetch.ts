import { z } from 'zod'
import { type Tool, type ToolContext, type ToolResult } from '../types'
import { fetchPage, parseFetchUrl, WEB_FETCH_MAX_BYTES, WEB_FETCH_TIMEOUT_MS } from './fetchPage'
import { PageCache, pageContent, type PageContent } from './pageContent'
import { answerText, sideRequest } from './sideRequest'

const WebFetchInput = z.object({
  url: z.string().min(1).describe('The absolute http:// or https:// URL to fetch.'),
  prompt: z.string().min(1).describe('What to find out from the page: the question answered over its content.')
})

/** Input of WebFetch (Claude Code's fields). */
export type WebFetchInput = z.infer<typeof WebFetchInput>

/** The agent name and type of WebFetch's own model request (docs/tools.md#web-tools). */
export const WEB_FETCH_AGENT = 'web-fetch'

/** Output cap of the answer over a page, tokens. */
const ANSWER_MAX_TOKENS = 4096

/** Pages fetched by any agent of this process, for 15 minutes per URL (docs/tools.md#web-tools). */
const cache = new PageCache()

const SYSTEM = [
  'You answer a question about one web page, using only the page content given.',
  'Be concise. Quote sparingly and briefly, in quotation marks; say so when the page does not hold the answer.'
].join(' ')

/**
 * WebFetch (docs/tools.md#web-tools): fetches a URL as given (http stays http), follows same-host
 * redirects, reports a redirect to another host instead of following it, converts HTML to
 * Markdown, and has the fast model answer `prompt` over the content, as its own agent request
 * (`web-fetch`). Pages are cached 15 minutes per URL. Permission: `WebFetch(domain:<host>)` rules;
 * without one it asks, in every mode but bypassPermissions (a fetch reads, so plan mode asks too).
 * Errors (as ToolError): a bad URL, a network failure, an HTTP error, a body over 10 MiB, 60 s
 * passed, content that is not text, a failed model request.
 */
export const WebFetchTool: Tool<WebFetchInput> = {
  name: 'WebFetch',
  description: [
    'Fetches a web page and answers a question about it.',
    '- url: an absolute http:// or https:// URL; it is fetched as given.',
    '- prompt: what you want to know from the page. A small, fast model reads the page (HTML converted to Markdown) and answers it; you get that answer.',
    '- A redirect to another host is not followed: the result names the new URL, and you call WebFetch again with it.',
    `- Limits: ${WEB_FETCH_MAX_BYTES / 1024 / 1024} MiB per page, ${WEB_FETCH_TIMEOUT_MS / 1000} s per fetch. Pages are reused for 15 minutes.`
  ].join('\n'),
  inputSchema: WebFetchInput,
  isReadOnly: () => true,
  isConcurrencySafe: () => true,
  permissionSubject: (input) => ({
    kind: 'tool',
    tool: 'WebFetch',
    specifier: `domain:${hostOf(input.url)}`,
    readOnly: true,
    reachesNetwork: true
  }),
  call: webFetch
}

/** The host a rule names for `url` (lower case, no port), or the text itself when it is no URL (the call then fails). */
function hostOf(url: string): string {
  try {
    return new URL(url).hostname
  } catch {
    return url
  }
}

async function webFetch(input: WebFetchInput, ctx: ToolContext): Promise<ToolResult> {
  const url = parseFetchUrl(input.url)
  let page: PageContent | undefined = cache.get(url.href)
  if (!page) {
    const fetched = await fetchPage(url, ctx.signal)
    if ('redirect' in fetched) {
      return {
        content: [
          `REDIRECT: ${fetched.from} redirects (HTTP ${fetched.status}${fetched.statusText ? ` ${fetched.statusText}` : ''}) to another host, which WebFetch does not follow on its own.`,
          `New URL: ${fetched.to}`,
          `To read it, call WebFetch again with url "${fetched.to}" and the same prompt.`
        ].join('\n')
      }
    }
    page = await pageContent(fetched)
    cache.set(url.href, page)
  }
  const answer = await sideRequest(
    {
      agent: WEB_FETCH_AGENT,
      system: SYSTEM,
      maxTokens: ANSWER_MAX_TOKENS,
      prompt: `Web page content (${page.url}):\n---\n${page.text}\n---\n\n${input.prompt}`
    },
    ctx
  )
  return { content: answerText(answer) || '(the model gave no answer)' }
}
