import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { RuntimeEvent } from '../../shared/events'
import { openTeamStore } from '../runtime/teamStore'
import { startNatsServer, type NatsServer } from '../runtime/teamStore/natsServer.testkit'
import { ofType, runCli, useTempWorkspace } from './cli.testkit'

// A team on NATS JetStream end to end (docs/nats.md): the leader in `swarmdesk run --team-transport`,
// a `process` teammate with a data directory of its own (SWARMDESK_TEAMMATE_HOME), so nothing of
// the team can pass through files: the teammate claims and completes a task, messages the leader,
// and shuts down when asked; the leader's stream shows what the teammate did, from its published events.

const ws = useTempWorkspace()
let server: NatsServer
beforeAll(async () => {
  server = await startNatsServer()
}, 60_000)
afterAll(async () => {
  await server?.stop()
})

const scenario = `
agents:
  team-lead:
    - tools: [ { name: TeamCreate, input: { team_name: crew } } ]
    - tools: [ { name: TaskCreate, input: { subject: "Count the files", description: "Say how many files src/ holds." } } ]
    - tools:
        - { name: Agent, input: { name: ann, backend: process, mode: bypassPermissions, description: "counter", prompt: "Claim the task on the list." } }
    - text: "ann is at work."
    - when: "Task 1 is done"
      tools: [ { name: SendMessage, input: { to: ann, message: { type: shutdown_request, reason: "That is all, thanks." } } } ]
    - when: 'type="shutdown_approved"'
      tools: [ { name: TaskList, input: {} }, { name: TeamDelete, input: {} } ]
    - when: "deleted"
      text: "The team is gone."
${'    - { text: "Noted." }\n'.repeat(10)}
  ann:
    - when: "Claim the task"
      text: "Ready."
    - when: "Count the files"
      tools:
        - { name: TaskUpdate, input: { taskId: "1", status: completed } }
        - { name: SendMessage, input: { to: team-lead, message: "Task 1 is done: no files.", summary: "task 1 done" } }
    - when: 'type="shutdown_request"'
      tools: [ { name: SendMessage, input: { to: team-lead, message: { type: shutdown_response, request_id: "{{request_id}}", approve: true } } } ]
${'    - { text: "Done." }\n'.repeat(6)}`

describe('a team on NATS JetStream (docs/nats.md)', () => {
  it('runs a process teammate with its own data directory through a task, a message and a shutdown, with no team files anywhere', async () => {
    const { home, work } = ws
    const mateHome = mkdtempSync(join(tmpdir(), 'swarmdesk-mate-home-'))
    try {
      const file = join(work, '..', 'nats-team.yaml')
      writeFileSync(file, scenario)
      const run = await runCli(
        [
          'run',
          '--cwd',
          work,
          '--scenario',
          file,
          '--approve',
          'all',
          '--json',
          '--team-transport',
          server.url,
          'Count'
        ],
        { env: { SWARMDESK_HOME: home, SWARMDESK_TEAMMATE_HOME: mateHome } }
      )
      expect(run.stderr).toBe('')
      expect(run.code).toBe(0)
      const ann = (e: RuntimeEvent) => e.agentId === 'ann@crew'
      expect(ofType(run.events, 'agent_started').find(ann)).toMatchObject({ backend: 'process' })
      // what ann did reached the leader's stream over the server: her task claimed and completed
      const completed = ofType(run.events, 'tool_call').find(
        (e) => ann(e) && e.name === 'TaskUpdate' && (e.input as { status?: string }).status === 'completed'
      )
      expect(completed).toBeDefined()
      const leaderResults = new Map(ofType(run.events, 'tool_result').map((e) => [e.toolUseId, e.output]))
      const leaderCall = (name: string) =>
        ofType(run.events, 'tool_call').find((e) => e.agentId === 'team-lead' && e.name === name)!
      expect(leaderResults.get(leaderCall('TaskList').toolUseId)).toMatch(/#1 \[completed\] Count the files/)
      expect(leaderResults.get(leaderCall('TeamDelete').toolUseId)).toContain("Team 'crew' deleted")
      expect(ofType(run.events, 'message_sent').filter((e) => e.kind === 'shutdown_approved')).toEqual([
        expect.objectContaining({ from: 'ann', to: 'team-lead' })
      ])
      expect(ofType(run.events, 'agent_stopped').find(ann)).toMatchObject({ status: 'exited' })
      expect(run.events.at(-1)).toMatchObject({ type: 'run_finished', status: 'ok' })
      // nothing of the team in either data directory; ann's transcript is in hers
      for (const dir of [home, mateHome]) {
        expect(existsSync(join(dir, 'teams'))).toBe(false)
        expect(existsSync(join(dir, 'tasks'))).toBe(false)
      }
      expect(readdirSync(mateHome)).toContain('projects')
      // and the team is gone from the server
      const store = await openTeamStore(home, { kind: 'nats', servers: [server.url] })
      await expect(store.config.read('crew')).rejects.toThrow(/does not exist/)
      await store.close()
    } finally {
      rmSync(mateHome, { recursive: true, force: true })
    }
  }, 120_000)
})
