import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { RuntimeEvent } from '../../shared/events'
import { startNatsServer, type NatsServer } from '../runtime/teamStore/natsServer.testkit'
import { ofType, runCli, useTempWorkspace } from './cli.testkit'

// A `process` teammate's events on a server (docs/nats.md#a-teammates-events) show on the leader's
// stream as they do on files: each permission question once, decided once — not a second copy of
// each from the teammate's own bus; each change of its state once, in order (the leader's
// `starting`, `stopping` and `exited` with the states it reports itself).

const ws = useTempWorkspace()
let server: NatsServer
beforeAll(async () => {
  server = await startNatsServer()
}, 60_000)
afterAll(async () => {
  await server?.stop()
})

const scenarioOf = (team: string) => `
agents:
  team-lead:
    - tools: [ { name: TeamCreate, input: { team_name: ${team} } } ]
    - tools: [ { name: Agent, input: { name: sam, backend: process, description: "w", prompt: "Write the notes." } } ]
    - text: "sam writes."
${'    - { text: "Noted." }\n'.repeat(8)}
  sam:
    - when: "Write the notes"
      tools: [ { name: Write, input: { file_path: "{{cwd}}/notes.txt", content: "notes\\n" } } ]
    - text: "Wrote notes.txt."
${'    - { text: "Bye." }\n'.repeat(4)}
`

describe("a process teammate's events on JetStream", () => {
  it('its permission question is asked and decided once', async () => {
    const file = join(ws.home, 'once.yaml')
    writeFileSync(file, scenarioOf('once'))
    const run = await runCli(
      ['run', '--cwd', ws.work, '--scenario', file, '--approve', 'all', '--json', '--team-transport', server.url, 'Go'],
      { env: { SWARMDESK_HOME: ws.home } }
    )
    expect(run.stderr).toBe('')
    expect(run.code).toBe(0)
    const sam = (e: RuntimeEvent) => e.agentId === 'sam@once'
    const asked = ofType(run.events, 'permission_request').filter(sam)
    expect(asked.map((e) => e.tool)).toEqual(['Write'])
    expect(ofType(run.events, 'permission_decided').filter(sam)).toEqual([
      expect.objectContaining({ requestId: asked[0]!.requestId, decision: 'allow', by: 'approve-flag' })
    ])
  }, 120_000)

  it('its states show once each, in order', async () => {
    const file = join(ws.home, 'states.yaml')
    writeFileSync(file, scenarioOf('inorder'))
    const run = await runCli(
      ['run', '--cwd', ws.work, '--scenario', file, '--approve', 'all', '--json', '--team-transport', server.url, 'Go'],
      { env: { SWARMDESK_HOME: ws.home } }
    )
    expect(run.stderr).toBe('')
    expect(run.code).toBe(0)
    const states = ofType(run.events, 'agent_state')
      .filter((e) => e.agentId === 'sam@inorder')
      .map((e) => e.state)
    // no `running` of the turn answering the shutdown request after the leader's `stopping`
    expect(states).toEqual(['starting', 'running', 'awaiting_permission', 'running', 'idle', 'stopping', 'exited'])
  }, 120_000)
})
