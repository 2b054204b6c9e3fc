import { writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { beforeEach, describe, expect, it } from 'vitest'
import { ofType, runCli, useTempWorkspace } from './cli.testkit'

const everything = createRequire(import.meta.url).resolve('@modelcontextprotocol/server-everything/dist/index.js')
const ws = useTempWorkspace()
let config: string
let scenario: string
beforeEach(() => {
  config = join(ws.home, 'mcp.json')
  writeFileSync(
    config,
    JSON.stringify({ mcpServers: { everything: { command: process.execPath, args: [everything, 'stdio'] } } })
  )
  scenario = join(ws.home, 's.yaml')
  writeFileSync(scenario, ['agents:', '  team-lead:', '    - text: "read it"', ''].join('\n'))
})

const run = (prompt: string) =>
  runCli(['run', '--cwd', ws.work, '--scenario', scenario, '--mcp-config', config, '--json', prompt], {
    env: { SWARMDESK_HOME: ws.home, ANTHROPIC_API_KEY: '' }
  })

describe('MCP prompts as /mcp__server__prompt', () => {
  it('expands server-everything’s prompts, arguments in order, a quoted last one and an embedded resource', async () => {
    const args = await run('/mcp__everything__args-prompt Paris "Ile de France"')
    expect(args.stderr).toBe('')
    expect(args.code).toBe(0)
    expect(ofType(args.events, 'user_prompt').map((e) => e.text)).toEqual(["What's weather in Paris, Ile de France?"])

    const simple = await run('/mcp__everything__simple-prompt')
    expect(ofType(simple.events, 'user_prompt').map((e) => e.text)).toEqual([
      'This is a simple prompt without arguments.'
    ])

    const resource = await run('/mcp__everything__resource-prompt Text 1')
    expect(resource.code).toBe(0)
    const [text] = ofType(resource.events, 'user_prompt').map((e) => e.text)
    expect(text).toMatch(
      /^This prompt includes the Text resource with id: 1\. Please analyze the following resource:\n\n\[resource \S+\]\n./
    )
  }, 90_000)

  it('an unknown prompt, a missing argument and an argument the server refuses are bad usage (exit 2), saying what to type', async () => {
    const unknown = await run('/mcp__everything__nope')
    expect(unknown.code).toBe(2)
    expect(unknown.stderr).toContain('/mcp__everything__nope is no MCP prompt of this session. Prompts: ')
    expect(unknown.stderr).toContain('/mcp__everything__simple-prompt')
    const missing = await run('/mcp__everything__args-prompt')
    expect(missing.code).toBe(2)
    expect(missing.stderr).toContain(
      '/mcp__everything__args-prompt needs city: type /mcp__everything__args-prompt <city> [state].'
    )
    const refused = await run('/mcp__everything__resource-prompt Video 1')
    expect(refused.code).toBe(2)
    expect(refused.stderr).toContain('Invalid resourceType: Video')
    // any other slash text is the person's own words
    const plain = await run('/not-a-prompt at all')
    expect(plain.code).toBe(0)
    expect(ofType(plain.events, 'user_prompt').map((e) => e.text)).toEqual(['/not-a-prompt at all'])
  }, 90_000)
})
