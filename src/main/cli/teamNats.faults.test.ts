import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { findPidsWithEnv, isProcessAlive } from '../runtime/processes'
import { openTeamStore, type TeamStorePort } from '../runtime/teamStore'
import { startNatsServer, type NatsServer } from '../runtime/teamStore/natsServer.testkit'
import { runCli, startCli, useTempWorkspace } from './cli.testkit'
import { collectEvents, exited, psRows, waitFor } from './teamNats.testkit'

// Faults during a team run on NATS JetStream (docs/nats.md#tests): real `swarmdesk run
// --team-transport` leaders, real `process` teammates with data directories of their own, a real
// nats-server, and `kill -9`.

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

/** Two teammates that each claim a task, say so to the leader, then sit in a long command. */
const holdScenario = (sleep: string): string => `
agents:
  team-lead:
    - tools: [ { name: TeamCreate, input: { team_name: hold } } ]
    - tools: [ { name: TaskCreate, input: { subject: "Task A", description: "Hold it." } } ]
    - tools: [ { name: TaskCreate, input: { subject: "Task B", description: "Hold it." } } ]
    - tools: [ { name: Agent, input: { name: ann, backend: process, mode: bypassPermissions, description: "a", prompt: "Claim a task." } } ]
    - tools: [ { name: Agent, input: { name: bob, backend: process, mode: bypassPermissions, description: "b", prompt: "Claim a task." } } ]
    - text: "Both at work."
${'    - { text: "Noted." }\n'.repeat(12)}
  '*':
    - when: "Claim a task"
      text: "Ready."
    - when: "Hold it"
      tools: [ { name: SendMessage, input: { to: team-lead, message: "{{agent_name}} holds its task", summary: "holding" } } ]
    - tools: [ { name: Bash, input: { command: "sleep ${sleep}" } } ]
${'    - { text: "Done." }\n'.repeat(6)}`

/** Two teammates that work through six tasks, each with four notes to the leader and a completion. */
const burstScenario = `
agents:
  team-lead:
    - tools: [ { name: TeamCreate, input: { team_name: burst } } ]
${[1, 2, 3, 4, 5, 6].map((n) => `    - tools: [ { name: TaskCreate, input: { subject: "Job ${n}", description: "Burst job." } } ]\n`).join('')}\
    - tools: [ { name: Agent, input: { name: ann, backend: process, mode: bypassPermissions, description: "a", prompt: "Claim tasks." } } ]
    - tools: [ { name: Agent, input: { name: bob, backend: process, mode: bypassPermissions, description: "b", prompt: "Claim tasks." } } ]
    - text: "Both at work."
${'    - { text: "Noted." }\n'.repeat(80)}
  '*':
    - when: "Claim tasks"
      text: "Ready."
${'    - when: "Burst job"\n      tools:\n'
  .concat(
    [1, 2, 3, 4]
      .map(
        (k) =>
          `        - { name: SendMessage, input: { to: team-lead, message: "{{agent_name}} job {{request_id}} note ${k}", summary: "note" } }\n`
      )
      .join(''),
    '        - { name: TaskUpdate, input: { taskId: "{{request_id}}", status: completed } }\n'
  )
  .repeat(6)}\
    - when: 'type="shutdown_request"'
      tools: [ { name: SendMessage, input: { to: team-lead, message: { type: shutdown_response, request_id: "{{request_id}}", approve: true } } } ]
${'    - { text: "Done." }\n'.repeat(20)}`

describe('faults during a team run on NATS JetStream (docs/nats.md#tests)', () => {
  it('kill -9 of a teammate then of the leader: every teammate process goes, the claims and acknowledged messages stay, once each', async () => {
    const { home, work } = ws
    const mateHome = mkdtempSync(join(tmpdir(), 'swarmdesk-mate-home-'))
    const sleep = '293.17'
    const file = join(work, '..', 'hold.yaml')
    writeFileSync(file, holdScenario(sleep))
    const leader = startCli(
      ['run', '--cwd', work, '--scenario', file, '--approve', 'all', '--json', '--team-transport', server.url, 'Go'],
      { env: { SWARMDESK_HOME: home, SWARMDESK_TEAMMATE_HOME: mateHome } }
    )
    const run = collectEvents(leader)
    try {
      // both teammates hold a task, have said so, and sit in their command
      const sleepers = () => psRows().filter((r) => r.args === `sleep ${sleep}`)
      await waitFor('both teammates in their command', () => (sleepers().length === 2 ? true : undefined), 90_000)
      const teammates = () =>
        psRows().filter((r) => !r.args.startsWith('bash') && / teammate --team hold --name (ann|bob) /.test(r.args))
      const bob = teammates().find((r) => r.args.includes('--name bob'))!
      expect(teammates()).toHaveLength(2)
      expect(findPidsWithEnv('SWARMDESK_HOME', mateHome).length).toBeGreaterThanOrEqual(4)

      // a teammate killed: the leader sees it end, marks it inactive and puts its task back
      process.kill(bob.pid, 'SIGKILL')
      const bobsTask = await waitFor('bob reaped', async () => {
        const config = await store.config.read('hold')
        if (config.members.find((m) => m.name === 'bob')?.isActive !== false) return undefined
        const tasks = await store.tasks.list('hold')
        return tasks.every((t) => t.owner !== 'bob') ? tasks.find((t) => t.status === 'pending') : undefined
      })
      expect(bobsTask).toMatchObject({ status: 'pending' })
      expect(bobsTask!.owner).toBeUndefined()
      expect(run.events.find((e) => e.type === 'agent_stopped' && e.agentId === 'bob@hold')).toMatchObject({
        status: 'crashed'
      })
      await waitFor('bob’s processes gone', () =>
        psRows().some((r) => r.pid === bob.pid) || sleepers().length !== 1 ? undefined : true
      )

      // the leader killed: ann's process group, her command included, goes with it
      const annRows = psRows().filter((r) => r.pgid === teammates()[0]!.pgid)
      expect(annRows.length).toBeGreaterThanOrEqual(1)
      const annTagged = findPidsWithEnv('SWARMDESK_HOME', mateHome)
      leader.kill('SIGKILL')
      await exited(leader)
      await waitFor(
        'every teammate process gone',
        () => {
          const pids = new Set(psRows().map((r) => r.pid))
          const left = [...annRows.map((r) => r.pid), ...annTagged].filter((pid) => pids.has(pid))
          return left.length === 0 && teammates().length === 0 && sleepers().length === 0 ? true : undefined
        },
        30_000
      )
      expect(findPidsWithEnv('SWARMDESK_HOME', mateHome).filter(isProcessAlive)).toEqual([])
      expect(findPidsWithEnv('SWARMDESK_HOME', home).filter(isProcessAlive)).toEqual([])

      // nothing acknowledged is lost or doubled: ann's claim stands, one message from each
      const tasks = await store.tasks.list('hold')
      expect(tasks.map((t) => t.id)).toEqual([1, 2])
      expect(tasks.filter((t) => t.status === 'in_progress').map((t) => t.owner)).toEqual(['ann'])
      const inbox = (await store.mailbox.read('hold', 'team-lead')).map((s) => s.message)
      expect(new Set(inbox.map((m) => m.id)).size).toBe(inbox.length)
      expect(
        inbox
          .filter((m) => m.text.endsWith('holds its task'))
          .map((m) => m.from)
          .sort()
      ).toEqual(['ann', 'bob'])
    } finally {
      leader.kill('SIGKILL')
      rmSync(mateHome, { recursive: true, force: true })
    }
    expect(run.stderr()).toBe('')
  }, 180_000)

  it('kill -9 of nats-server mid-burst, restarted on its store: the run completes, every acknowledged message stored once, every task done by one teammate', async () => {
    const { home, work } = ws
    const mateHome = mkdtempSync(join(tmpdir(), 'swarmdesk-mate-home-'))
    const file = join(work, '..', 'burst.yaml')
    writeFileSync(file, burstScenario)
    const notes = async () =>
      (await store.mailbox.read('burst', 'team-lead').catch(() => [])).filter((s) => / note \d$/.test(s.message.text))
    try {
      const running = runCli(
        ['run', '--cwd', work, '--scenario', file, '--approve', 'all', '--json', '--team-transport', server.url, 'Go'],
        { env: { SWARMDESK_HOME: home, SWARMDESK_TEAMMATE_HOME: mateHome } }
      )
      await waitFor('the burst under way', async () => ((await notes()).length >= 2 ? true : undefined), 90_000)
      // the server goes in the middle of the burst (24 notes in all), and comes back on its store and port
      expect((await notes()).length).toBeLessThan(24)
      await server.kill9()
      await new Promise((r) => setTimeout(r, 500))
      await server.restart()
      const run = await running
      expect(run.stderr).toBe('')
      expect(run.code).toBe(0)
      expect(run.events.at(-1)).toMatchObject({ type: 'run_finished', status: 'ok' })

      // every task done, by one teammate, whose four notes are each stored exactly once
      const tasks = await store.tasks.list('burst')
      expect(tasks.map((t) => [t.id, t.status])).toEqual([1, 2, 3, 4, 5, 6].map((id) => [id, 'completed']))
      const stored = (await notes()).map((s) => s.message)
      expect(new Set(stored.map((m) => m.id)).size).toBe(stored.length)
      const byJob = new Map<string, string[]>()
      for (const m of stored) {
        const [, who, job, k] = /^(\w+) job (\d+) note (\d)$/.exec(m.text)!
        expect(who).toBe(m.from)
        byJob.set(job!, [...(byJob.get(job!) ?? []), `${who} ${k}`])
      }
      expect([...byJob.keys()].sort()).toEqual(['1', '2', '3', '4', '5', '6'])
      for (const [job, got] of byJob) {
        const who = got[0]!.split(' ')[0]
        expect(got, `job ${job}`).toEqual([1, 2, 3, 4].map((k) => `${who} ${k}`))
        expect(tasks.find((t) => String(t.id) === job)?.owner).toBe(who)
      }
      expect(findPidsWithEnv('SWARMDESK_HOME', mateHome).filter(isProcessAlive)).toEqual([])
    } finally {
      rmSync(mateHome, { recursive: true, force: true })
    }
  }, 240_000)
})
