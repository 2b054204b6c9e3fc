import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { EventOf } from '../../shared/events'
import { ofType, runCli, runCliText, useTempWorkspace } from './cli.testkit'

// TodoWrite through the real runtime and the scripted model (docs/tools.md#todowrite): each agent's
// own list — the leader's, a subagent's, a worker and a process teammate's — replaced whole by each
// successful call, refused with a clear error when malformed, never asking for permission.

const ws = useTempWorkspace()

/** A TodoWrite call's input in scenario YAML: `[content, status]` pairs, the activeForm derived. */
function todos(...items: Array<[string, string]>): string {
  const list = items.map(
    ([content, status]) => `{ content: "${content}", status: ${status}, activeForm: "${content}ing" }`
  )
  return `{ name: TodoWrite, input: { todos: [ ${list.join(', ')} ] } }`
}

const SCENARIO = `
agents:
  team-lead:
    - tools: [ ${todos(['Survey', 'in_progress'], ['Report', 'pending'], ['Review', 'pending'])} ]
    - tools: [ { name: TodoWrite, input: { todos: [ { content: "Survey", status: started, activeForm: " " } ] } } ]
    - tools: [ ${todos(['Survey', 'completed'], ['Report', 'in_progress'])} ]
    - tools: [ { name: Agent, input: { subagent_type: Explore, description: "look around", prompt: "Look around." } } ]
    - tools: [ { name: TeamCreate, input: { team_name: crew } } ]
    - tools:
        - { name: Agent, input: { name: alice, backend: worker, description: "worker", prompt: "Plan your work." } }
        - { name: Agent, input: { name: carol, backend: process, description: "process", prompt: "Plan your work." } }
    - text: "The team is at work."
${'    - { text: "Noted." }\n'.repeat(8)}
  'type:Explore':
    - tools: [ ${todos(['Read the tree', 'in_progress'])} ]
    - text: "Explored."
  alice:
    - tools: [ ${todos(['Draft', 'completed'], ['Polish', 'in_progress'])} ]
    - text: "alice planned."
${'    - { text: "Noted." }\n'.repeat(4)}
  carol:
    - tools: [ ${todos(['Measure', 'in_progress'])} ]
    - text: "carol planned."
${'    - { text: "Noted." }\n'.repeat(4)}
`

describe('TodoWrite through the real runtime and the scripted model', () => {
  it("keeps each agent's own list, replaced whole by each successful call, refusing a malformed one and asking no one", async () => {
    const { home, work } = ws
    writeFileSync(join(home, 'todo.yaml'), SCENARIO)
    const run = await runCli(
      ['run', '--cwd', work, '--scenario', join(home, 'todo.yaml'), '--approve', 'none', '--json', 'Plan the work'],
      { env: { SWARMDESK_HOME: home } }
    )
    expect(run.stderr).toBe('')
    expect(run.code).toBe(0)
    const calls = ofType(run.events, 'tool_call').filter((c) => c.name === 'TodoWrite')
    const results = new Map(ofType(run.events, 'tool_result').map((r) => [r.toolUseId, r]))
    expect(calls).toHaveLength(6)
    const [first, malformed, second] = calls.filter((c) => c.agentId === 'team-lead')
    expect(results.get(first!.toolUseId)).toMatchObject({
      isError: false,
      output:
        'Todos have been modified successfully. Ensure that you continue to use the todo list to track your progress. Please proceed with the current tasks if applicable'
    })
    // the malformed list is refused, saying what is wrong with which item, and changes nothing
    const refusal = results.get(malformed!.toolUseId)!
    expect(refusal.isError).toBe(true)
    expect(refusal.output).toContain('Invalid input for TodoWrite')
    expect(refusal.output).toContain("todos.0.status: status must be 'pending', 'in_progress' or 'completed'")
    expect(refusal.output).toContain('todos.0.activeForm: activeForm cannot be empty')
    expect(results.get(second!.toolUseId)!.isError).toBe(false)

    const updates = ofType(run.events, 'todos_updated')
    const listsOf = (agentName: string) =>
      updates.filter((u) => u.agentName === agentName).map((u) => u.todos.map((t) => `${t.content}:${t.status}`))
    expect(listsOf('team-lead')).toEqual([
      ['Survey:in_progress', 'Report:pending', 'Review:pending'],
      ['Survey:completed', 'Report:in_progress']
    ])
    expect(listsOf('look-around')).toEqual([['Read the tree:in_progress']])
    expect(listsOf('alice')).toEqual([['Draft:completed', 'Polish:in_progress']])
    expect(listsOf('carol')).toEqual([['Measure:in_progress']])
    // each update comes right after the result that made it, stamped with its own agent
    const explore = updates.find((u) => u.agentName === 'look-around')!
    expect(explore.agentId).toMatch(/^a[0-9a-f]{16}$/)
    expect(updates.find((u) => u.agentName === 'carol')!.agentId).toBe('carol@crew')
    const first_ = updates[0] as EventOf<'todos_updated'>
    expect(first_.todos[0]).toEqual({ content: 'Survey', status: 'in_progress', activeForm: 'Surveying' })
    // no permission was asked for any of it (--approve none would have denied it)
    expect(ofType(run.events, 'permission_request').filter((r) => r.tool === 'TodoWrite')).toEqual([])
    expect(run.events.at(-1)).toMatchObject({ type: 'run_finished', status: 'ok' })
  })
})

describe('TodoWrite in the permission engine', () => {
  it('needs no permission in any mode, even plan and dontAsk, as in Claude Code', { timeout: 90_000 }, async () => {
    const input = JSON.stringify({ todos: [{ content: 'Survey', status: 'pending', activeForm: 'Surveying' }] })
    for (const mode of ['default', 'plan', 'dontAsk']) {
      const check = await runCliText(
        ['permissions', 'check', '--cwd', ws.work, '--mode', mode, '--tool', 'TodoWrite', '--input', input],
        { SWARMDESK_HOME: ws.home }
      )
      expect(check.stderr).toBe('')
      expect(JSON.parse(check.stdout)).toMatchObject({ decision: 'allow', reason: 'nothing to check' })
    }
  })
})
