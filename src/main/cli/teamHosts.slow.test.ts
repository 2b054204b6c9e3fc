import { execFileSync } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { RuntimeEvent } from '../../shared/events'
import { openTeamStore, parseTeamTransport } from '../runtime/teamStore'
import { NATS_SERVER, startNatsServer, type NatsServer } from '../runtime/teamStore/natsServer.testkit'
import {
  startTestHost,
  stopAllTestHosts,
  testHostsUnavailable,
  type TestHost
} from '../runtime/teammates/ssh/testHost.testkit'
import { ofType, parseEvents, runCli, startCli, SWARMDESK_BIN, useTempWorkspace } from './cli.testkit'

// Teammates on other hosts over SSH (docs/hosts.md): each host a network namespace with its own
// address, a mount namespace where the leader's data directory and repository do not exist, and
// an sshd on a key made for the test. The leader (`swarmdesk run --team-transport nats://…`)
// spawns a teammate on each; they commit there; their branches come back to the leader's repository.

const unavailable = testHostsUnavailable() ?? (NATS_SERVER ? undefined : 'nats-server is not installed')
if (unavailable) console.warn(`skipping the teammate host tests: ${unavailable}`)

const ws = useTempWorkspace(({ work }) => {
  writeFileSync(join(work, 'README.md'), 'the project\n')
  execFileSync('git', ['add', '.'], { cwd: work })
  execFileSync('git', ['-c', 'user.name=lead', '-c', 'user.email=lead@example.com', 'commit', '-qm', 'start'], {
    cwd: work
  })
})

/** The `teammateHosts` entry of a test host: its key, its known host key, this checkout's CLI. */
function hostSetting(name: string, host: TestHost): Record<string, unknown> {
  return {
    name,
    destination: host.destination,
    workspace: host.workspaceRoot,
    command: `${process.execPath} ${SWARMDESK_BIN}`,
    identityFile: host.identityFile,
    sshOptions: [`UserKnownHostsFile=${host.knownHostsFile}`, 'StrictHostKeyChecking=yes', 'ConnectTimeout=10']
  }
}

const commitAndSay = (who: string, file: string) => `
  ${who}:
    - when: "Write ${file}"
      tools:
        - { name: Bash, input: { command: "echo from-${who} > ${file} && git add ${file} && git -c user.name=${who} -c user.email=${who}@example.com commit -qm '${who}: ${file}' && echo ON && hostname -I" } }
    - tools: [ { name: SendMessage, input: { to: team-lead, message: "${who} committed ${file}", summary: "${who} committed" } } ]
    - when: 'type="shutdown_request"'
      tools: [ { name: SendMessage, input: { to: team-lead, message: { type: shutdown_response, request_id: "{{request_id}}", approve: true } } } ]
${'    - { text: "Done." }\n'.repeat(6)}`

const scenario = `
agents:
  team-lead:
    - tools: [ { name: TeamCreate, input: { team_name: crew } } ]
    - tools:
        - { name: Agent, input: { name: ann, host: hosta, mode: bypassPermissions, description: "writer a", prompt: "Write a.txt and commit it." } }
        - { name: Agent, input: { name: bob, host: hostb, mode: bypassPermissions, description: "writer b", prompt: "Write b.txt and commit it." } }
    - text: "Both are at work."
    - when: "ann committed"
      tools: [ { name: SendMessage, input: { to: ann, message: { type: shutdown_request, reason: "Thanks." } } } ]
    - when: "bob committed"
      tools: [ { name: SendMessage, input: { to: bob, message: { type: shutdown_request, reason: "Thanks." } } } ]
    - when: "Its work is now on branch swarmdesk/crew/ann"
      text: "Seen ann's branch."
    - when: "Its work is now on branch swarmdesk/crew/bob"
      text: "Seen bob's branch."
${'    - { text: "Noted." }\n'.repeat(12)}${commitAndSay('ann', 'a.txt')}${commitAndSay('bob', 'b.txt')}`

describe.skipIf(unavailable !== undefined)('teammates on other hosts over SSH (docs/hosts.md)', () => {
  let server: NatsServer
  beforeAll(async () => {
    server = await startNatsServer()
  }, 60_000)
  afterEach(async () => {
    await stopAllTestHosts()
  })
  afterAll(async () => {
    await server?.stop()
  })

  it('runs a teammate on each of two hosts; their commits come back to the leader as branches; nothing is left running', async () => {
    const { home, work } = ws
    const [a, b] = await Promise.all([startTestHost({ hide: [home, work] }), startTestHost({ hide: [home, work] })])
    const settings = join(work, '..', `hosts-${a!.ns}.json`)
    writeFileSync(settings, JSON.stringify({ teammateHosts: [hostSetting('hosta', a!), hostSetting('hostb', b!)] }))
    const file = join(work, '..', `hosts-${a!.ns}.yaml`)
    writeFileSync(file, scenario)
    const run = await runCli(
      [
        'run',
        '--cwd',
        work,
        '--scenario',
        file,
        '--settings',
        settings,
        '--approve',
        'all',
        '--json',
        '--team-transport',
        server.url,
        'Write'
      ],
      { env: { SWARMDESK_HOME: home } }
    )
    const diagnose = `${run.stderr}\n${run.stdout.slice(-4000)}\n--- host a sshd:\n${a!.log().slice(-2000)}`
    expect(run.code, diagnose).toBe(0)
    for (const [who, host, fileName] of [
      ['ann', a!, 'a.txt'],
      ['bob', b!, 'b.txt']
    ] as const) {
      const mine = (e: RuntimeEvent) => e.agentId === `${who}@crew`
      expect(ofType(run.events, 'agent_started').find(mine), diagnose).toMatchObject({
        backend: 'process',
        host: who === 'ann' ? 'hosta' : 'hostb'
      })
      // its Bash ran on its host (its address), and the leader saw that over the server
      const bash = ofType(run.events, 'tool_call').find((e) => mine(e) && e.name === 'Bash')
      expect(bash, diagnose).toBeDefined()
      const result = ofType(run.events, 'tool_result').find((e) => e.toolUseId === bash!.toolUseId)
      expect(String(result?.output)).toContain(host.address)
      expect(ofType(run.events, 'agent_stopped').find(mine)).toMatchObject({ status: 'exited' })
      // its commit is on its branch in the leader's repository, reported
      const log = execFileSync('git', ['log', '--format=%s', `swarmdesk/crew/${who}`], { cwd: work, encoding: 'utf8' })
      expect(log.split('\n').slice(0, 2)).toEqual([`${who}: ${fileName}`, 'start'])
      const notice = ofType(run.events, 'notice').find((e) => mine(e) && e.message.includes('Its work is on branch'))
      expect(notice?.message).toContain(`swarmdesk/crew/${who} in ${work}: 1 commit over`)
      // and the leader was told, in the teammate's name: the message is in its inbox on the server
      // (whether its model still read it depends on when the teammate ended: one shut down by the
      // run's end, after the leader's last turn, is only reported)
      const store = await openTeamStore(home, parseTeamTransport(server.url))
      try {
        const inbox = await store.mailbox.read('crew', 'team-lead')
        expect(
          inbox
            .map((e) => e.message)
            .find((m) => m.from === who && m.text.includes(`Its work is now on branch swarmdesk/crew/${who}`)),
          diagnose
        ).toBeDefined()
      } finally {
        await store.close()
      }
      // its clone, committed and clean, is gone from the host
      const clone = await host.ssh(`test -e ${host.workspaceRoot}/crew/${who} && echo KEPT || echo GONE`)
      expect(clone.stdout.trim()).toBe('GONE')
      // the leader's checkout did not change
      expect(execFileSync('git', ['status', '--porcelain'], { cwd: work, encoding: 'utf8' })).not.toContain(fileName)
      // (the sshd of the test's own ssh just above ends a moment after its client)
      const until = Date.now() + 30_000
      while (host.leftovers().length && Date.now() < until) await new Promise((r) => setTimeout(r, 300))
      expect(host.leftovers(), host.describeLeftovers()).toEqual([])
    }
  }, 240_000)

  it("makes a teammate whose host's network is cut crashed within the liveness bound and returns its task", async () => {
    const { home, work } = ws
    const host = await startTestHost({ hide: [home, work] })
    const settings = join(work, '..', `hosts-${host.ns}.json`)
    writeFileSync(settings, JSON.stringify({ teammateHosts: [hostSetting('hostc', host)] }))
    const file = join(work, '..', `hosts-${host.ns}.yaml`)
    writeFileSync(file, cutScenario)
    const child = startCli(
      [
        'run',
        '--cwd',
        work,
        '--scenario',
        file,
        '--settings',
        settings,
        '--approve',
        'all',
        '--json',
        '--team-transport',
        server.url,
        'Long'
      ],
      { env: { SWARMDESK_HOME: home } }
    )
    let stdout = ''
    let stderr = ''
    let cutAt: number | undefined
    let stoppedAt: number | undefined
    const carl = (e: RuntimeEvent) => e.agentId === 'carl@cutoff'
    child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()))
    child.stdout!.on('data', (d: Buffer) => {
      stdout += d.toString()
      const lines = stdout.split('\n').slice(0, -1).join('\n')
      const events = parseEvents(lines)
      // carl is in the middle of its Bash on the host: cut the host off
      if (cutAt === undefined && ofType(events, 'tool_call').some((e) => carl(e) && e.name === 'Bash')) {
        host.cut()
        cutAt = Date.now()
      }
      if (stoppedAt === undefined && ofType(events, 'agent_stopped').some(carl)) stoppedAt = Date.now()
    })
    child.stdin!.end()
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve))
    const events = parseEvents(stdout)
    const diagnose = `${stderr}\n${stdout.slice(-4000)}`
    expect(code, diagnose).toBe(0)
    expect(cutAt, diagnose).toBeDefined()
    const stopped = ofType(events, 'agent_stopped').find(carl)
    expect(stopped, diagnose).toMatchObject({ status: 'crashed' })
    expect(stopped!.reason).toMatch(/heartbeat stopped: host 'hostc'/)
    // the store's bound (6 s) plus a beat, with room for a loaded machine: not ssh's keep-alive, not minutes
    expect(stoppedAt! - cutAt!).toBeLessThan(30_000)
    // its task is back on the list: the leader's TaskList after the crash shows it pending, unowned
    const results = new Map(ofType(events, 'tool_result').map((e) => [e.toolUseId, String(e.output)]))
    const list = ofType(events, 'tool_call').find((e) => e.agentId === 'team-lead' && e.name === 'TaskList')
    expect(results.get(list!.toolUseId)).toMatch(/#1 \[pending\] Long job(?! \()/)
    // its commits stay on the host, and it says so
    expect(ofType(events, 'notice').some((e) => carl(e) && e.message.includes('stay on host'))).toBe(true)
    // nothing of it outlives the cut on the host either: sshd drops the silent connection, the hang-up ends it
    const until = Date.now() + 60_000
    while (host.leftovers().length && Date.now() < until) await new Promise((r) => setTimeout(r, 500))
    expect(host.leftovers(), host.describeLeftovers()).toEqual([])
  }, 240_000)
})

const cutScenario = `
agents:
  team-lead:
    - tools: [ { name: TeamCreate, input: { team_name: cutoff } } ]
    - tools: [ { name: TaskCreate, input: { subject: "Long job", description: "Run the long job." } } ]
    - tools:
        - { name: Agent, input: { name: carl, host: hostc, mode: bypassPermissions, description: "long job", prompt: "Take task 1." } }
    - text: "carl is at work."
    - when: "carl crashed"
      tools: [ { name: TaskList, input: {} } ]
    - when: "[pending] Long job"
      tools: [ { name: TeamDelete, input: {} } ]
    - when: "deleted"
      text: "The team is gone."
${'    - { text: "Noted." }\n'.repeat(12)}
  carl:
    - when: "Take task 1"
      tools: [ { name: TaskUpdate, input: { taskId: "1", status: in_progress, owner: carl } } ]
    - tools: [ { name: Bash, input: { command: "echo WORKING && sleep 300" } } ]
${'    - { text: "Done." }\n'.repeat(4)}`
