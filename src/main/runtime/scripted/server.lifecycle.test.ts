import Anthropic from '@anthropic-ai/sdk'
import { writeFile, mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { ScenarioError } from './errors'
import { startScriptedServer } from './server'

/** Handles of this process that keep it alive, by kind (sockets, servers, timers). */
function activeHandles(): string[] {
  return (process as unknown as { getActiveResourcesInfo(): string[] })
    .getActiveResourcesInfo()
    .filter((kind) => kind !== 'TTYWrap')
}

describe('scripted server lifecycle', () => {
  it('loads a scenario file by path and reports health', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'scripted-'))
    try {
      const file = join(dir, 's.yaml')
      await writeFile(file, 'name: from-file\nagents:\n  "*": [ { text: hi } ]\n')
      const server = await startScriptedServer({ scenario: file, port: 0 })
      expect(server.url).toBe(`http://127.0.0.1:${server.port}`)
      expect(await (await fetch(`${server.url}/_scripted/health`)).json()).toEqual({
        ok: true,
        scenario: 'from-file',
        requests: 0
      })
      expect((await fetch(`${server.url}/nowhere`)).status).toBe(404)
      await server.close()
      await expect(startScriptedServer({ scenario: join(dir, 'missing.yaml') })).rejects.toBeInstanceOf(ScenarioError)
      const inline = { agents: { '*': [{ txt: 'typo' }] } } as never
      await expect(startScriptedServer({ scenario: inline })).rejects.toThrow(/^\(inline scenario\): agents\.\*\[0\]: /)
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })

  it('leaves no handle open after close, even with keep-alive clients and a pending delayed answer', async () => {
    const before = activeHandles().length
    const server = await startScriptedServer({
      scenario: { agents: { '*': [{ text: 'a' }, { text: 'b', delayMs: 60_000 }] } }
    })
    const client = new Anthropic({ apiKey: 'test', baseURL: server.url, maxRetries: 0 })
    const ask = { model: 'claude-haiku-4-5', max_tokens: 8, messages: [{ role: 'user' as const, content: 'hi' }] }
    await client.messages.create(ask)
    const pending = client.messages.create(ask).catch((error: unknown) => error)
    await new Promise((resolve) => setTimeout(resolve, 50))
    const started = Date.now()
    await server.close()
    expect(Date.now() - started).toBeLessThan(1000)
    expect(await pending).toMatchObject({ name: 'APIConnectionError' })
    await server.close() // idempotent
    await new Promise((resolve) => setTimeout(resolve, 20))
    expect(activeHandles().length).toBeLessThanOrEqual(before)
  })
})
