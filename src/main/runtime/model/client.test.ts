import { createServer } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { startScriptedServer, validateScenario, type ScriptedServer } from '../scripted'
import { ModelClient } from './client'
import { ModelError } from './errors'
import { costOf, resolveModel } from './pricing'

let server: ScriptedServer | undefined
afterEach(async () => {
  await server?.close()
  server = undefined
})

const agent = { id: 'team-lead', name: 'team-lead', type: 'main', cwd: '/tmp' }
const request = (model = 'claude-sonnet-5-5') => ({
  model,
  maxTokens: 100,
  system: [{ type: 'text' as const, text: 'sys' }],
  tools: [],
  messages: [{ role: 'user' as const, content: 'hi' }]
})

async function failure(client: ModelClient, model?: string): Promise<ModelError> {
  try {
    for await (const _ of client.stream(request(model), { agent, signal: new AbortController().signal })) void _
  } catch (error) {
    expect(error).toBeInstanceOf(ModelError)
    return error as ModelError
  }
  throw new Error('expected the request to fail')
}

describe('ModelClient errors say what to do', () => {
  it('names the key problem and how to fix it', async () => {
    server = await startScriptedServer({
      scenario: validateScenario({ apiKey: 'right-key', agents: { '*': [{ text: 'x' }] } }, 'test')
    })
    const error = await failure(new ModelClient({ apiKey: 'wrong-key', baseURL: server.url, maxRetries: 0 }))
    expect(error.kind).toBe('authentication')
    expect(error.message).toMatch(/rejected the API key.*ANTHROPIC_API_KEY/)
  })

  it('names an unknown model and suggests ids and aliases', async () => {
    server = await startScriptedServer({ scenario: validateScenario({ agents: { '*': [{ text: 'x' }] } }, 'test') })
    const error = await failure(new ModelClient({ apiKey: 'k', baseURL: server.url, maxRetries: 0 }), 'gpt-4')
    expect(error.kind).toBe('model_not_found')
    expect(error.message).toContain('Model "gpt-4" was not found')
    expect(error.message).toContain('opus, sonnet, haiku')
  })

  it('names an unreachable endpoint and the setting to check', async () => {
    const closed = await new Promise<number>((resolve) => {
      const s = createServer().listen(0, '127.0.0.1', () => {
        const port = (s.address() as { port: number }).port
        s.close(() => resolve(port))
      })
    })
    const error = await failure(new ModelClient({ apiKey: 'k', baseURL: `http://127.0.0.1:${closed}`, maxRetries: 0 }))
    expect(error.kind).toBe('connection')
    expect(error.message).toContain(`http://127.0.0.1:${closed}`)
    expect(error.message).toContain('ANTHROPIC_BASE_URL')
  })

  it('reports an abort as aborted, not as a failure of the endpoint', async () => {
    server = await startScriptedServer({
      scenario: validateScenario({ agents: { '*': [{ delayMs: 5000, text: 'late' }] } }, 'test')
    })
    const controller = new AbortController()
    setTimeout(() => controller.abort(), 100)
    const client = new ModelClient({ apiKey: 'k', baseURL: server.url })
    await expect(
      (async () => {
        for await (const _ of client.stream(request(), { agent, signal: controller.signal })) void _
      })()
    ).rejects.toMatchObject({ kind: 'aborted' })
  })
})

describe('price table', () => {
  it('prices usage per model family in USD per million tokens, cache writes at 1.25x and reads at 0.1x input', () => {
    // sonnet: $3 in, $15 out per MTok → 1M in + 1M out + 1M cache write + 1M cache read = 3 + 15 + 3.75 + 0.3
    const usage = {
      inputTokens: 1_000_000,
      outputTokens: 1_000_000,
      cacheCreationInputTokens: 1_000_000,
      cacheReadInputTokens: 1_000_000
    }
    expect(costOf('claude-sonnet-4-5-20250929', usage)).toBeCloseTo(22.05, 10)
    expect(costOf('claude-opus-4-1', usage)).toBeCloseTo(15 + 75 + 18.75 + 1.5, 10)
    expect(costOf('claude-haiku-4-5', usage)).toBeCloseTo(1 + 5 + 1.25 + 0.1, 10)
    expect(costOf('some-other-model', usage)).toBe(0)
    expect(resolveModel('sonnet')).toBe('claude-sonnet-5-5')
    expect(resolveModel('claude-opus-4-1')).toBe('claude-opus-4-1')
  })
})
