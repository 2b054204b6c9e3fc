import { existsSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { RuntimeEvent } from '../../shared/events'
import { ofType, runCli, useTempWorkspace } from './cli.testkit'

// When a headless team run ends (docs/events.md#event-stream-and-command-line, docs/scenarios.md#scripted-model-scenarios): only once nothing of either backend is in flight,
// and never later than the point where only an answer no one in the run can give would help.

const ws = useTempWorkspace()

type Backend = 'worker' | 'process'

/**
 * Three rounds of ping-pong: the leader pings bob, bob thinks (`delayMs` on each of its turns:
 * its model request is in flight all that time) and pongs back, the leader pings again.
 */
const pingPong = (backend: Backend): string => `
agents:
  team-lead:
    - tools: [ { name: TeamCreate, input: { team_name: pp } } ]
    - tools: [ { name: Agent, input: { name: bob, backend: ${backend}, description: "ponger", prompt: "ping 1" } } ]
    - text: "bob started."
    - when: "pong 1"
      tools: [ { name: SendMessage, input: { to: bob, message: "ping 2", summary: "ping 2" } } ]
    - when: "pong 2"
      tools: [ { name: SendMessage, input: { to: bob, message: "ping 3", summary: "ping 3" } } ]
    - when: "pong 3"
      text: "All three rounds played."
${'    - { text: "Noted." }\n'.repeat(10)}
  bob:
${[1, 2, 3]
  .map(
    (n) => `    - when: "ping ${n}"
      delayMs: 900
      tools: [ { name: SendMessage, input: { to: team-lead, message: "pong ${n}", summary: "pong ${n}" } } ]
    - when: "Message sent"
      delayMs: 400
      text: "pong ${n} sent."`
  )
  .join('\n')}
${'    - { text: "Bye." }\n'.repeat(4)}
`

/** A plan-required teammate whose plan the leader's script never answers. */
const unansweredPlan = (backend: Backend): string => `
agents:
  team-lead:
    - tools: [ { name: TeamCreate, input: { team_name: pl } } ]
    - tools: [ { name: Agent, input: { name: pat, mode: plan, backend: ${backend}, description: "planner", prompt: "Plan the change, then write notes.txt." } } ]
    - text: "pat is planning."
${'    - { text: "Noted." }\n'.repeat(6)}
  pat:
    - delayMs: 300
      tools: [ { name: ExitPlanMode, input: { plan: "1. Write notes.txt" } } ]
${'    - { text: "Done." }\n'.repeat(4)}
`

/** A default-mode teammate whose command needs a permission nobody grants (`--approve none`, or `ask` with no TTY). */
const deniedCommand = (backend: Backend, team: string): string => `
agents:
  team-lead:
    - tools: [ { name: TeamCreate, input: { team_name: ${team} } } ]
    - tools: [ { name: Agent, input: { name: dee, backend: ${backend}, description: "maker", prompt: "Make the folder." } } ]
    - text: "dee is at work."
${'    - { text: "Noted." }\n'.repeat(6)}
  dee:
    - tools: [ { name: Bash, input: { command: "mkdir made-by-dee" } } ]
    - when: "denied"
      tools: [ { name: SendMessage, input: { to: team-lead, message: "I was not allowed to make the folder.", summary: "not allowed" } } ]
    - text: "Reported."
${'    - { text: "Done." }\n'.repeat(4)}
`

function scenarioFile(text: string): string {
  const path = join(ws.home, 'scenario.yaml')
  writeFileSync(path, text)
  return path
}

const of = (name: string) => (e: RuntimeEvent) => e.agentName === name

describe.each(['process', 'worker'] as const)('a headless team run on the %s backend', (backend) => {
  it('waits for a teammate that thinks between messages: every round of a ping-pong is played before the team is shut down', async () => {
    const run = await runCli(
      [
        'run',
        '--cwd',
        ws.work,
        '--scenario',
        scenarioFile(pingPong(backend)),
        '--approve',
        'all',
        '--json',
        'Play ping-pong with bob'
      ],
      { env: { SWARMDESK_HOME: ws.home } }
    )
    expect(run.stderr).toBe('')
    expect(run.code).toBe(0)
    const sent = (name: string) =>
      ofType(run.events, 'tool_call')
        .filter((e) => of(name)(e) && e.name === 'SendMessage')
        .map((e) => (e.input as { message: string }).message)
    expect(sent('bob')).toEqual(['pong 1', 'pong 2', 'pong 3'])
    expect(sent('team-lead')).toEqual(['ping 2', 'ping 3'])
    expect(
      ofType(run.events, 'assistant_text')
        .filter(of('team-lead'))
        .map((e) => e.text)
    ).toContain('All three rounds played.')
    // the end-of-run shutdown request comes only after bob's last turn is over
    const lastPong = ofType(run.events, 'tool_call').findLast((e) => of('bob')(e) && e.name === 'SendMessage')!
    const lastWords = ofType(run.events, 'assistant_text').find((e) => of('bob')(e) && e.text === 'pong 3 sent.')!
    const stopping = ofType(run.events, 'agent_state').find((e) => of('bob')(e) && e.state === 'stopping')!
    expect(lastWords.seq).toBeGreaterThan(lastPong.seq)
    expect(stopping.seq).toBeGreaterThan(lastWords.seq)
    expect(ofType(run.events, 'agent_stopped').find(of('bob'))).toMatchObject({ status: 'exited' })
    expect(run.events.at(-1)).toMatchObject({ type: 'run_finished', status: 'ok' })
  }, 90_000)

  it('does not wait forever on a plan the leader leaves unanswered: it says who waits for what, shuts the team down and exits 1', async () => {
    const run = await runCli(
      [
        'run',
        '--cwd',
        ws.work,
        '--scenario',
        scenarioFile(unansweredPlan(backend)),
        '--approve',
        'all',
        '--json',
        'Have pat plan'
      ],
      { env: { SWARMDESK_HOME: ws.home } }
    )
    expect(run.code).toBe(1)
    const asked = ofType(run.events, 'tool_call').find((e) => of('pat')(e) && e.name === 'ExitPlanMode')
    expect(asked).toBeDefined()
    const [blocked, ...more] = ofType(run.events, 'run_blocked')
    expect(more).toHaveLength(0)
    expect(blocked).toMatchObject({
      agentName: 'team-lead',
      waits: [
        {
          agentId: 'pat@pl',
          agentName: 'pat',
          state: 'awaiting_plan_approval',
          waitsFor: 'team-lead',
          what: 'approval of its plan'
        }
      ]
    })
    expect(blocked!.waits[0]!.requestId).toMatch(/^plan-/)
    expect(blocked!.message).toContain(
      `pat waits for team-lead's approval of its plan (request ${blocked!.waits[0]!.requestId})`
    )
    // the team is shut down as at the end of any run: a shutdown request pat answers at once (no kill after the timeout)
    const stopping = ofType(run.events, 'agent_state').find((e) => of('pat')(e) && e.state === 'stopping')!
    expect(stopping.seq).toBeGreaterThan(blocked!.seq)
    expect(ofType(run.events, 'agent_stopped').find(of('pat'))).toMatchObject({ status: 'exited' })
    const finished = run.events.at(-1)
    expect(finished).toMatchObject({ type: 'run_finished', status: 'failed' })
    expect((finished as { reason?: string }).reason).toContain("pat waits for team-lead's approval of its plan")
  }, 90_000)

  it('never waits on a permission nobody grants: with no TTY, ask means none, the command is denied and the team goes on to the end', async () => {
    for (const [team, approve] of [
      ['pd-none', ['--approve', 'none']],
      ['pd-ask', []]
    ] as const) {
      const run = await runCli(
        [
          'run',
          '--cwd',
          ws.work,
          '--scenario',
          scenarioFile(deniedCommand(backend, team)),
          ...approve,
          '--json',
          'Have dee make a folder'
        ],
        { env: { SWARMDESK_HOME: ws.home } }
      )
      expect(run.stderr).toBe('')
      expect(run.code).toBe(0)
      expect(existsSync(join(ws.work, 'made-by-dee'))).toBe(false)
      expect(ofType(run.events, 'permission_request').filter(of('dee'))).toHaveLength(1)
      expect(ofType(run.events, 'permission_decided').filter(of('dee'))).toMatchObject([
        { decision: 'deny', by: 'approve-flag' }
      ])
      expect(ofType(run.events, 'tool_call').filter((e) => of('dee')(e) && e.name === 'SendMessage')).toHaveLength(1)
      expect(ofType(run.events, 'run_blocked')).toHaveLength(0)
      expect(run.events.at(-1)).toMatchObject({ type: 'run_finished', status: 'ok' })
    }
  }, 120_000)
})

describe('a headless team run in human mode', () => {
  it('says on stderr who waits for what when no one in the run can answer, and exits 1', async () => {
    const run = await runCli(
      [
        'run',
        '--cwd',
        ws.work,
        '--scenario',
        scenarioFile(unansweredPlan('process')),
        '--approve',
        'all',
        'Have pat plan'
      ],
      { env: { SWARMDESK_HOME: ws.home } }
    )
    expect(run.code).toBe(1)
    expect(run.stderr).toMatch(
      /^swarmdesk run: the team cannot go on: pat waits for team-lead's approval of its plan \(request plan-[0-9a-f]+\), and no one in this run can answer/m
    )
    expect(run.stdout).toContain('✘ Run failed: the team cannot go on')
  }, 90_000)
})
