import { afterEach, describe, expect, it } from 'vitest'
import { parseScenario } from './scenario'
import { startScriptedServer, type ScriptedServer } from './server'

/**
 * The request shapes Claude Code 2.1.197 sends (recorded from the real `claude -p` against this
 * server; docs/model.md#claude-code), replayed over HTTP.
 */
let server: ScriptedServer | undefined
afterEach(async () => {
  await server?.close()
  server = undefined
})

const SESSION = '43796a09-9de2-444c-82f4-580d592e3da1'
const BETAS =
  'claude-code-20250219,context-1m-2025-08-07,interleaved-thinking-2025-05-14,context-management-2025-06-27,mid-conversation-system-2026-04-07,effort-2025-11-24'
const SYSTEM = [
  {
    type: 'text',
    text: 'You are a Claude agent.\n - Primary working directory: /tmp/cc/work\n - Is a git repository: false'
  }
]

function body(messages: unknown[], extra: Record<string, unknown> = {}) {
  return {
    model: 'claude-opus-4-8',
    max_tokens: 64000,
    metadata: { user_id: JSON.stringify({ device_id: 'd', account_uuid: '', session_id: SESSION }) },
    thinking: { type: 'adaptive' },
    context_management: { edits: [{ type: 'clear_thinking_20251015', keep: 'all' }] },
    output_config: { effort: 'high' },
    system: SYSTEM,
    messages,
    ...extra
  }
}

async function post(path: string, payload: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${server!.url}${path}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-api-key': 'dummy',
      'anthropic-beta': BETAS,
      'x-claude-code-session-id': SESSION,
      ...headers
    },
    body: JSON.stringify(payload)
  })
  return { status: res.status, json: (await res.json()) as any }
}

const user = (text: string) => ({ role: 'user', content: [{ type: 'text', text }] })
const titleSchema = {
  type: 'object',
  properties: { title: { type: 'string' } },
  required: ['title'],
  additionalProperties: false
}

describe('the scripted server answers what Claude Code sends', () => {
  it('takes system messages, adaptive thinking, context management, effort and metadata on ?beta=true', async () => {
    server = await startScriptedServer({
      scenario: parseScenario(
        `agents:\n  team-lead:\n    - when: "a peer said hello"\n      text: "cwd={{cwd}} id={{agent_id}}"\n    - text: "again"\n`,
        's.yaml'
      )
    })
    const { status, json } = await post(
      '/v1/messages?beta=true',
      body([user('say hi'), { role: 'system', content: 'a peer said hello' }])
    )
    expect(status).toBe(200)
    expect(json.content).toEqual([{ type: 'text', text: `cwd=/tmp/cc/work id=${SESSION}` }])
    const logged = server.requests()[0]!
    expect(logged).toMatchObject({ agentName: 'team-lead', agentType: 'main', agentId: SESSION, cwd: '/tmp/cc/work' })
    // thinking disabled, as Claude Code sends for its Haiku subagents, and a malformed thinking refused as by the API
    expect((await post('/v1/messages', body([user('x')], { thinking: { type: 'disabled' } }))).status).toBe(200)
    const bad = await post('/v1/messages', body([user('x')], { thinking: { type: 'sometimes' } }))
    expect(bad.status).toBe(400)
    expect(bad.json.error.type).toBe('invalid_request_error')
  })

  it('answers HEAD /, GET /v1/models and POST /v1/messages/count_tokens as the API does', async () => {
    server = await startScriptedServer({ scenario: { agents: {} } })
    const head = await fetch(`${server.url}/`, { method: 'HEAD' })
    expect(head.status).toBe(200)
    expect(head.headers.get('content-length')).toBe('15')
    const models = await fetch(`${server.url}/v1/models`, { headers: { 'x-api-key': 'k' } })
    const list = (await models.json()) as any
    expect(list.data.map((m: { id: string }) => m.id)).toContain('claude-opus-4-8')
    expect(list).toMatchObject({ has_more: false, first_id: list.data[0].id })
    expect(
      (await fetch(`${server.url}/v1/models/claude-haiku-4-5-20251001`, { headers: { 'x-api-key': 'k' } })).status
    ).toBe(200)
    expect((await fetch(`${server.url}/v1/models/gpt-4`, { headers: { 'x-api-key': 'k' } })).status).toBe(404)
    expect((await fetch(`${server.url}/v1/models`)).status).toBe(401)
    const { max_tokens: _, ...countBody } = body([user('count me')])
    const count = await post('/v1/messages/count_tokens?beta=true', countBody)
    expect(count.status).toBe(200)
    expect(count.json.input_tokens).toBeGreaterThan(10)
    expect(server.stats().requests).toBe(0)
  })

  it('answers the title call with schema-valid JSON, or from cc-title, without using an agent turn', async () => {
    server = await startScriptedServer({
      scenario: parseScenario(`strict: true\nagents:\n  team-lead:\n    - text: "lead answer"\n`, 's.yaml')
    })
    const title = await post(
      '/v1/messages',
      body([user('name this session')], { output_config: { format: { type: 'json_schema', schema: titleSchema } } })
    )
    expect(title.status).toBe(200)
    expect(JSON.parse(title.json.content[0].text)).toEqual({ title: 'Scripted session' })
    expect((await post('/v1/messages', body([user('go')]))).json.content[0].text).toBe('lead answer')
    await server.close()

    server = await startScriptedServer({
      scenario: parseScenario(
        `agents:\n  cc-title:\n    - text: '{"title": "Fix the login bug"}'\n    - text: 'not json'\n`,
        's.yaml'
      )
    })
    const scripted = await post(
      '/v1/messages',
      body([user('x')], { output_config: { format: { type: 'json_schema', schema: titleSchema } } })
    )
    expect(JSON.parse(scripted.json.content[0].text)).toEqual({ title: 'Fix the login bug' })
    const off = await post(
      '/v1/messages',
      body([user('x')], { output_config: { format: { type: 'json_schema', schema: titleSchema } } })
    )
    expect(off.status).toBe(400)
    expect(off.json.error.type).toBe('scenario_error')
    expect(off.json.error.message).toContain(
      "(structured output) script 'cc-title' turn 1: the scripted text is not JSON"
    )
  })

  it("picks a subagent's script by the type of the Agent call that started it, a teammate's by its name", async () => {
    server = await startScriptedServer({
      scenario: parseScenario(
        `strict: true
agents:
  team-lead:
    - tools: [ { name: Agent, input: { subagent_type: Explore, description: "Look around", prompt: "List the files here" } } ]
    - tools: [ { name: Agent, input: { description: "Back job", prompt: "Do the background job", run_in_background: true } } ]
    - text: "launched {{last_agent_id}}; answering {{request_id}}"
  "type:Explore":
    - text: "explore answer from {{agent_name}}"
  back-job:
    - text: "background finished"
  researcher:
    - text: "teammate {{agent_name}} here"
`,
        's.yaml'
      )
    })
    await post('/v1/messages', body([user('go')]))
    const sub = { 'x-claude-code-agent-id': 'a420a27c64ae72c22' }
    const explore = await post(
      '/v1/messages',
      body(
        [
          {
            role: 'user',
            content: [
              { type: 'text', text: '<system-reminder>skills</system-reminder>' },
              { type: 'text', text: 'List the files here' }
            ]
          }
        ],
        { thinking: { type: 'disabled' } }
      ),
      sub
    )
    expect(explore.json.content[0].text).toBe('explore answer from look-around')
    expect(server.requests()[1]).toMatchObject({
      agentId: 'a420a27c64ae72c22',
      agentType: 'Explore',
      agentName: 'look-around'
    })
    await post('/v1/messages', body([user('go')]))
    const back = await post('/v1/messages', body([user('Do the background job')]), {
      'x-claude-code-agent-id': 'ac4ed1b0da9d4157d'
    })
    expect(back.json.content[0].text).toBe('background finished')
    const mate = await post('/v1/messages', body([user('hello')]), {
      'x-claude-code-agent-id': 'researcher@session-43796a09',
      'x-claude-code-parent-agent-id': 'x'
    })
    expect(mate.json.content[0].text).toBe('teammate researcher here')
    const launched = 'Async agent launched successfully.\nagent_id: ac4ed1b0da9d4157d (internal ID)'
    const protocol =
      '<teammate-message teammate_id="researcher">{"type":"shutdown_request","requestId":"shutdown-17@researcher","reason":"done"}</teammate-message>'
    const lead = await post(
      '/v1/messages',
      body([
        user('go'),
        { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'Agent', input: {} }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: launched }] },
        { role: 'system', content: protocol }
      ])
    )
    expect(lead.json.content[0].text).toBe('launched ac4ed1b0da9d4157d; answering shutdown-17@researcher')
  })
})
