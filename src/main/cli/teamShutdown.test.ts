import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { RuntimeEvent } from '../../shared/events'
import { ofType, runCli, useTempWorkspace } from './cli.testkit'

// The shutdown protocol of docs/teams.md#teammate-life-cycle run headless through the CLI: a teammate approves (and
// exits), rejects with a reason (and keeps working), or ignores the request (and is killed after
// the timeout). Each time its task goes back to pending with no owner and TeamDelete succeeds.

const ws = useTempWorkspace()

/** The leader's opening: a team, one task owned by `name` before it exists (so nobody else may claim it), then `name` spawned. */
function opening(name: string, backend: 'worker' | 'process'): string {
  return `
    - tools: [ { name: TeamCreate, input: { team_name: crew } } ]
    - tools: [ { name: TaskCreate, input: { subject: "Survey the code", description: "List what src/ holds." } } ]
    - tools:
        - { name: TaskUpdate, input: { taskId: "1", owner: ${name} } }
        - { name: Agent, input: { name: ${name}, backend: ${backend}, mode: bypassPermissions, description: "surveyor", prompt: "Take the task assigned to you." } }
    - text: "${name} is at work."`
}

/** The leader's closing: once `name` has left, the task list (to show the task is free again) and TeamDelete. */
const closing = (when: string) => `
    - when: '${when}'
      tools: [ { name: TaskList, input: {} }, { name: TeamDelete, input: {} } ]
    - when: "deleted: its config"
      text: "The team is gone."
${'    - { text: "Noted." }\n'.repeat(10)}`

const done = '    - { text: "Done." }\n'.repeat(6)

async function run(name: string, scenario: string, settings?: object) {
  const { home, work } = ws
  const file = join(home, `${name}.yaml`)
  writeFileSync(file, scenario)
  // --approve all: spawning a teammate into bypassPermissions asks the person, who agrees here
  const args = ['run', '--cwd', work, '--scenario', file, '--approve', 'all', '--json']
  if (settings) {
    writeFileSync(join(home, 'shutdown-settings.json'), JSON.stringify(settings))
    args.push('--settings', join(home, 'shutdown-settings.json'))
  }
  const result = await runCli([...args, `Survey the code with ${name}`], { env: { SWARMDESK_HOME: home } })
  expect(result.stderr).toBe('')
  expect(result.code).toBe(0)
  const leaderResults = ofType(result.events, 'tool_result').filter((e) => e.agentId === 'team-lead')
  const leaderCalls = ofType(result.events, 'tool_call').filter((e) => e.agentId === 'team-lead')
  const outputOf = (tool: string) =>
    leaderResults
      .filter((r) => leaderCalls.find((c) => c.toolUseId === r.toolUseId)?.name === tool)
      .map((r) => r.output)
  return { ...result, outputOf }
}

/** Asserts the task went back to the list free (TaskList before TeamDelete) and the team was deleted. */
function expectFreedAndDeleted(r: Awaited<ReturnType<typeof run>>, name: string): void {
  const list = r.outputOf('TaskList').at(-1)!
  expect(list).toMatch(/#1 \[pending\] Survey the code/)
  expect(list).not.toContain(name)
  // and the stream said so (the pane header and the dashboard drop the task)
  const last = ofType(r.events, 'task_updated')
    .filter((e) => (e.task as { id: number }).id === 1)
    .at(-1)!.task as { status: string; owner?: string }
  expect(last.status).toBe('pending')
  expect(last.owner).toBeUndefined()
  expect(r.outputOf('TeamDelete').at(-1)).toContain("Team 'crew' deleted")
  expect(r.events.at(-1)).toMatchObject({ type: 'run_finished', status: 'ok' })
}

describe('the shutdown protocol (docs/teams.md#teammate-life-cycle)', () => {
  it('approved: the worker teammate answers with a shutdown_response and exits; its task is free; TeamDelete succeeds', async () => {
    const r = await run(
      'ann',
      `
agents:
  team-lead:${opening('ann', 'worker')}
    - when: "ann is surveying"
      tools: [ { name: SendMessage, input: { to: ann, message: { type: shutdown_request, reason: "Plans changed: stop now." } } } ]
${closing('type="shutdown_approved"')}
  ann:
    - when: "Take the task assigned"
      text: "Ready."
    - when: "Survey the code"
      tools: [ { name: SendMessage, input: { to: team-lead, message: "ann is surveying", summary: "surveying" } } ]
    - when: 'type="shutdown_request"'
      tools: [ { name: SendMessage, input: { to: team-lead, message: { type: shutdown_response, request_id: "{{request_id}}", approve: true } } } ]
${done}`
    )
    const ann = (e: RuntimeEvent) => e.agentId === 'ann@crew'
    // the request reached ann's model with its reason, and her approval was taken, not sent twice
    const answer = ofType(r.events, 'tool_call').find(
      (e) => ann(e) && e.name === 'SendMessage' && JSON.stringify(e.input).includes('shutdown_response')
    )!
    expect(ofType(r.events, 'tool_result').find((e) => e.toolUseId === answer.toolUseId)).toMatchObject({
      isError: false,
      output: expect.stringContaining('Shutdown approved')
    })
    const approvals = ofType(r.events, 'message_sent').filter((e) => e.kind === 'shutdown_approved')
    expect(approvals).toEqual([expect.objectContaining({ from: 'ann', to: 'team-lead' })])
    expect(ofType(r.events, 'agent_stopped').find(ann)).toMatchObject({ status: 'exited' })
    expectFreedAndDeleted(r, 'ann')
  }, 60_000)

  it('rejected: the process teammate refuses with a reason and keeps working; asked again and not answering, it leaves', async () => {
    const r = await run(
      'ben',
      `
agents:
  team-lead:${opening('ben', 'process')}
    - when: "ben is surveying"
      tools: [ { name: SendMessage, input: { to: ben, message: { type: shutdown_request } } } ]
    - when: 'type="shutdown_rejected"'
      tools: [ { name: SendMessage, input: { to: ben, message: "Fine, finish the survey notes first.", summary: "finish first" } } ]
    - when: "notes.txt is written"
      tools: [ { name: SendMessage, input: { to: ben, message: { type: shutdown_request } } } ]
${closing('type="shutdown_approved"')}
  ben:
    - when: "Take the task assigned"
      text: "Ready."
    - when: "Survey the code"
      tools: [ { name: SendMessage, input: { to: team-lead, message: "ben is surveying", summary: "surveying" } } ]
    - when: 'type="shutdown_request"'
      tools: [ { name: SendMessage, input: { to: team-lead, message: { type: shutdown_response, request_id: "{{request_id}}", approve: false, reason: "Halfway through the notes." } } } ]
    - when: "finish the survey notes"
      tools:
        - { name: Write, input: { file_path: "notes.txt", content: "src/ holds the app.\\n" } }
        - { name: SendMessage, input: { to: team-lead, message: "notes.txt is written.", summary: "notes written" } }
    - when: 'type="shutdown_request"'
      text: "All finished."
${done}`,
      // each answer is a turn of a process teammate: on a loaded machine the default 20 s could run out
      // before ben has refused, and he would be killed rather than keep working
      { teammateShutdownTimeoutSeconds: 120 }
    )
    const ben = (e: RuntimeEvent) => e.agentId === 'ben@crew'
    // the leader heard the refusal with its reason; ben then worked on (his write happened after it)
    const rejected = ofType(r.events, 'message_sent').find((e) => e.kind === 'shutdown_rejected')!
    expect(rejected).toMatchObject({ from: 'ben', to: 'team-lead' })
    // (the leader's answer to it is scripted on 'type="shutdown_rejected"': it was sent only if the refusal reached its model)
    expect(
      ofType(r.events, 'tool_call').find(
        (e) => e.agentId === 'team-lead' && JSON.stringify(e.input).includes('finish the survey notes')
      )!.seq
    ).toBeGreaterThan(rejected.seq)
    const write = ofType(r.events, 'tool_call').find((e) => ben(e) && e.name === 'Write')!
    expect(write.seq).toBeGreaterThan(rejected.seq)
    expect(ofType(r.events, 'tool_result').find((e) => e.toolUseId === write.toolUseId)).toMatchObject({
      isError: false
    })
    // the second request, unanswered, is approved by the runtime when his turn ends
    expect(
      ofType(r.events, 'message_sent')
        .filter((e) => e.kind === 'shutdown_request')
        .map((e) => e.to)
    ).toEqual(['ben', 'ben'])
    expect(ofType(r.events, 'message_sent').filter((e) => e.kind === 'shutdown_approved')).toEqual([
      expect.objectContaining({ from: 'ben' })
    ])
    expect(ofType(r.events, 'agent_stopped').find(ben)).toMatchObject({ status: 'exited' })
    expectFreedAndDeleted(r, 'ben')
  }, 60_000)

  it('ignored: a worker teammate busy in a long command is killed after the timeout; the leader is told its task is free; TeamDelete succeeds', async () => {
    const r = await run(
      'cid',
      `
agents:
  team-lead:${opening('cid', 'worker')}
    - when: "cid is surveying"
      tools: [ { name: SendMessage, input: { to: cid, message: { type: shutdown_request } } } ]
${closing('cid was killed')}
  cid:
    - when: "Take the task assigned"
      text: "Ready."
    - when: "Survey the code"
      tools:
        - { name: SendMessage, input: { to: team-lead, message: "cid is surveying", summary: "surveying" } }
        - { name: Bash, input: { command: "sleep 60", timeout: 120000 } }
${done}`,
      { teammateShutdownTimeoutSeconds: 1 }
    )
    const cid = (e: RuntimeEvent) => e.agentId === 'cid@crew'
    expect(ofType(r.events, 'agent_stopped').find(cid)).toMatchObject({ status: 'killed' })
    expect(ofType(r.events, 'message_sent').filter((e) => e.kind === 'shutdown_approved')).toEqual([])
    // the sleep never finished: the kill ended it
    const sleep = ofType(r.events, 'tool_call').find((e) => cid(e) && e.name === 'Bash')!
    expect(ofType(r.events, 'tool_result').find((e) => e.toolUseId === sleep.toolUseId && !e.isError)).toBeUndefined()
    expectFreedAndDeleted(r, 'cid')
  }, 60_000)
})
