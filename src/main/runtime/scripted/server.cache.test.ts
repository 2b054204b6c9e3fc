import Anthropic from '@anthropic-ai/sdk'
import { afterEach, describe, expect, it } from 'vitest'
import { parseScenario } from './scenario'
import { startScriptedServer, type ScriptedServer } from './server'

let server: ScriptedServer | undefined
afterEach(async () => {
  await server?.close()
  server = undefined
})

/*
 * Hand computation (see promptCache.test.ts for the block arithmetic): model "claude-sonnet-5"
 * opens the canonical array with `["claude-sonnet-5"` = 18 bytes, the `]` closes it (1 byte), and
 * each block (365 letters in a user text block) adds 400 bytes. The prefix ending at block i has
 * 400·(i+1) + 19 bytes → tokens(i) = ceil((400·(i+1) + 19) / 4) = 100·(i+1) + 5.
 * 8 blocks with the breakpoint at block 5: total tokens(7) = 805, cached prefix tokens(5) = 605.
 */
const messages = Array.from({ length: 8 }, (_, i) => ({
  role: 'user' as const,
  content: [
    {
      type: 'text' as const,
      text: String.fromCharCode(97 + i).repeat(365),
      ...(i === 5 ? { cache_control: { type: 'ephemeral' as const } } : {})
    }
  ]
}))

describe('prompt cache through the SDK', () => {
  it('reports a cache write, then a cache read, in the usage the SDK returns and in the stats', async () => {
    server = await startScriptedServer({
      scenario: parseScenario(
        '{"cache":{"minTokens":500},"agents":{"*":[{"text":"one"},{"text":"two"}]}}',
        'cache.json',
        'json'
      )
    })
    const client = new Anthropic({ apiKey: 'test', baseURL: server.url, maxRetries: 0 })
    const request = { model: 'claude-sonnet-5', max_tokens: 64, messages }

    const first = await client.messages.create(request)
    expect(first.usage).toMatchObject({
      input_tokens: 200,
      cache_creation_input_tokens: 605,
      cache_read_input_tokens: 0
    })

    const second = await client.messages.stream(request).finalMessage()
    expect(second.usage).toMatchObject({
      input_tokens: 200,
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 605
    })

    const stats = await (await fetch(`${server.url}/_scripted/stats`)).json()
    expect(stats).toEqual({
      requests: 2,
      cacheHits: 1,
      cacheWrites: 1,
      cacheReadTokens: 605,
      cacheCreationTokens: 605,
      faultsInjected: 0
    })
  })

  it('forgets the cache, the log and consumption on POST /_scripted/reset', async () => {
    server = await startScriptedServer({
      scenario: parseScenario('{"cache":{"minTokens":500},"agents":{"*":[{"text":"only"}]}}', 'reset.json', 'json')
    })
    const client = new Anthropic({ apiKey: 'test', baseURL: server.url, maxRetries: 0 })
    const request = { model: 'claude-sonnet-5', max_tokens: 64, messages }
    await client.messages.create(request)
    const reset = await fetch(`${server.url}/_scripted/reset`, { method: 'POST' })
    expect(reset.status).toBe(200)
    expect(server.requests()).toEqual([])
    expect(server.stats().requests).toBe(0)
    // The single turn is available again, and the prefix is written again rather than read.
    const again = await client.messages.create(request)
    expect(again.content).toEqual([{ type: 'text', text: 'only' }])
    expect(again.usage).toMatchObject({ cache_creation_input_tokens: 605, cache_read_input_tokens: 0 })
  })
})
