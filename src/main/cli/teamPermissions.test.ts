import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { startScriptedServer, type ScenarioInput } from '../runtime/scripted'
import { ofType, runCli, useTempWorkspace } from './cli.testkit'

// Permission sync (docs/teams.md#permission-requests) through both teammate backends, headless: the teammate's own rules
// and mode are evaluated first — here a rule from the leader's --settings file, which teammates
// share — and only what still needs a decision reaches the leader's queue, tagged with the
// teammate. A bypassPermissions teammate never asks.

const ws = useTempWorkspace()

const checks = (name: string) => `
  ${name}:
    - when: "Run your checks"
      tools:
        - { name: Bash, input: { command: "touch ${name}-rule.txt && echo ${name}-allowed-by-rule" } }
        - { name: Bash, input: { command: "mkdir ${name}-dir && echo ${name}-asked" } }
${'    - { text: "Done." }\n'.repeat(4)}`

const SCENARIO = `
agents:
  team-lead:
    - tools: [ { name: TeamCreate, input: { team_name: perm } } ]
    - tools:
        - { name: Agent, input: { name: dora, backend: worker, description: "checker", prompt: "Run your checks." } }
        - { name: Agent, input: { name: eli, backend: process, description: "checker", prompt: "Run your checks." } }
        - { name: Agent, input: { name: fay, backend: worker, mode: bypassPermissions, description: "checker", prompt: "Run your checks." } }
    - text: "Three checkers at work."
${'    - { text: "Noted." }\n'.repeat(16)}${checks('dora')}${checks('eli')}${checks('fay')}`

describe('teammate permission requests (docs/teams.md#permission-requests)', () => {
  it("a default teammate's Bash request reaches the leader's queue tagged with its name through both backends, after the shared rules; a bypassPermissions teammate never asks", async () => {
    const { home, work } = ws
    const scenario = join(home, 'perm.yaml')
    writeFileSync(scenario, SCENARIO)
    const settings = join(home, 'rules.json')
    // Bash(touch:*) covers the command; the file it writes needs its own Edit rule (docs/permissions.md#permissions).
    writeFileSync(settings, JSON.stringify({ permissions: { allow: ['Bash(touch:*)', 'Edit(*-rule.txt)'] } }))
    const run = await runCli(
      [
        'run',
        '--cwd',
        work,
        '--scenario',
        scenario,
        '--settings',
        settings,
        '--approve',
        'all',
        '--json',
        'Check everything'
      ],
      { env: { SWARMDESK_HOME: home } }
    )
    expect(run.stderr).toBe('')
    expect(run.code).toBe(0)
    const all = ofType(run.events, 'permission_request')
    // spawning fay into bypassPermissions was the leader's to ask (she then does without asking what the leader could not)
    expect(
      all
        .filter((e) => e.tool === 'Agent')
        .map((e) => [e.agentName, (e.input as { name: string; mode: string }).name, (e.input as { mode: string }).mode])
    ).toEqual([['team-lead', 'fay', 'bypassPermissions']])
    const asked = all.filter((e) => e.tool !== 'Agent')
    // exactly the mkdir of each default teammate: the touch was allowed by the shared rules in its own evaluation
    expect(asked.map((e) => [e.agentId, e.agentName, e.tool, (e.input as { command: string }).command]).sort()).toEqual(
      [
        ['dora@perm', 'dora', 'Bash', 'mkdir dora-dir && echo dora-asked'],
        ['eli@perm', 'eli', 'Bash', 'mkdir eli-dir && echo eli-asked']
      ]
    )
    const decided = ofType(run.events, 'permission_decided')
    for (const request of asked)
      expect(decided.filter((e) => e.requestId === request.requestId)).toEqual([
        expect.objectContaining({ decision: 'allow', by: 'approve-flag', agentName: request.agentName })
      ])
    // every command ran once, allowed by the rule, by the person's answer, or by the mode
    const results = new Map(ofType(run.events, 'tool_result').map((e) => [e.toolUseId, e]))
    const bash = ofType(run.events, 'tool_call').filter((e) => e.name === 'Bash')
    expect(bash).toHaveLength(6)
    for (const call of bash) {
      const word = (call.input as { command: string }).command.match(/(\w+-(allowed-by-rule|asked))/)![1]!
      expect(results.get(call.toolUseId)).toMatchObject({ isError: false, output: expect.stringContaining(word) })
    }
    expect(
      ofType(run.events, 'agent_stopped')
        .filter((e) => e.agentId.endsWith('@perm'))
        .map((e) => [e.agentName, e.status])
        .sort()
    ).toEqual([
      ['dora', 'exited'],
      ['eli', 'exited'],
      ['fay', 'exited']
    ])
  }, 60_000)
})

describe('permission requests never reach a model (docs/teams.md#mailbox)', () => {
  it("a process teammate's permission_request and the leader's permission_response travel through the mailbox, and no model request of either agent carries them", async () => {
    const { home, work } = ws
    const scenario = `
agents:
  team-lead:
    - tools: [ { name: TeamCreate, input: { team_name: quiet } } ]
    - tools:
        - { name: Agent, input: { name: gus, backend: process, description: "checker", prompt: "Run your checks." } }
    - text: "One checker at work."
${'    - { text: "Noted." }\n'.repeat(8)}
  gus:
    - when: "Run your checks"
      tools:
        - { name: Bash, input: { command: "mkdir gus-dir && echo gus-asked" } }
${'    - { text: "Done." }\n'.repeat(4)}`
    const server = await startScriptedServer({ scenario: parse(scenario) as ScenarioInput })
    try {
      const run = await runCli(['run', '--cwd', work, '--approve', 'all', '--json', 'Check everything'], {
        env: {
          SWARMDESK_HOME: home,
          ANTHROPIC_API_KEY: 'test-key',
          ANTHROPIC_BASE_URL: server.url,
          SWARMDESK_SCRIPTED_MODEL_URL: server.url
        }
      })
      expect(run.stderr).toBe('')
      expect(run.code).toBe(0)
      const [asked, ...more] = ofType(run.events, 'permission_request')
      expect(more).toEqual([])
      expect(asked).toMatchObject({ agentName: 'gus', tool: 'Bash' })
      // the answer reached gus through its inbox: the command ran
      expect(ofType(run.events, 'tool_result').find((e) => e.agentName === 'gus' && !e.isError)?.output).toContain(
        'gus-asked'
      )
      const requests = server.requests()
      const byAgent = (name: string) =>
        requests.filter((r) => r.agentName === name).map((r) => r.rawBody ?? JSON.stringify(r.body))
      const lead = byAgent('team-lead')
      const gus = byAgent('gus')
      // both agents talked to the model after the request was answered, and the leader heard gus
      // (his idle notification, rendered as a teammate message): the search below looks where they would be
      expect(gus.length).toBeGreaterThanOrEqual(2)
      expect(lead.some((body) => body.includes('teammate-message') && body.includes('gus'))).toBe(true)
      for (const body of [...lead, ...gus]) {
        expect(body).not.toContain('permission_request')
        expect(body).not.toContain('permission_response')
        expect(body).not.toContain(asked!.requestId)
      }
    } finally {
      await server.close()
    }
  }, 60_000)
})
