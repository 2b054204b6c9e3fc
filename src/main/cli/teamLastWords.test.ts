import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { RuntimeEvent } from '../../shared/events'
import { ofType, runCli, useTempWorkspace } from './cli.testkit'

// A headless team run's last words (docs/teams.md#teammate-life-cycle): what a teammate says to the
// leader while the run shuts the team down, after the leader's last turn, reaches the leader's
// model in one more turn — not only its inbox.

const ws = useTempWorkspace()

const scenario = (backend: 'worker' | 'process'): string => `
agents:
  team-lead:
    - tools: [ { name: TeamCreate, input: { team_name: lw } } ]
    - tools: [ { name: Agent, input: { name: sam, backend: ${backend}, description: "writer", prompt: "Get ready." } } ]
    - text: "sam started."
    - when: "Final report from sam"
      text: "Heard sam's final report: the notes are done."
${'    - { text: "Noted." }\n'.repeat(8)}
  sam:
    - when: "Get ready"
      text: "Ready."
    - when: 'type="shutdown_request"'
      tools: [ { name: SendMessage, input: { to: team-lead, message: "Final report from sam: the notes are done.", summary: "final report" } } ]
    - when: "Message sent"
      text: "Reported; shutting down."
${'    - { text: "Bye." }\n'.repeat(4)}
`

const of = (name: string) => (e: RuntimeEvent) => e.agentName === name

describe.each(['worker', 'process'] as const)('a headless team run on the %s backend', (backend) => {
  it("gives the leader one more turn with what a teammate sent it while the team shut down, after the leader's last turn", async () => {
    const file = join(ws.home, `last-words-${backend}.yaml`)
    writeFileSync(file, scenario(backend))
    const run = await runCli(
      ['run', '--cwd', ws.work, '--scenario', file, '--approve', 'all', '--json', 'Start sam and finish'],
      { env: { SWARMDESK_HOME: ws.home } }
    )
    expect(run.stderr).toBe('')
    expect(run.code).toBe(0)
    // sam's report was sent in its shutdown turn, after the leader's last turn of the run proper
    const report = ofType(run.events, 'tool_call').find((e) => of('sam')(e) && e.name === 'SendMessage')!
    const stopping = ofType(run.events, 'agent_state').find((e) => of('sam')(e) && e.state === 'stopping')!
    expect(report.seq).toBeGreaterThan(stopping.seq)
    const leaderSaid = ofType(run.events, 'assistant_text').filter(of('team-lead'))
    const heard = leaderSaid.find((e) => e.text === "Heard sam's final report: the notes are done.")
    expect(heard, 'the report reached the leader’s model').toBeDefined()
    expect(heard!.seq).toBeGreaterThan(report.seq)
    // that turn is the leader's last word, and the run's end follows it
    expect(leaderSaid.at(-1)).toBe(heard)
    expect(ofType(run.events, 'agent_stopped').find(of('sam'))).toMatchObject({ status: 'exited' })
    expect(run.events.at(-1)).toMatchObject({ type: 'run_finished', status: 'ok' })
  }, 120_000)
})

// the extra turn is given once: a teammate the leader starts in it is shut down with the run, and
// what that one says then is in the output as a notice, not a reason for another turn
const bounded = `
agents:
  team-lead:
    - tools: [ { name: TeamCreate, input: { team_name: lb } } ]
    - tools: [ { name: Agent, input: { name: sam, backend: worker, description: "writer", prompt: "Get ready." } } ]
    - text: "sam started."
    - when: "Final report from sam"
      tools: [ { name: Agent, input: { name: tim, backend: worker, description: "checker", prompt: "Get ready." } } ]
    - when: "tim"
      text: "tim will check the notes."
${'    - { text: "Noted." }\n'.repeat(8)}
  sam:
    - when: "Get ready"
      text: "Ready."
    - when: 'type="shutdown_request"'
      tools: [ { name: SendMessage, input: { to: team-lead, message: "Final report from sam: the notes are done.", summary: "final report" } } ]
${'    - { text: "Bye." }\n'.repeat(4)}
  tim:
    - when: 'type="shutdown_request"'
      tools: [ { name: SendMessage, input: { to: team-lead, message: "Final report from tim: not checked yet.", summary: "final report" } } ]
    - when: "Get ready"
      text: "Ready."
${'    - { text: "Bye." }\n'.repeat(4)}
`

describe('the last words of a headless team run', () => {
  it('get the leader one more turn only once; what comes after it is a notice in the output', async () => {
    const file = join(ws.home, 'last-words-bounded.yaml')
    writeFileSync(file, bounded)
    const run = await runCli(
      ['run', '--cwd', ws.work, '--scenario', file, '--approve', 'all', '--json', 'Start sam and finish'],
      { env: { SWARMDESK_HOME: ws.home } }
    )
    expect(run.stderr).toBe('')
    expect(run.code).toBe(0)
    const leaderSaid = ofType(run.events, 'assistant_text').filter(of('team-lead'))
    expect(leaderSaid.at(-1)?.text).toBe('tim will check the notes.')
    const timReport = ofType(run.events, 'tool_call').find((e) => of('tim')(e) && e.name === 'SendMessage')!
    expect(timReport.seq).toBeGreaterThan(leaderSaid.at(-1)!.seq)
    const notice = ofType(run.events, 'notice').find((e) => e.message.includes('Final report from tim'))
    expect(notice).toMatchObject({
      agentName: 'team-lead',
      level: 'info',
      message: 'tim wrote to team-lead after its last turn: Final report from tim: not checked yet.'
    })
    expect(ofType(run.events, 'agent_stopped').find(of('tim'))).toMatchObject({ status: 'exited' })
    expect(run.events.at(-1)).toMatchObject({ type: 'run_finished', status: 'ok' })
  }, 120_000)
})

// a task a teammate was on when the run shut the team down goes back to pending undone: the run
// still ends `ok`, and says which tasks are not done (docs/teams.md#teammate-life-cycle)
const unfinished = `
agents:
  team-lead:
    - tools: [ { name: TeamCreate, input: { team_name: lu } } ]
    - tools: [ { name: TaskCreate, input: { subject: "Write notes", description: "Write the notes." } } ]
    - tools: [ { name: Agent, input: { name: sam, backend: worker, description: "writer", prompt: "Get ready." } } ]
    - text: "sam started."
${'    - { text: "Noted." }\n'.repeat(8)}
  sam:
    - when: "Get ready"
      text: "Ready."
    - when: "Write notes"
      text: "Started on the notes; more later."
${'    - { text: "Bye." }\n'.repeat(4)}
`

it('names the tasks not done when the run ends, one a teammate was on when the team was shut down', async () => {
  const file = join(ws.home, 'unfinished.yaml')
  writeFileSync(file, unfinished)
  const run = await runCli(
    ['run', '--cwd', ws.work, '--scenario', file, '--approve', 'all', '--json', 'Start sam and finish'],
    { env: { SWARMDESK_HOME: ws.home } }
  )
  expect(run.stderr).toBe('')
  expect(run.code).toBe(0)
  const claimed = ofType(run.events, 'assistant_text').find(
    (e) => of('sam')(e) && e.text === 'Started on the notes; more later.'
  )
  expect(claimed, 'sam took the task').toBeDefined()
  const warning = ofType(run.events, 'notice').find(
    (e) => e.level === 'warning' && e.message.startsWith('The run ends')
  )
  expect(warning).toMatchObject({
    agentName: 'team-lead',
    message: 'The run ends with 1 task not done: #1 "Write notes" (sam was on it when the team was shut down).'
  })
  expect(warning!.seq).toBeGreaterThan(claimed!.seq)
  expect(run.events.at(-1)).toMatchObject({ type: 'run_finished', status: 'ok' })
}, 120_000)

// in that extra turn a message to a teammate that has already ended is not reported as if it would
// be read (docs/teams.md#sendmessage-between-teammates)
const toEnded = `
agents:
  team-lead:
    - tools: [ { name: TeamCreate, input: { team_name: le } } ]
    - tools: [ { name: Agent, input: { name: sam, backend: worker, description: "writer", prompt: "Get ready." } } ]
    - text: "sam started."
    - when: "Final report from sam"
      tools: [ { name: SendMessage, input: { to: sam, message: "Thanks, sam: add the index too.", summary: "thanks" } } ]
    - when: "ended"
      text: "sam is gone; the index waits."
${'    - { text: "Noted." }\n'.repeat(8)}
  sam:
    - when: "Get ready"
      text: "Ready."
    - when: 'type="shutdown_request"'
      tools: [ { name: SendMessage, input: { to: team-lead, message: "Final report from sam: the notes are done.", summary: "final report" } } ]
${'    - { text: "Bye." }\n'.repeat(4)}
`

describe('a message to a teammate that has ended, in the last-words turn', () => {
  it('is answered with its end, not as if it would be read', async () => {
    const file = join(ws.home, 'to-ended.yaml')
    writeFileSync(file, toEnded)
    const run = await runCli(
      ['run', '--cwd', ws.work, '--scenario', file, '--approve', 'all', '--json', 'Start sam and finish'],
      { env: { SWARMDESK_HOME: ws.home } }
    )
    expect(run.stderr).toBe('')
    expect(run.code).toBe(0)
    const call = ofType(run.events, 'tool_call').find(
      (e) => of('team-lead')(e) && e.name === 'SendMessage' && JSON.stringify(e.input).includes('"sam"')
    )!
    const exited = ofType(run.events, 'agent_stopped').find(of('sam'))!
    expect(call.seq).toBeGreaterThan(exited.seq)
    const result = ofType(run.events, 'tool_result').find((e) => e.toolUseId === call.toolUseId)!
    expect(result.isError).toBe(false)
    expect(result.output).toBe(
      "Message sent to sam. But sam has ended (it is no longer active in team 'le'): it will not read this message unless it is started again."
    )
    expect(ofType(run.events, 'assistant_text').filter(of('team-lead')).at(-1)?.text).toBe(
      'sam is gone; the index waits.'
    )
  }, 120_000)
})
