import { afterEach, describe, expect, it } from 'vitest'
import { startScriptedServer, validateScenario, type ScriptedServer } from '.'
import { ModelClient } from '../model/client'
import type { ModelStreamEvent } from '../model/types'

// The identity headers (docs/scenarios.md#scripted-model-scenarios) carry any string to the scripted model, percent-encoded, and
// reach no other endpoint.

let server: ScriptedServer | undefined
afterEach(async () => {
  await server?.close()
  server = undefined
})

/** Folder and agent names in several scripts, with spaces, emoji and characters that mean something in a URL. */
const NAMES = [
  { cwd: '/tmp/项目 工作区', name: '助手', type: '类型' },
  { cwd: '/tmp/Проект папка', name: 'помощник', type: 'тип' },
  { cwd: '/tmp/emoji 🚀 folder ✨/a%20b?c#d&e', name: 'rocket 🚀', type: 'ünïcödé' },
  { cwd: '/tmp/ascii-only', name: 'team-lead', type: 'main' }
]

const request = {
  model: 'claude-sonnet-5-5',
  maxTokens: 100,
  system: [{ type: 'text' as const, text: 'sys' }],
  tools: [],
  messages: [{ role: 'user' as const, content: 'hi' }]
}

async function answer(
  client: ModelClient,
  agent: { id: string; name: string; type: string; cwd: string }
): Promise<string> {
  let text = ''
  for await (const event of client.stream(request, {
    agent,
    signal: new AbortController().signal
  }) as AsyncGenerator<ModelStreamEvent>) {
    if (event.type === 'response') text = event.message.content.map((b) => (b.type === 'text' ? b.text : '')).join('')
  }
  return text
}

describe('identity headers', () => {
  it.each(NAMES)(
    'carry $cwd and $name to the scripted model, which picks the agent script by name and type and fills {{cwd}} and {{agent_name}}',
    async (names) => {
      server = await startScriptedServer({
        scenario: validateScenario(
          {
            strict: true,
            agents: {
              [names.name]: [{ text: 'cwd={{cwd}} name={{agent_name}} id={{agent_id}}' }],
              [`type:${names.type}`]: [{ text: 'by type {{cwd}}' }]
            }
          },
          'test'
        )
      })
      const client = new ModelClient({ apiKey: 'k', baseURL: server.url, maxRetries: 0, scriptedModel: true })
      const id = `${names.name}@crew`
      expect(await answer(client, { id, ...names })).toBe(`cwd=${names.cwd} name=${names.name} id=${id}`)
      // an agent with no script of its name gets its type's script
      expect(await answer(client, { id: 'other', name: 'other', type: names.type, cwd: names.cwd })).toBe(
        `by type ${names.cwd}`
      )
      const [first] = server.requests()
      expect(first).toMatchObject({ agentName: names.name, agentType: names.type, agentId: id, cwd: names.cwd })
      // on the wire, each value is its UTF-8 percent-encoded
      expect(first!.headers['x-swarmdesk-cwd']).toBe(encodeURIComponent(names.cwd))
      expect(first!.headers['x-swarmdesk-agent-name']).toBe(encodeURIComponent(names.name))
    }
  )

  it('are never sent to an endpoint that is not the scripted model', async () => {
    // the scripted server stands in for any other Anthropic-compatible endpoint: it records what it receives
    server = await startScriptedServer({ scenario: validateScenario({ agents: { '*': [{ text: 'plain' }] } }, 'test') })
    const client = new ModelClient({ apiKey: 'k', baseURL: server.url, maxRetries: 0 })
    expect(client.scriptedModel).toBe(false)
    expect(await answer(client, { id: 'team-lead', name: 'team-lead', type: 'main', cwd: '/tmp/项目 🚀' })).toBe(
      'plain'
    )
    const [received] = server.requests()
    expect(Object.keys(received!.headers).filter((h) => h.startsWith('x-swarmdesk-'))).toEqual([])
    expect(JSON.stringify(received!.headers)).not.toContain(encodeURIComponent('/tmp/项目 🚀'))
  })

  it('that do not decode are refused by the scripted server with a 400 saying how to encode them', async () => {
    server = await startScriptedServer({ scenario: validateScenario({ agents: { '*': [{ text: 'x' }] } }, 'test') })
    const response = await fetch(`${server.url}/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': 'k', 'x-swarmdesk-cwd': '/tmp/100%' },
      body: JSON.stringify({ model: 'claude-sonnet-5-5', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] })
    })
    expect(response.status).toBe(400)
    const body = (await response.json()) as { error: { type: string; message: string } }
    expect(body.error.type).toBe('invalid_request_error')
    expect(body.error.message).toContain('x-swarmdesk-cwd must be percent-encoded UTF-8 (encodeURIComponent')
  })
})
