import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ScenarioError } from './errors'
import { loadScenario, parseScenario } from './scenario'

let dir: string
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'scenario-'))
})
afterAll(async () => {
  await rm(dir, { recursive: true, force: true })
})

const SPEC_EXAMPLE = `
name: explore-then-test
agents:
  team-lead:
    - text: "Surveying the repository."
      tools:
        - { name: Agent, input: { subagent_type: Explore, description: "find TODOs", prompt: "List TODO comments" } }
        - { name: Bash, input: { command: "git log --oneline -5" } }
    - text: "Done: {{last_tool_result}}"          # placeholders: see below
  "type:Explore":
    - tools: [ { name: Grep, input: { pattern: "TODO", output_mode: "content" } } ]
    - text: "Found these TODOs: {{last_tool_result}}"
  "*":
    - text: "Nothing scripted for this agent."
`

function errorOf(run: () => unknown): ScenarioError {
  try {
    run()
  } catch (error) {
    if (error instanceof ScenarioError) return error
    throw error
  }
  throw new Error('expected a ScenarioError')
}

describe('scenario files', () => {
  it('reads the docs/scenarios.md#scripted-model-scenarios example from YAML with defaults applied', async () => {
    const file = join(dir, 'example.yaml')
    await writeFile(file, SPEC_EXAMPLE)
    const scenario = await loadScenario(file)
    expect(scenario.name).toBe('explore-then-test')
    expect(scenario.strict).toBe(false)
    expect(scenario.cache).toEqual({ minTokens: 1024, ttlMs: 300_000 })
    expect(Object.keys(scenario.agents)).toEqual(['team-lead', 'type:Explore', '*'])
    expect(scenario.agents['team-lead'][0].tools?.[0]).toEqual({
      name: 'Agent',
      input: { subagent_type: 'Explore', description: 'find TODOs', prompt: 'List TODO comments' }
    })
  })

  it('reads the same scenario from JSON, names it after the file when unnamed, and keeps cache settings', async () => {
    const file = join(dir, 'plain.json')
    await writeFile(
      file,
      JSON.stringify({
        strict: true,
        cache: { minTokens: 10 },
        agents: { '*': [{ text: 'hi', fault: 'overloaded', delayMs: 5 }] }
      })
    )
    const scenario = await loadScenario(file)
    expect(scenario.name).toBe('plain.json')
    expect(scenario.strict).toBe(true)
    expect(scenario.cache).toEqual({ minTokens: 10, ttlMs: 300_000 })
    expect(scenario.agents['*'][0]).toEqual({ text: 'hi', fault: 'overloaded', delayMs: 5 })
  })

  it('names file, path and reason for a tool without a string name', () => {
    const text = SPEC_EXAMPLE.replace('- { name: Bash,', '- { name: 42,')
    const error = errorOf(() => parseScenario(text, 'demo.yaml'))
    expect(error.file).toBe('demo.yaml')
    expect(error.path).toBe('agents.team-lead[0].tools[1].name')
    expect(error.message).toMatch(/^demo\.yaml: agents\.team-lead\[0\]\.tools\[1\]\.name: .*expected string/)
  })

  it('rejects an unknown fault and a misspelt turn field, naming them', () => {
    const fault = errorOf(() => parseScenario('{"agents":{"a":[{"text":"x"},{"fault":"explode"}]}}', 'f.json', 'json'))
    expect(fault.path).toBe('agents.a[1].fault')
    expect(fault.message).toContain('rate_limit')
    const typo = errorOf(() => parseScenario('agents:\n  a:\n    - tool: []\n', 't.yaml'))
    expect(typo.path).toBe('agents.a[0]')
    expect(typo.message).toContain('tool')
  })

  it('reports a missing agents map and a YAML syntax error with its line', () => {
    expect(errorOf(() => parseScenario('name: x\n', 'n.yaml')).message).toMatch(/^n\.yaml: agents: /)
    const syntax = errorOf(() => parseScenario('agents:\n  a: [\n', 'bad.yaml'))
    expect(syntax.message).toMatch(/^bad\.yaml: invalid YAML at line \d+/)
  })

  it('names the line of the file for a scenario that parses but does not validate, in YAML and JSON', () => {
    const yaml = 'name: x\nagents:\n  team-lead:\n    - text: hi\n    - tools:\n        - { input: { command: ls } }\n'
    expect(errorOf(() => parseScenario(yaml, 's.yaml')).message).toMatch(
      /^s\.yaml: agents\.team-lead\[1\]\.tools\[0\]\.name: .*\(line 6\)$/
    )
    const json = '{\n  "agents": {\n    "team-lead": [\n      { "text": 5 }\n    ]\n  }\n}\n'
    expect(errorOf(() => parseScenario(json, 's.json', 'json')).message).toMatch(
      /^s\.json: agents\.team-lead\[0\]\.text: .*\(line 4\)$/
    )
  })

  it('names the line of a JSON syntax error, which JSON.parse does not', () => {
    const json = '{\n  "agents": {\n    "team-lead": [\n      { "text": "hi" },,\n    ]\n  }\n}\n'
    expect(errorOf(() => parseScenario(json, 's.json', 'json')).message).toMatch(/^s\.json: invalid JSON at line 4: /)
  })

  it('reports an unreadable file by its path', async () => {
    const missing = join(dir, 'missing.yaml')
    await expect(loadScenario(missing)).rejects.toThrow(`${missing}: cannot read file: ENOENT`)
  })
})

describe('a scenario’s suggested prompt', () => {
  it('is read from the top-level `prompt` field, trimmed, and is absent when not set', () => {
    expect(
      parseScenario('prompt: "  Fix the failing tests  "\nagents: { "*": [ { text: hi } ] }\n', 's.yaml').prompt
    ).toBe('Fix the failing tests')
    expect(parseScenario('agents: { "*": [ { text: hi } ] }\n', 's.yaml').prompt).toBeUndefined()
  })

  it('rejects an empty, multi-line, over-long or non-text prompt, saying why and where', () => {
    const empty = errorOf(() => parseScenario('prompt: "  "\nagents: { "*": [] }\n', 's.yaml'))
    expect(empty.message).toMatch(/prompt.*empty.*line 1/)
    const lines = errorOf(() => parseScenario('agents: { "*": [] }\nprompt: "one\\ntwo"\n', 's.yaml'))
    expect(lines.message).toMatch(/prompt.*line break.*line 2/)
    const long = errorOf(() => parseScenario(JSON.stringify({ prompt: 'x'.repeat(501), agents: {} }), 's.json', 'json'))
    expect(long.message).toMatch(/prompt.*longer than 500/)
    const number = errorOf(() => parseScenario('prompt: 42\nagents: {}\n', 's.yaml'))
    expect(number.message).toMatch(/prompt.*must be text/)
  })

  it('is set by both demo scenarios: the offline demo suggests the prompt `swarmdesk demo` asks for', async () => {
    const demo = (name: string) => loadScenario(join(__dirname, '..', '..', '..', '..', 'resources', 'demo', name))
    // the text of src/main/cli/commands/demo.ts DEMO_PROMPT
    expect((await demo('demo.yaml')).prompt).toBe(
      'Survey this project, run its tests, and fix whatever makes them fail.'
    )
    expect((await demo('team.yaml')).prompt).toBe('Document this project with a team')
  })
})
