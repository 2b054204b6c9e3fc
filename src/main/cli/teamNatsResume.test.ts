import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { RuntimeEvent } from '../../shared/events'
import { openTeamStore, type TeamStorePort } from '../runtime/teamStore'
import { startNatsServer, type NatsServer } from '../runtime/teamStore/natsServer.testkit'
import { ofType, runCli, runCliText, startCli, useTempWorkspace } from './cli.testkit'
import { collectEvents, exited, onlySessionId, psRows, waitFor } from './teamNats.testkit'

// `swarmdesk run --resume` leads its team on NATS JetStream again (docs/nats.md#the-leader-lease):
// a leader killed with -9 mid-run, resumed with the same session id, takes its lease over, spawns a
// teammate into the same team and hands it work; the teammate of the killed run went with it.

const ws = useTempWorkspace()
let server: NatsServer
let store: TeamStorePort
beforeAll(async () => {
  server = await startNatsServer()
  store = await openTeamStore('/nonexistent', { kind: 'nats', servers: [server.url] })
}, 60_000)
afterAll(async () => {
  await store?.close()
  await server?.stop()
})

const first = `
agents:
  team-lead:
    - tools: [ { name: TeamCreate, input: { team_name: again } } ]
    - tools: [ { name: Agent, input: { name: ann, backend: process, mode: bypassPermissions, description: "a", prompt: "Sit tight." } } ]
    - text: "ann sits."
${'    - { text: "Noted." }\n'.repeat(8)}
  ann:
    - when: "Sit tight"
      tools: [ { name: Bash, input: { command: "sleep 297.31" } } ]
${'    - { text: "Done." }\n'.repeat(4)}`

const second = `
agents:
  team-lead:
    - tools: [ { name: TaskCreate, input: { subject: "Finish it", description: "Finish job." } } ]
    - tools: [ { name: Agent, input: { name: cy, backend: process, mode: bypassPermissions, description: "c", prompt: "Claim a task." } } ]
    - text: "cy at work."
    - when: "cy finished"
      tools: [ { name: TaskList, input: {} } ]
${'    - { text: "Noted." }\n'.repeat(10)}
  cy:
    - when: "Claim a task"
      text: "Ready."
    - when: "Finish job"
      tools:
        - { name: TaskUpdate, input: { taskId: "{{request_id}}", status: completed } }
        - { name: SendMessage, input: { to: team-lead, message: "cy finished", summary: "done" } }
    - when: 'type="shutdown_request"'
      tools: [ { name: SendMessage, input: { to: team-lead, message: { type: shutdown_response, request_id: "{{request_id}}", approve: true } } } ]
${'    - { text: "Done." }\n'.repeat(6)}`

describe('--resume leads its JetStream team again (docs/nats.md#the-leader-lease)', () => {
  it('a leader killed with -9, resumed, takes its lease over and spawns and messages teammates of its team; team list/delete on the server', async () => {
    const { home, work } = ws
    const mateHome = mkdtempSync(join(tmpdir(), 'swarmdesk-mate-home-'))
    const env = { SWARMDESK_HOME: home, SWARMDESK_TEAMMATE_HOME: mateHome }
    const transport = ['--team-transport', server.url]
    try {
      writeFileSync(join(work, '..', 'first.yaml'), first)
      writeFileSync(join(work, '..', 'second.yaml'), second)
      const leader = startCli(
        [
          'run',
          '--cwd',
          work,
          '--scenario',
          join(work, '..', 'first.yaml'),
          '--approve',
          'all',
          '--json',
          ...transport,
          'Go'
        ],
        { env }
      )
      const run1 = collectEvents(leader)
      await waitFor(
        'ann in her command',
        () => (psRows().some((r) => r.args === 'sleep 297.31') ? true : undefined),
        90_000
      )
      const lease = await store.leader!.status('again')
      expect(lease).toMatchObject({ state: 'alive', lease: { pid: leader.pid } })
      const sessionId = onlySessionId(home, work)!
      expect(lease.lease?.sessionId).toBe(sessionId)
      // a live leader's team is not stale: `team delete` refuses it
      const refused = await runCliText(['team', 'delete', '--team', 'again', ...transport], env)
      expect(refused.code).toBe(1)
      expect(refused.stderr).toMatch(
        new RegExp(`'again' is led by session ${sessionId}, alive in process ${leader.pid}`)
      )
      leader.kill('SIGKILL')
      await exited(leader)
      await waitFor('ann gone', () => (psRows().some((r) => r.args === 'sleep 297.31') ? undefined : true), 30_000)
      expect(run1.stderr()).toBe('')

      const resumed = await runCli(
        [
          'run',
          '--cwd',
          work,
          '--scenario',
          join(work, '..', 'second.yaml'),
          '--approve',
          'all',
          '--json',
          ...transport,
          '--resume',
          sessionId,
          'Carry on'
        ],
        { env }
      )
      expect(resumed.stderr).toBe('')
      expect(resumed.code).toBe(0)
      // no word of a refused lease: this session leads 'again'
      expect(ofType(resumed.events, 'notice').filter((n) => /lead it again|gone from/.test(n.message))).toEqual([])
      const cy = (e: RuntimeEvent) => e.agentId === 'cy@again'
      expect(ofType(resumed.events, 'agent_started').find(cy)).toMatchObject({ backend: 'process' })
      expect(ofType(resumed.events, 'message_sent').filter((e) => e.kind === 'shutdown_approved')).toEqual([
        expect.objectContaining({ from: 'cy', to: 'team-lead' })
      ])
      const results = new Map(ofType(resumed.events, 'tool_result').map((e) => [e.toolUseId, e.output]))
      const list = ofType(resumed.events, 'tool_call').find((e) => e.agentId === 'team-lead' && e.name === 'TaskList')!
      expect(results.get(list.toolUseId)).toMatch(/#1 \[completed\] Finish it/)
      // the same team: ann and cy members of it; the run's end gave the lease up
      const config = await store.config.read('again')
      expect(config.members.map((m) => m.name)).toEqual(['team-lead', 'ann', 'cy'])
      expect(await store.leader!.status('again')).toMatchObject({ state: 'stale', reason: /no leader session/ })
      // `team list` shows it stale, `team delete` removes it from the server
      const listed = await runCliText(['team', 'list', '--json', ...transport], env)
      expect(listed.code).toBe(0)
      expect(JSON.parse(listed.stdout)).toEqual([
        expect.objectContaining({
          name: 'again',
          leader: { state: 'stale', reason: expect.stringMatching(/no leader session/) }
        })
      ])
      const human = await runCliText(['team', 'list', ...transport], env)
      expect(human.stdout).toMatch(/^again\s+STALE, 3 members/m)
      const deleted = await runCliText(['team', 'delete', '--team', 'again', ...transport], env)
      expect(deleted.stderr).toBe('')
      expect(deleted.stdout).toMatch(/Deleted stale team 'again'/)
      await expect(store.config.read('again')).rejects.toThrow(/does not exist/)
      expect((await runCliText(['team', 'list', ...transport], env)).stdout).toMatch(
        /^No teams on .*nats:\/\/127\.0\.0\.1/
      )
    } finally {
      rmSync(mateHome, { recursive: true, force: true })
    }
  }, 180_000)
})
