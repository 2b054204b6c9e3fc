import { existsSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { RuntimeEvent } from '../../shared/events'
import { ofType, runCli, useTempWorkspace } from './cli.testkit'

const ws = useTempWorkspace()

const SCENARIO = `
agents:
  team-lead:
    - tools: [ { name: TeamCreate, input: { team_name: planners } } ]
    - tools: [ { name: Agent, input: { name: pat, mode: plan, backend: worker, description: "careful writer", prompt: "Write notes.txt once your plan is approved." } } ]
    - text: "pat is planning."
    - when: 'type="plan_approval_request"'
      tools: [ { name: SendMessage, input: { to: pat, message: { type: plan_approval_response, request_id: "{{request_id}}", approve: false, feedback: "Add a check step" } } } ]
    - when: "plan_approval_response sent"
      text: "Rejected the first plan."
    - when: 'type="plan_approval_request"'
      tools: [ { name: SendMessage, input: { to: pat, message: { type: plan_approval_response, request_id: "{{request_id}}", approve: true } } } ]
    - when: "plan_approval_response sent"
      text: "Approved the second plan."
    - { text: "Noted." }
    - { text: "Noted." }
    - { text: "Noted." }
    - { text: "Noted." }
    - { text: "Noted." }
    - { text: "Noted." }
  pat:
    - tools: [ { name: Write, input: { file_path: "early.txt", content: "too early\\n" } } ]
    - tools: [ { name: ExitPlanMode, input: { plan: "1. Write notes.txt" } } ]
    - when: "Add a check step"
      tools: [ { name: ExitPlanMode, input: { plan: "1. Write notes.txt\\n2. Read it back" } } ]
    - when: "approved your plan"
      tools: [ { name: Write, input: { file_path: "notes.txt", content: "planned\\n" } } ]
    - text: "notes.txt written."
    - { text: "Done." }
    - { text: "Done." }
    - { text: "Done." }
`

describe('a plan-required teammate (docs/teams.md#plan-approval)', () => {
  it('cannot write before approval, stays in plan mode with the feedback after a rejection, and writes once the leader approves', async () => {
    const { home, work } = ws
    const scenario = join(home, 'plan.yaml')
    writeFileSync(scenario, SCENARIO)
    const run = await runCli(
      ['run', '--cwd', work, '--scenario', scenario, '--approve', 'all', '--json', 'Have pat write notes'],
      { env: { SWARMDESK_HOME: home } }
    )
    expect(run.stderr).toBe('')
    expect(run.code).toBe(0)
    const pat = (e: RuntimeEvent) => e.agentId === 'pat@planners'
    const calls = ofType(run.events, 'tool_call').filter(pat)
    const results = new Map(
      ofType(run.events, 'tool_result')
        .filter(pat)
        .map((e) => [e.toolUseId, e])
    )
    const resultOf = (name: string, nth = 0) => results.get(calls.filter((c) => c.name === name)[nth]!.toolUseId)!
    // before approval: the write is refused by plan mode and nothing is written
    expect(resultOf('Write', 0)).toMatchObject({ isError: true })
    expect(resultOf('Write', 0).output).toMatch(/plan mode/i)
    expect(existsSync(join(work, 'early.txt'))).toBe(false)
    // the first plan is rejected with the leader's feedback and pat stays in plan mode
    expect(resultOf('ExitPlanMode', 0)).toMatchObject({ isError: true })
    expect(resultOf('ExitPlanMode', 0).output).toContain('Add a check step')
    expect(resultOf('ExitPlanMode', 0).output).toContain('stay in plan mode')
    // the second is approved; then the write goes through
    expect(resultOf('ExitPlanMode', 1)).toMatchObject({ isError: false })
    expect(resultOf('ExitPlanMode', 1).output).toContain('approved your plan')
    expect(resultOf('Write', 1)).toMatchObject({ isError: false })
    expect(existsSync(join(work, 'notes.txt'))).toBe(true)
    expect(
      ofType(run.events, 'agent_state').filter((e) => pat(e) && e.state === 'awaiting_plan_approval')
    ).toHaveLength(2)
    // the headless run ends by shutting pat down
    expect(ofType(run.events, 'agent_stopped').find(pat)).toMatchObject({ status: 'exited' })
    expect(run.events.at(-1)).toMatchObject({ type: 'run_finished', status: 'ok' })
  }, 60_000)
})
