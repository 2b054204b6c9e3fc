import Anthropic, { APIError } from '@anthropic-ai/sdk'
import { afterEach, describe, expect, it } from 'vitest'
import { parseScenario } from './scenario'
import { startScriptedServer, type ScriptedServer } from './server'

let server: ScriptedServer | undefined
afterEach(async () => {
  await server?.close()
  server = undefined
})

const SCENARIO = parseScenario(
  `
name: flow
agents:
  team-lead:
    - text: "Spawning a helper in {{cwd}}."
      tools: [ { name: Agent, input: { description: "helper", prompt: "Work in {{cwd}} as {{agent_name}}" } } ]
    - when: "shutdown_request"
      tools: [ { name: SendMessage, input: { to: "bob", message: { type: shutdown_response, request_id: "{{request_id}}", approve: true } } } ]
    - text: "Helper {{last_agent_id}} said: {{last_tool_result}}; task {{task_id}}; me {{agent_id}}"
  "type:Explore":
    - text: "explored"
`,
  'flow.yaml'
)

async function start(scenario = SCENARIO): Promise<Anthropic> {
  server = await startScriptedServer({ scenario })
  return new Anthropic({ apiKey: 'test', baseURL: server.url, maxRetries: 0 })
}

function as(name: string | undefined, id: string, type?: string) {
  const headers: Record<string, string> = { 'x-swarmdesk-agent-id': id, 'x-swarmdesk-cwd': '/work/demo' }
  if (name) headers['x-swarmdesk-agent-name'] = name
  if (type) headers['x-swarmdesk-agent-type'] = type
  return { headers }
}

const user = (content: Anthropic.MessageParam['content']) => ({
  model: 'claude-sonnet-5',
  max_tokens: 256,
  messages: [{ role: 'user' as const, content }]
})

describe('scenario flow through the SDK', () => {
  it('fills placeholders in text and deep in tool input from headers and the request', async () => {
    const client = await start()
    const first = await client.messages.create(user('Start'), as('team-lead', 'lead-1'))
    expect(first.content[0]).toEqual({ type: 'text', text: 'Spawning a helper in /work/demo.' })
    expect(first.content[1]).toMatchObject({
      name: 'Agent',
      input: { description: 'helper', prompt: 'Work in /work/demo as team-lead' }
    })

    const second = await client.messages.create(
      user([
        { type: 'tool_result', tool_use_id: 'toolu_1', content: 'Found 3 TODOs.\nagentId: agent-abc' },
        { type: 'text', text: 'Task #7 created' }
      ]),
      as('team-lead', 'lead-1')
    )
    expect(second.content).toEqual([
      { type: 'text', text: 'Helper agent-abc said: Found 3 TODOs.\nagentId: agent-abc; task 7; me lead-1' }
    ])
  })

  it('uses a when-turn as soon as its text appears, before the plain turns left', async () => {
    const client = await start()
    await client.messages.create(user('Start'), as('team-lead', 'lead-1'))
    const reply = await client.messages.create(
      user('<teammate-message teammate_id="bob" request_id="shut-9">{"type":"shutdown_request"}</teammate-message>'),
      as('team-lead', 'lead-1')
    )
    expect(reply.stop_reason).toBe('tool_use')
    expect(reply.content[0]).toMatchObject({
      name: 'SendMessage',
      input: { to: 'bob', message: { type: 'shutdown_response', request_id: 'shut-9', approve: true } }
    })
  })

  it('gives each agent instance its own copy of its script', async () => {
    const client = await start()
    const a = await client.messages.create(user('go'), as('explorer-a', 'e-1', 'Explore'))
    const b = await client.messages.create(user('go'), as('explorer-b', 'e-2', 'Explore'))
    expect([a.content, b.content]).toEqual([[{ type: 'text', text: 'explored' }], [{ type: 'text', text: 'explored' }]])
    expect(server!.requests().map((r) => [r.agentName, r.agentId])).toEqual([
      ['explorer-a', 'e-1'],
      ['explorer-b', 'e-2']
    ])
  })

  it('answers an exhausted script with 400 scenario_error that the SDK raises as an APIError', async () => {
    const client = await start()
    await client.messages.create(user('go'), as(undefined, 'e-1', 'Explore'))
    const error = await client.messages.create(user('again'), as(undefined, 'e-1', 'Explore')).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(APIError)
    expect(error).toMatchObject({ status: 400, type: 'scenario_error' })
    expect((error as APIError).apiMessage).toMatch(
      /^\(scenario exhausted\) .*id 'e-1'.*script 'type:Explore'.*scenario 'flow'/
    )
    // A scenario error is not retried: one request each.
    expect(server!.requests()).toHaveLength(2)
  })

  it('in a strict scenario answers an unscripted agent with (no script)', async () => {
    const client = await start({ ...SCENARIO, strict: true })
    const error = await client.messages
      .stream(user('go'), as('stranger', 's-1'))
      .finalMessage()
      .catch((e: unknown) => e)
    expect(error).toMatchObject({ status: 400, type: 'scenario_error' })
    expect((error as APIError).apiMessage).toMatch(/^\(no script\) no script for agent 'stranger'/)
  })
})
