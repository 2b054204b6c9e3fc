import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { ModelClient, type AssistantMessage } from '../../model'
import { startScriptedServer, type ScenarioInput, type ScriptedServer } from '../../scripted'
import { makeTempDir, makeToolContext } from '../tools.testkit'
import type { ToolContext } from '../types'
import { WebSearchTool } from './webSearch'

let model: ScriptedServer | undefined
let dir: { dir: string; cleanup: () => Promise<void> }
beforeAll(async () => {
  dir = await makeTempDir()
})
afterAll(() => dir.cleanup())
afterEach(async () => {
  await model?.close()
  model = undefined
})

const RESULTS = [
  { url: 'https://docs.example.com/release', title: 'Release notes', page_age: '2 days ago' },
  { url: 'https://blog.other.org/post', title: 'A blog post' }
]

async function contextWith(scenario: ScenarioInput): Promise<{ ctx: ToolContext; client: ModelClient }> {
  model = await startScriptedServer({ scenario })
  const client = new ModelClient({ apiKey: 'scripted-model', baseURL: model.url, scriptedModel: true, maxRetries: 0 })
  return { client, ctx: makeToolContext(dir.dir, { sideModel: { client, recordUsage: () => {} } }) }
}

const search = (ctx: ToolContext, input: Record<string, unknown>) =>
  WebSearchTool.call(WebSearchTool.inputSchema.parse(input), ctx)

describe('WebSearch: the server-side web search through the scripted model', () => {
  it('passes web_search_20250305 through in its own web-search request and lists the results readably', async () => {
    const { ctx } = await contextWith({
      agents: {
        'team-lead': [{ text: 'never used by the search' }],
        'web-search': [{ webSearch: { results: RESULTS }, text: 'Release 4.2 is out.' }]
      }
    })
    const result = await search(ctx, { query: 'frobnicator release' })
    expect(result.content).toBe(
      [
        'Web search results for "frobnicator release":',
        '1. Release notes\n   https://docs.example.com/release',
        '2. A blog post\n   https://blog.other.org/post'
      ].join('\n') + '\n\nRelease 4.2 is out.\n\nCite the sources you use as Markdown links.'
    )
    const [request] = model!.requests()
    expect([request.agentName, request.agentType]).toEqual(['web-search', 'web-search'])
    expect(request.agentId).toMatch(/^a[0-9a-f]{16}$/)
    const body = request.body as { model: string; tools: unknown[] }
    expect(body.model).toBe('claude-haiku-5-5')
    expect(body.tools).toEqual([
      { type: 'web_search_20250305', name: 'web_search', max_uses: 8, cache_control: { type: 'ephemeral' } }
    ])
  })

  it('keeps to allowed_domains and leaves out blocked_domains, as the API filters them', async () => {
    const { ctx } = await contextWith({
      agents: { 'type:web-search': [{ webSearch: { query: 'qq', results: RESULTS } }] }
    })
    const allowed = await search(ctx, { query: 'qq', allowed_domains: ['example.com'] })
    expect(allowed.content).toContain('1. Release notes')
    expect(allowed.content).not.toContain('blog.other.org')
    const blocked = await search(ctx, { query: 'qq', blocked_domains: ['docs.example.com'] })
    expect(blocked.content).toContain('1. A blog post\n   https://blog.other.org/post')
    expect(blocked.content).not.toContain('Release notes')
    expect((model!.requests()[0].body as { tools: Array<Record<string, unknown>> }).tools[0].allowed_domains).toEqual([
      'example.com'
    ])
    await expect(search(ctx, { query: 'qq', allowed_domains: ['a.com'], blocked_domains: ['b.com'] })).rejects.toThrow(
      /allowed_domains or blocked_domains, not both/
    )
  })

  it('keeps the server_tool_use and web_search_tool_result blocks in the assistant message the client assembles', async () => {
    const { client } = await contextWith({
      agents: { '*': [{ webSearch: { results: RESULTS.slice(0, 1) }, text: 'ok' }] }
    })
    let message: AssistantMessage | undefined
    for await (const event of client.stream(
      {
        model: 'claude-haiku-5-5',
        maxTokens: 100,
        system: [{ type: 'text', text: 's' }],
        tools: [{ type: 'web_search_20250305', name: 'web_search' }],
        messages: [{ role: 'user', content: 'frobnicator' }]
      },
      { agent: { id: 'a1', name: 'x', type: 'x', cwd: dir.dir }, signal: new AbortController().signal }
    ))
      if (event.type === 'response') message = event.message
    expect(message!.content).toEqual([
      {
        type: 'server_tool_use',
        id: expect.stringMatching(/^srvtoolu_/),
        name: 'web_search',
        input: { query: 'frobnicator' }
      },
      {
        type: 'web_search_tool_result',
        tool_use_id: (message!.content[0] as { id: string }).id,
        content: [
          {
            type: 'web_search_result',
            url: 'https://docs.example.com/release',
            title: 'Release notes',
            encrypted_content: expect.any(String),
            page_age: '2 days ago'
          }
        ]
      },
      { type: 'text', text: 'ok' }
    ])
  })

  it('makes a scripted search without a web_search tool in the request a scenario error', async () => {
    const { client } = await contextWith({ agents: { '*': [{ webSearch: { results: [] } }] } })
    const stream = client.stream(
      { model: 'claude-haiku-5-5', maxTokens: 100, system: [], tools: [], messages: [{ role: 'user', content: 'q' }] },
      { agent: { id: 'a1', name: 'x', type: 'x', cwd: dir.dir }, signal: new AbortController().signal }
    )
    await expect(stream.next()).rejects.toThrow(
      /\(web search\) script '\*' turn 0 searches the web, but the request offers no web_search tool/
    )
  })

  it('asks by default: its subject reaches the network', () => {
    expect(WebSearchTool.permissionSubject({ query: 'q' }, { cwd: '/' })).toEqual({
      kind: 'tool',
      tool: 'WebSearch',
      readOnly: true,
      reachesNetwork: true
    })
  })
})
