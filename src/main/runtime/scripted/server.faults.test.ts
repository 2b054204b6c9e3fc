import Anthropic, { APIError } from '@anthropic-ai/sdk'
import { afterEach, describe, expect, it } from 'vitest'
import { parseScenario } from './scenario'
import { startScriptedServer, type ScriptedServer } from './server'

let server: ScriptedServer | undefined
afterEach(async () => {
  await server?.close()
  server = undefined
})

/** A one-turn script whose first answer injects `fault`; the SDK's retry must get the text. */
async function withFault(fault: string, maxRetries?: number): Promise<Anthropic> {
  server = await startScriptedServer({
    scenario: parseScenario(
      JSON.stringify({ agents: { '*': [{ fault, text: 'Recovered after the fault.' }] } }),
      'faults.json',
      'json'
    )
  })
  return new Anthropic({ apiKey: 'test', baseURL: server.url, ...(maxRetries === undefined ? {} : { maxRetries }) })
}

const ask = { model: 'claude-sonnet-5', max_tokens: 256, messages: [{ role: 'user' as const, content: 'Go' }] }

describe('scripted faults', () => {
  it('answers 429 rate_limit_error with retry-after 0 once, and the SDK retry succeeds', async () => {
    const client = await withFault('rate_limit')
    const message = await client.messages.create(ask)
    expect(message.content).toEqual([{ type: 'text', text: 'Recovered after the fault.' }])
    expect(server!.requests()).toHaveLength(2)
    expect(server!.stats().faultsInjected).toBe(1)
  })

  it('shows 429 with the rate_limit_error type and retry-after header when the client does not retry', async () => {
    const client = await withFault('rate_limit', 0)
    const error = await client.messages.create(ask).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(APIError)
    expect(error).toMatchObject({ status: 429, type: 'rate_limit_error' })
    expect((error as APIError).headers?.get('retry-after')).toBe('0')
  })

  it('answers 529 overloaded_error once, and the SDK retry succeeds', async () => {
    const client = await withFault('overloaded')
    const message = await client.messages.stream(ask).finalMessage()
    expect(message.content).toEqual([{ type: 'text', text: 'Recovered after the fault.' }])
    expect(server!.requests()).toHaveLength(2)
  })

  it('breaks a stream after some text with an in-band overloaded_error, then serves the turn whole', async () => {
    const client = await withFault('overloaded_mid_stream')
    const seen: string[] = []
    const stream = client.messages.stream(ask).on('text', (delta) => seen.push(delta))
    const error = await stream.finalMessage().catch((e: unknown) => e)
    expect(error).toBeInstanceOf(APIError)
    expect(error).toMatchObject({ type: 'overloaded_error' })
    // The first half of the 26-character text: 13 characters arrived before the error.
    expect(seen.join('')).toBe('Recovered aft')
    expect(server!.requests()).toHaveLength(1)

    const again = await client.messages.stream(ask).finalMessage()
    expect(again.content).toEqual([{ type: 'text', text: 'Recovered after the fault.' }])
    expect(server!.stats().faultsInjected).toBe(1)
  })

  it('cuts the connection before answering once, and the SDK retry succeeds', async () => {
    const client = await withFault('disconnect')
    const message = await client.messages.create(ask)
    expect(message.content).toEqual([{ type: 'text', text: 'Recovered after the fault.' }])
    expect(server!.requests()).toHaveLength(2)
  })

  it('surfaces a cut connection as APIConnectionError when retries are off', async () => {
    const client = await withFault('disconnect', 0)
    await expect(client.messages.create(ask)).rejects.toMatchObject({ name: 'APIConnectionError' })
  })

  it('waits delayMs before answering, and stops waiting when the client goes away', async () => {
    server = await startScriptedServer({
      scenario: parseScenario('{"agents":{"*":[{"delayMs":300,"text":"late"},{"text":"next"}]}}', 'd.json', 'json')
    })
    const client = new Anthropic({ apiKey: 'test', baseURL: server.url, maxRetries: 0 })
    const started = Date.now()
    await expect(client.messages.create(ask)).resolves.toMatchObject({ content: [{ type: 'text', text: 'late' }] })
    expect(Date.now() - started).toBeGreaterThanOrEqual(290)

    server.reset()
    const abort = new AbortController()
    const pending = client.messages.create(ask, { signal: abort.signal })
    setTimeout(() => abort.abort(), 50)
    await expect(pending).rejects.toMatchObject({ name: 'APIUserAbortError' })
    // The abandoned turn was selected and consumed; closing the server must not wait for its timer.
    const closeStarted = Date.now()
    await server.close()
    expect(Date.now() - closeStarted).toBeLessThan(250)
  })
})
