import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestSite, type TestSite } from '../runtime/tools/web/web.testkit'
import { ofType, runCli, useTempWorkspace } from './cli.testkit'

const dirs = useTempWorkspace()
let site: TestSite
beforeAll(async () => {
  site = await startTestSite()
})
afterAll(() => site.close())

function scenario(): string {
  const file = join(dirs.work, 's.yaml')
  writeFileSync(
    file,
    [
      'agents:',
      '  team-lead:',
      `    - tools: [{ name: WebFetch, input: { url: "${site.url}/article", prompt: "What got faster?" } }]`,
      '    - text: "done: {{last_tool_result}}"',
      '  web-fetch:',
      '    - when: "The **frobnicator** now runs twice as fast."',
      '      text: "The frobnicator, twice as fast."',
      ''
    ].join('\n')
  )
  return file
}

describe('WebFetch through the real runtime and the scripted model', () => {
  it('asks for the domain, fetches the local page, and the web-fetch agent answers without taking the leader’s turns', async () => {
    const run = await runCli(['run', '--scenario', scenario(), '--json', '--approve', 'all', 'read the notes'], {
      cwd: dirs.work,
      env: { SWARMDESK_HOME: dirs.home, ANTHROPIC_API_KEY: '' }
    })
    expect(run.stderr).toBe('')
    expect(run.code).toBe(0)
    const asked = ofType(run.events, 'permission_request')
    expect(asked.map((r) => r.tool)).toEqual(['WebFetch'])
    expect(asked[0].reason).toBe('WebFetch(domain:127.0.0.1) reaches the network: a person decides')
    expect(ofType(run.events, 'tool_result')[0]).toMatchObject({
      isError: false,
      output: 'The frobnicator, twice as fast.'
    })
    expect(ofType(run.events, 'assistant_text').at(-1)?.text).toBe('done: The frobnicator, twice as fast.')
    // the leader's two responses and the fetch's one, whose cost is the leader's
    expect(ofType(run.events, 'usage').map((u) => u.model)).toEqual([
      expect.stringMatching(/sonnet/),
      'claude-haiku-5-5',
      expect.stringMatching(/sonnet/)
    ])
  })

  it('runs without asking under a WebFetch(domain:…) allow rule', async () => {
    const settings = join(dirs.work, 'allow.json')
    writeFileSync(settings, JSON.stringify({ permissions: { allow: ['WebFetch(domain:127.0.0.1)'] } }))
    const run = await runCli(['run', '--scenario', scenario(), '--settings', settings, '--json', 'read the notes'], {
      cwd: dirs.work,
      env: { SWARMDESK_HOME: dirs.home, ANTHROPIC_API_KEY: '' }
    })
    expect(run.stderr).toBe('')
    expect(run.code).toBe(0)
    expect(ofType(run.events, 'permission_request')).toEqual([])
    expect(ofType(run.events, 'tool_result')[0]).toMatchObject({ output: 'The frobnicator, twice as fast.' })
  })
})

describe('WebSearch through the real runtime and the scripted model', () => {
  it('asks, then the web-search agent searches server-side and the leader reads the results as its tool result', async () => {
    const file = join(dirs.work, 'search.yaml')
    writeFileSync(
      file,
      [
        'agents:',
        '  team-lead:',
        '    - tools: [{ name: WebSearch, input: { query: "frobnicator 4.2", allowed_domains: [example.com] } }]',
        '    - text: "done"',
        '  web-search:',
        '    - webSearch:',
        '        results:',
        '          - { url: "https://docs.example.com/4.2", title: "Frobnicator 4.2" }',
        '          - { url: "https://elsewhere.org/x", title: "Off the list" }',
        '      text: "4.2 doubles the speed."',
        ''
      ].join('\n')
    )
    const run = await runCli(['run', '--scenario', file, '--json', '--approve', 'all', 'search it'], {
      cwd: dirs.work,
      env: { SWARMDESK_HOME: dirs.home, ANTHROPIC_API_KEY: '' }
    })
    expect(run.stderr).toBe('')
    expect(run.code).toBe(0)
    expect(ofType(run.events, 'permission_request').map((r) => [r.tool, r.reason])).toEqual([
      ['WebSearch', 'WebSearch reaches the network: a person decides']
    ])
    expect(ofType(run.events, 'tool_result')[0]).toMatchObject({
      isError: false,
      output: [
        'Web search results for "frobnicator 4.2":',
        '1. Frobnicator 4.2',
        '   https://docs.example.com/4.2',
        '',
        '4.2 doubles the speed.',
        '',
        'Cite the sources you use as Markdown links.'
      ].join('\n')
    })
  })
})
