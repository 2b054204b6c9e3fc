import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { ModelClient } from '../../model'
import { startScriptedServer, type ScenarioInput, type ScriptedServer } from '../../scripted'
import { makeTempDir, makeToolContext } from '../tools.testkit'
import type { ToolContext } from '../types'
import { fetchPage, parseFetchUrl, WEB_FETCH_MAX_BYTES } from './fetchPage'
import { PageCache, WEB_FETCH_CACHE_TTL_MS, type PageContent } from './pageContent'
import { startTestSite, type TestSite } from './web.testkit'
import { WebFetchTool } from './webFetch'

let site: TestSite
let model: ScriptedServer | undefined
let dir: { dir: string; cleanup: () => Promise<void> }
beforeAll(async () => {
  site = await startTestSite()
  dir = await makeTempDir()
})
afterAll(async () => {
  await site.close()
  await dir.cleanup()
})
afterEach(async () => {
  await model?.close()
  model = undefined
})

const usage: Array<{ costUsd: number; model: string }> = []

/** A tool context whose model is a scripted server answering from `scenario`. */
async function contextWith(scenario: ScenarioInput): Promise<ToolContext> {
  model = await startScriptedServer({ scenario })
  const client = new ModelClient({ apiKey: 'scripted-model', baseURL: model.url, scriptedModel: true, maxRetries: 0 })
  return makeToolContext(dir.dir, {
    sideModel: { client, recordUsage: (_u, costUsd, m) => usage.push({ costUsd, model: m }) }
  })
}

/** The text of a recorded request's one user message (the client sends it as blocks). */
function userText(request: { body: unknown }): string {
  const content = (request.body as { messages: Array<{ content: string | Array<{ text?: string }> }> }).messages[0]
    .content
  return typeof content === 'string' ? content : content.map((b) => b.text ?? '').join('')
}

const call = (ctx: ToolContext, url: string, prompt = 'What changed?') =>
  WebFetchTool.call(WebFetchTool.inputSchema.parse({ url, prompt }), ctx)

describe('WebFetch over a local HTTP server and the scripted model', () => {
  it('converts HTML to Markdown and has the fast model answer the prompt as its own web-fetch agent', async () => {
    const ctx = await contextWith({
      agents: {
        'team-lead': [{ text: 'the leader turn, never used by the fetch' }],
        'web-fetch': [{ when: 'Anything?', text: 'about the plain page' }, { text: 'It runs twice as fast.' }]
      }
    })
    expect(await call(ctx, `${site.url}/article`)).toEqual({ content: 'It runs twice as fast.' })
    expect((await call(ctx, `${site.url}/plain`, 'Anything?')).content).toBe('about the plain page')
    // a new agent per call, with its own copy of the script: one shared instance would have run out here
    expect((await call(ctx, `${site.url}/article`)).content).toBe('It runs twice as fast.')

    const requests = model!.requests()
    expect(requests.map((r) => [r.agentName, r.agentType])).toEqual([
      ['web-fetch', 'web-fetch'],
      ['web-fetch', 'web-fetch'],
      ['web-fetch', 'web-fetch']
    ])
    expect(requests[0].agentId).toMatch(/^a[0-9a-f]{16}$/)
    expect(new Set(requests.map((r) => r.agentId)).size).toBe(3)
    expect(requests[0].cwd).toBe(dir.dir)
    expect((requests[0].body as { model: string }).model).toBe('claude-haiku-5-5')
    const prompt = userText(requests[0])
    expect(prompt).toContain(`Web page content (${site.url}/article)`)
    expect(prompt).toContain('# Release 4.2')
    expect(prompt).toContain('The **frobnicator** now runs twice as fast.')
    expect(prompt).toContain('-   First change')
    expect(prompt).toContain('[the docs](/docs)')
    expect(prompt).not.toContain('do-not-leak')
    expect(prompt).not.toContain('color: red')
    expect(prompt).toMatch(/What changed\?$/)
    // non-HTML text goes to the model as sent
    expect(userText(requests[1])).toContain('plain words, kept as they are: <b>not html</b>')
    // the usage of the fetch's own request is counted for the caller
    expect(usage.map((u) => u.model)).toEqual(['claude-haiku-5-5', 'claude-haiku-5-5', 'claude-haiku-5-5'])
  })

  it.each([['type:web-fetch'], ['*']])('lets a scenario script the fetch under %s', async (key) => {
    const ctx = await contextWith({ strict: true, agents: { [key]: [{ text: `answered by ${key}` }] } })
    expect((await call(ctx, `${site.url}/plain`)).content).toBe(`answered by ${key}`)
  })

  it('follows same-host redirects, and reports one to another host without following it', async () => {
    const ctx = await contextWith({ agents: { 'web-fetch': [{ text: 'ok' }] } })
    const articleHits = site.hits.get('/article') ?? 0
    await call(ctx, `${site.url}/hop`)
    expect(site.hits.get('/hop2')).toBeGreaterThan(0)
    expect(site.hits.get('/article')).toBe(articleHits + 1)
    expect(userText(model!.requests()[0])).toContain(`Web page content (${site.url}/article)`)

    const away = await call(ctx, `${site.url}/elsewhere`)
    expect(away.content).toContain(`${site.url}/elsewhere redirects (HTTP 301 Moved Permanently) to another host`)
    expect(away.content).toContain(`New URL: ${site.otherHostUrl}/article`)
    expect(site.hits.get('/article')).toBe(articleHits + 1)
    // nothing was asked of the model for a redirect
    expect(model!.requests()).toHaveLength(1)

    await expect(call(ctx, `${site.url}/loop`)).rejects.toThrow(/redirected more than 10 times/)
  })

  it('keeps http as http, and refuses what is no http(s) URL', async () => {
    const fetched = await fetchPage(parseFetchUrl(`${site.url}/plain`), new AbortController().signal)
    expect('redirect' in fetched ? fetched.to : fetched.url).toBe(`${site.url}/plain`)
    expect(() => parseFetchUrl('file:///etc/passwd')).toThrow(/http:\/\/ and https:\/\/ addresses only/)
    expect(() => parseFetchUrl('not a url')).toThrow(/is not a URL/)
    expect(() => parseFetchUrl('http://user:pw@127.0.0.1/')).toThrow(/user name or password/)
  })

  it('refuses a body over 10 MiB, by its declared length and while reading it, and a response slower than the time cap', async () => {
    const ctx = await contextWith({ agents: { '*': [{ text: 'never' }] } })
    expect(WEB_FETCH_MAX_BYTES).toBe(10 * 1024 * 1024)
    await expect(call(ctx, `${site.url}/huge-declared`)).rejects.toThrow(/too large: 11534336 bytes, over .* 10 MiB/)
    await expect(call(ctx, `${site.url}/huge-streamed`)).rejects.toThrow(/too large: more than 10485760 bytes/)
    const started = Date.now()
    await expect(
      fetchPage(parseFetchUrl(`${site.url}/slow`), new AbortController().signal, { timeoutMs: 300 })
    ).rejects.toThrow(/took longer than 0.3 s; gave up/)
    expect(Date.now() - started).toBeLessThan(5000)
    expect(model!.requests()).toHaveLength(0)
  })

  it('refuses binary content and HTTP errors', async () => {
    const ctx = await contextWith({ agents: { '*': [{ text: 'never' }] } })
    await expect(call(ctx, `${site.url}/image`)).rejects.toThrow(/is image\/png, not text/)
    await expect(call(ctx, `${site.url}/missing`)).rejects.toThrow(/answered HTTP 404 Not Found/)
  })

  it('reuses a fetched page for the same URL, and forgets it after 15 minutes', async () => {
    const ctx = await contextWith({ agents: { 'web-fetch': [{ text: 'one' }] } })
    site.hits.delete('/article')
    await call(ctx, `${site.url}/article?cached=1`)
    await call(ctx, `${site.url}/article?cached=1`, 'Another question')
    expect(site.hits.get('/article')).toBe(1)
    expect(model!.requests()).toHaveLength(2)

    let now = 0
    const cache = new PageCache(WEB_FETCH_CACHE_TTL_MS, 1000, () => now)
    const page: PageContent = {
      url: 'u',
      status: 200,
      contentType: 'text/plain',
      bytes: 1,
      text: 'x',
      truncated: false
    }
    cache.set('u', page)
    now = WEB_FETCH_CACHE_TTL_MS - 1
    expect(cache.get('u')).toBe(page)
    now = WEB_FETCH_CACHE_TTL_MS
    expect(cache.get('u')).toBeUndefined()
    // past its size, the oldest page goes first
    cache.set('a', { ...page, text: 'a'.repeat(600) })
    cache.set('b', { ...page, text: 'b'.repeat(600) })
    expect(cache.get('a')).toBeUndefined()
    expect(cache.get('b')).toBeDefined()
  })

  it('names the domain in its permission subject', () => {
    expect(WebFetchTool.permissionSubject({ url: 'http://127.0.0.1:8080/x', prompt: 'p' }, { cwd: '/' })).toEqual({
      kind: 'tool',
      tool: 'WebFetch',
      specifier: 'domain:127.0.0.1',
      readOnly: true,
      reachesNetwork: true
    })
  })
})
