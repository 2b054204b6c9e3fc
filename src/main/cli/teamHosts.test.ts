import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { ofType, runCli, useTempWorkspace } from './cli.testkit'

// A spawn naming a host is checked before anything starts (docs/hosts.md#spawning-on-a-host): the
// leader's model gets the reason as the Agent call's error, and no teammate starts.

const ws = useTempWorkspace()

const scenario = `
agents:
  team-lead:
    - tools: [ { name: TeamCreate, input: { team_name: crew } } ]
    - tools:
        - { name: Agent, input: { name: ann, host: nowhere, description: "a", prompt: "Work." } }
    - tools:
        - { name: Agent, input: { name: ann, host: box, description: "a", prompt: "Work." } }
    - tools:
        - { name: Agent, input: { name: ann, host: box, backend: worker, description: "a", prompt: "Work." } }
    - tools:
        - { name: Agent, input: { host: box, description: "a", prompt: "Work." } }
    - tools: [ { name: TeamDelete, input: {} } ]
    - text: "Done."
`

describe('a teammate spawn naming a host (docs/hosts.md#spawning-on-a-host)', () => {
  it('is refused with the reason: an unknown host names the known ones, a team on files cannot reach a host, a worker cannot go there, a subagent cannot have one', async () => {
    const { home, work } = ws
    const settings = join(work, '..', 'hosts-settings.json')
    const host = { destination: 'dev@box.invalid', workspace: '/srv/swarm', command: 'swarmdesk' }
    writeFileSync(
      settings,
      JSON.stringify({
        teammateHosts: [
          { name: 'box', ...host },
          { name: 'gpu', ...host }
        ]
      })
    )
    const file = join(work, '..', 'hosts-refused.yaml')
    writeFileSync(file, scenario)
    const run = await runCli(
      ['run', '--cwd', work, '--scenario', file, '--settings', settings, '--approve', 'all', '--json', 'Go'],
      { env: { SWARMDESK_HOME: home, SWARMDESK_TEAM_TRANSPORT: '' } }
    )
    expect(run.stderr).toBe('')
    expect(run.code).toBe(0)
    const results = new Map(ofType(run.events, 'tool_result').map((e) => [e.toolUseId, e]))
    const agentResults = ofType(run.events, 'tool_call')
      .filter((e) => e.name === 'Agent')
      .map((e) => results.get(e.toolUseId)!)
    expect(agentResults.map((r) => r.isError)).toEqual([true, true, true, true])
    expect(String(agentResults[0]!.output)).toContain(
      "No teammate host named 'nowhere': the teammateHosts setting has 'box', 'gpu'."
    )
    expect(String(agentResults[1]!.output)).toMatch(
      /needs the team on a NATS JetStream transport.*this team is on files/
    )
    expect(String(agentResults[2]!.output)).toMatch(/runs on the process backend; a worker thread runs only here/)
    // only a teammate runs on a host: without a name it is no subagent started here instead
    expect(String(agentResults[3]!.output)).toContain('`host` goes with `name`')
    expect(ofType(run.events, 'agent_started').filter((e) => e.agentId === 'ann@crew')).toEqual([])
    expect(ofType(run.events, 'agent_started').filter((e) => e.agentId !== 'team-lead')).toEqual([])
  }, 60_000)
})
