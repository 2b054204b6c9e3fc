import Anthropic from '@anthropic-ai/sdk'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { scriptedServerCommand } from './scriptedServer'

let dir: string
let scenarioFile: string
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'scripted-cli-'))
  scenarioFile = join(dir, 'demo.yaml')
  await writeFile(scenarioFile, 'agents:\n  "*": [ { text: "from the CLI server" } ]\n')
})
afterAll(async () => {
  await rm(dir, { recursive: true, force: true })
})

function capture() {
  const stdout: string[] = []
  const stderr: string[] = []
  return { stdout, stderr, io: { stdout: (l: string) => stdout.push(l), stderr: (l: string) => stderr.push(l) } }
}

async function waitFor<T>(get: () => T | undefined): Promise<T> {
  for (let i = 0; i < 200; i++) {
    const value = get()
    if (value !== undefined) return value
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
  throw new Error('timed out')
}

describe('swarmdesk scripted-server', () => {
  it('prints one SCRIPTED_MODEL_URL line, serves the SDK, and exits 0 on SIGTERM', async () => {
    const { stdout, stderr, io } = capture()
    const done = scriptedServerCommand(['--scenario', scenarioFile, '--port', '0'], io)
    const line = await waitFor(() => stdout[0])
    const match = /^SCRIPTED_MODEL_URL (http:\/\/127\.0\.0\.1:\d+)$/.exec(line)
    expect(match).not.toBeNull()
    const client = new Anthropic({ apiKey: 'test', baseURL: match![1], maxRetries: 0 })
    const message = await client.messages.create({
      model: 'claude-haiku-4-5',
      max_tokens: 8,
      messages: [{ role: 'user', content: 'hi' }]
    })
    expect(message.content).toEqual([{ type: 'text', text: 'from the CLI server' }])

    process.emit('SIGTERM', 'SIGTERM')
    expect(await done).toBe(0)
    expect(stdout).toHaveLength(1)
    // the request's line on stderr: who asked (no identity: a bare SDK client) and the turn that answered
    expect(stderr).toEqual([
      expect.stringMatching(/^POST \/v1\/messages 200 \d+ ms \(no identity\): script \*, turn 0$/)
    ])
    await expect(fetch(`${match![1]}/_scripted/health`)).rejects.toThrow()
    expect(process.listenerCount('SIGTERM')).toBe(0)
  })

  it('stops on its abort signal as on a signal', async () => {
    const { io } = capture()
    const abort = new AbortController()
    abort.abort()
    expect(await scriptedServerCommand(['--scenario', scenarioFile], { ...io, signal: abort.signal })).toBe(0)
  })

  it.each([
    [[], '--scenario FILE is required'],
    [['--scenario'], "Option '--scenario <value>' argument missing"],
    [['--scenario', 'x.yaml', '--verbose'], "Unknown option '--verbose'"],
    [['--scenario', 'x.yaml', '--port', 'eighty'], "--port must be an integer from 0 to 65535, got 'eighty'"]
  ])('exits 2 on bad usage %j, naming what was wrong', async (argv, expected) => {
    const { stdout, stderr, io } = capture()
    expect(await scriptedServerCommand(argv, io)).toBe(2)
    expect(stdout).toEqual([])
    expect(stderr.join('\n')).toContain(expected)
  })

  it('exits 2 on a malformed scenario, naming file, path and reason', async () => {
    const bad = join(dir, 'bad.yaml')
    await writeFile(bad, 'agents:\n  team-lead:\n    - tools: [ { input: {} } ]\n')
    const { stderr, io } = capture()
    expect(await scriptedServerCommand(['--scenario', bad], io)).toBe(2)
    expect(stderr.join('\n')).toMatch(
      new RegExp(`bad scenario: ${bad.replace(/[.\\/]/g, '\\$&')}: agents\\.team-lead\\[0\\]\\.tools\\[0\\]\\.name: `)
    )
  })
})
