import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { ofType, startCli, useTempWorkspace } from './cli.testkit'
import { collectEvents, exited, psRows, waitFor } from './teamNats.testkit'

// Ctrl-C ends a headless team run (docs/events.md#event-stream-and-command-line) also while the
// leader is idle and the run only waits for its team: the run stops, the team is shut down, and it
// ends as aborted (exit 1) — not carried on to the end of the team's work and reported a success.

const ws = useTempWorkspace()

const scenario = `
agents:
  team-lead:
    - tools: [ { name: TeamCreate, input: { team_name: ci } } ]
    - tools: [ { name: TaskCreate, input: { subject: "Long job", description: "Takes a while." } } ]
    - tools: [ { name: Agent, input: { name: sam, backend: worker, mode: bypassPermissions, description: "w", prompt: "Take task 1." } } ]
    - text: "sam is on it."
${'    - { text: "Noted." }\n'.repeat(8)}
  sam:
    - when: "Take task 1"
      tools: [ { name: TaskUpdate, input: { taskId: "1", owner: sam, status: in_progress } } ]
    - tools: [ { name: Bash, input: { command: "sleep 173.29" } } ]
${'    - { text: "Done." }\n'.repeat(4)}
`

describe('Ctrl-C on a headless team run', () => {
  it('while the leader is idle and a teammate works: the run ends as aborted, exit 1, the team shut down and its task pending again', async () => {
    const file = join(ws.home, 'interrupt.yaml')
    writeFileSync(file, scenario)
    const leader = startCli(['run', '--cwd', ws.work, '--scenario', file, '--approve', 'all', '--json', 'Go'], {
      env: { SWARMDESK_HOME: ws.home }
    })
    const run = collectEvents(leader)
    let code: number | null = null
    leader.on('exit', (c) => (code = c))
    await waitFor(
      'sam in its command',
      () => (psRows().some((r) => r.args === 'sleep 173.29') ? true : undefined),
      90_000
    )
    const leaderIdle = ofType(run.events, 'agent_state')
      .filter((e) => e.agentName === 'team-lead')
      .at(-1)
    expect(leaderIdle?.state).toBe('idle')
    const interruptedAt = run.events.length
    leader.kill('SIGINT')
    await exited(leader)
    expect(run.stderr()).toBe('')
    expect(code).toBe(1)
    expect(run.events.at(-1)).toMatchObject({ type: 'run_finished', status: 'failed', reason: 'aborted' })
    // no turn of the leader's after the interrupt, and sam's command is gone with the team
    const after = run.events.slice(interruptedAt)
    expect(ofType(after, 'assistant_text').filter((e) => e.agentName === 'team-lead')).toEqual([])
    expect(ofType(after, 'agent_stopped').find((e) => e.agentName === 'sam')).toBeDefined()
    expect(psRows().some((r) => r.args === 'sleep 173.29')).toBe(false)
    const task = JSON.parse(readFileSync(join(ws.home, 'tasks', 'ci', '1.json'), 'utf8')) as Record<string, unknown>
    expect(task).toMatchObject({ status: 'pending' })
    expect(task.owner).toBeUndefined()
  }, 120_000)
})
