import Anthropic from '@anthropic-ai/sdk'
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
name: sdk
agents:
  team-lead:
    - text: "Surveying the repository."
      tools:
        - { name: Bash, input: { command: "git log --oneline -5", nested: { list: ["a", 1, true] } } }
        - { name: Read, input: { file_path: "/tmp/x.ts" } }
    - text: "All done."
`,
  'sdk.yaml'
)

async function start(): Promise<{ server: ScriptedServer; client: Anthropic }> {
  server = await startScriptedServer({ scenario: SCENARIO })
  return { server, client: new Anthropic({ apiKey: 'test', baseURL: server.url, maxRetries: 0 }) }
}

const lead = { headers: { 'x-swarmdesk-agent-name': 'team-lead', 'x-swarmdesk-agent-id': 'lead-1' } }
const ask = { model: 'claude-sonnet-5', max_tokens: 1024, messages: [{ role: 'user' as const, content: 'Go' }] }

describe('scripted server through the real SDK', () => {
  it('streams text and tool_use blocks that the SDK assembles into a message', async () => {
    const { client } = await start()
    const deltas: string[] = []
    const stream = client.messages.stream(ask, lead).on('text', (delta) => deltas.push(delta))
    const message = await stream.finalMessage()

    expect(message.content.map((block) => block.type)).toEqual(['text', 'tool_use', 'tool_use'])
    expect(deltas.join('')).toBe('Surveying the repository.')
    expect(deltas.length).toBeGreaterThan(1)
    const [, bash, read] = message.content
    if (bash.type !== 'tool_use' || read.type !== 'tool_use') throw new Error('expected tool_use blocks')
    expect(bash.name).toBe('Bash')
    expect(bash.input).toEqual({ command: 'git log --oneline -5', nested: { list: ['a', 1, true] } })
    expect(read.input).toEqual({ file_path: '/tmp/x.ts' })
    expect(bash.id).toMatch(/^toolu_[0-9A-Za-z]{24}$/)
    expect(bash.id).not.toBe(read.id)
    expect(message.stop_reason).toBe('tool_use')
    expect(message.usage.input_tokens).toBeGreaterThan(0)
    expect(message.usage.output_tokens).toBeGreaterThan(1)
  })

  it('answers a non-streaming create with the full message and end_turn when there are no tools', async () => {
    const { client, server } = await start()
    await client.messages.create(ask, lead)
    const message = await client.messages.create(ask, lead)
    expect(message.content).toEqual([{ type: 'text', text: 'All done.' }])
    expect(message.stop_reason).toBe('end_turn')
    // "All done." is 9 bytes: ceil(9 / 4) = 3 output tokens.
    expect(message.usage.output_tokens).toBe(3)
    expect(server.requests().map((r) => r.agentId)).toEqual(['lead-1', 'lead-1'])
  })

  it('records every request with headers, parsed body, the raw body and agent identity', async () => {
    const { client, server } = await start()
    await client.messages.create(ask, lead)
    const [entry] = server.requests()
    expect(entry.index).toBe(0)
    expect(JSON.parse(entry.rawBody!)).toEqual(entry.body)
    // exactly what came over the wire, spacing and key order included
    const raw = '{ "model":"claude-sonnet-5",  "max_tokens":16,"messages":[{"role":"user","content":"hi"}]}'
    await fetch(`${server.url}/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': 'k', 'x-swarmdesk-agent-name': 'team-lead' },
      body: raw
    })
    expect(server.requests()[1]!.rawBody).toBe(raw)
    expect(entry.agentName).toBe('team-lead')
    expect(entry.body).toMatchObject({ model: 'claude-sonnet-5', max_tokens: 1024, messages: ask.messages })
    expect(entry.headers['authorization']).toBe('Bearer test')
    expect(Number.isNaN(Date.parse(entry.time))).toBe(false)
    const overHttp = await (await fetch(`${server.url}/_scripted/requests`)).json()
    expect(overHttp).toEqual(server.requests())
  })

  it('accepts x-api-key as well as Authorization: Bearer', async () => {
    const { server } = await start()
    const response = await fetch(`${server.url}/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': 'k', 'x-swarmdesk-agent-name': 'team-lead' },
      body: JSON.stringify(ask)
    })
    expect(response.status).toBe(200)
    expect(response.headers.get('request-id')).toMatch(/^req_/)
    expect(((await response.json()) as { content: unknown[] }).content).toHaveLength(3)
  })

  it('refuses a request without a key with 401 authentication_error', async () => {
    const { server } = await start()
    const response = await fetch(`${server.url}/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(ask)
    })
    expect(response.status).toBe(401)
    expect(response.headers.get('request-id')).toMatch(/^req_/)
    expect(await response.json()).toMatchObject({ type: 'error', error: { type: 'authentication_error' } })
  })

  it('refuses a key other than the scenario apiKey, and models outside the scenario list', async () => {
    server = await startScriptedServer({
      scenario: parseScenario(
        '{"apiKey":"right","models":["claude-x"],"agents":{"*":[{"text":"hi"}]}}',
        's.json',
        'json'
      )
    })
    const wrong = new Anthropic({ apiKey: 'wrong', baseURL: server.url, maxRetries: 0 })
    await expect(wrong.messages.create({ ...ask, model: 'claude-x' })).rejects.toMatchObject({
      status: 401,
      type: 'authentication_error',
      message: expect.stringContaining('rejected')
    })
    const right = new Anthropic({ apiKey: 'right', baseURL: server.url, maxRetries: 0 })
    await expect(right.messages.create(ask)).rejects.toMatchObject({
      status: 404,
      type: 'not_found_error',
      message: expect.stringContaining('model: claude-sonnet-5')
    })
    expect((await right.messages.create({ ...ask, model: 'claude-x' })).content).toEqual([{ type: 'text', text: 'hi' }])
  })

  it('accepts any claude- model when the scenario lists none, and 404s the others', async () => {
    const { client } = await start()
    await expect(client.messages.create({ ...ask, model: 'gpt-4o' }, lead)).rejects.toMatchObject({
      status: 404,
      type: 'not_found_error'
    })
    await expect(client.messages.create({ ...ask, model: 'claude-haiku-4-5' }, lead)).resolves.toMatchObject({
      model: 'claude-haiku-4-5'
    })
  })

  it('answers a malformed body with 400 invalid_request_error naming the field', async () => {
    const { client } = await start()
    const bad = { ...ask, max_tokens: 'many' } as unknown as typeof ask
    await expect(client.messages.create(bad, lead)).rejects.toMatchObject({
      status: 400,
      type: 'invalid_request_error',
      message: expect.stringContaining('max_tokens')
    })
  })

  it('refuses a tool_use without its tool_result in the next message, as the API does', async () => {
    const { client } = await start()
    const call = (id: string) => ({ type: 'tool_use' as const, id, name: 'Read', input: { file_path: '/x' } })
    const result = (id: string) => ({ type: 'tool_result' as const, tool_use_id: id, content: 'ok' })
    const history = (answer: Anthropic.MessageParam['content']) => ({
      ...ask,
      messages: [
        { role: 'user' as const, content: 'read two files' },
        { role: 'assistant' as const, content: [call('toolu_1'), call('toolu_2')] },
        { role: 'user' as const, content: answer }
      ]
    })
    await expect(
      client.messages.create(history([result('toolu_1'), { type: 'text', text: 'a teammate wrote' }]), lead)
    ).rejects.toMatchObject({
      status: 400,
      type: 'invalid_request_error',
      message: expect.stringContaining(
        'messages.2: `tool_use` ids were found without `tool_result` blocks immediately after: toolu_2'
      )
    })
    await expect(client.messages.create(history('only text'), lead)).rejects.toMatchObject({
      status: 400,
      message: expect.stringContaining('toolu_1, toolu_2')
    })
    await expect(client.messages.create(history([result('toolu_1'), result('toolu_2')]), lead)).resolves.toMatchObject({
      type: 'message'
    })
  })

  it('refuses a body that is not JSON, and more than 4 cache breakpoints, as the API does', async () => {
    const { server, client } = await start()
    const raw = await fetch(`${server.url}/v1/messages`, {
      method: 'POST',
      headers: { 'x-api-key': 'k' },
      body: '{not json'
    })
    expect(raw.status).toBe(400)
    expect(await raw.json()).toMatchObject({
      error: { type: 'invalid_request_error', message: 'request body is not valid JSON' }
    })

    const marked = { type: 'text' as const, text: 'x', cache_control: { type: 'ephemeral' as const } }
    const five = { ...ask, messages: [{ role: 'user' as const, content: [marked, marked, marked, marked, marked] }] }
    await expect(client.messages.create(five, lead)).rejects.toMatchObject({
      status: 400,
      type: 'invalid_request_error',
      message: expect.stringContaining('maximum of 4')
    })
    expect(server.requests()).toHaveLength(2)
  })
})
