import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { ofType, runCli, startCli, useTempWorkspace } from './cli.testkit'
import { collectEvents, exited, onlySessionId, psRows, waitFor } from './teamNats.testkit'

// `run --resume` of a leader killed with -9, its team on files (docs/teams.md#teammate-life-cycle):
// the teammates that ended with it — a worker (a thread of its process) and a process teammate
// (its terminal went with it) — are marked inactive and their tasks are pending again when the
// session leads the team again, as on JetStream, instead of staying in_progress for ever.

const ws = useTempWorkspace()

const first = `
agents:
  team-lead:
    - tools: [ { name: TeamCreate, input: { team_name: orphans } } ]
    - tools:
        - { name: TaskCreate, input: { subject: "Job one", description: "One." } }
        - { name: TaskCreate, input: { subject: "Job two", description: "Two." } }
    - tools:
        - { name: Agent, input: { name: sam, backend: process, mode: bypassPermissions, description: "s", prompt: "Take task 1." } }
        - { name: Agent, input: { name: bo, backend: worker, mode: bypassPermissions, description: "b", prompt: "Take task 2." } }
    - text: "Both at work."
${'    - { text: "Noted." }\n'.repeat(8)}
  sam:
    - when: "Take task 1"
      tools: [ { name: TaskUpdate, input: { taskId: "1", owner: sam, status: in_progress } } ]
    - tools: [ { name: Bash, input: { command: "sleep 181.37" } } ]
${'    - { text: "Done." }\n'.repeat(4)}
  bo:
    - when: "Take task 2"
      tools: [ { name: TaskUpdate, input: { taskId: "2", owner: bo, status: in_progress } } ]
    - tools: [ { name: Bash, input: { command: "sleep 181.38" } } ]
${'    - { text: "Done." }\n'.repeat(4)}
`

const second = `
agents:
  team-lead:
    - tools: [ { name: TaskList, input: {} } ]
${'    - { text: "Noted." }\n'.repeat(4)}
`

/** Whether anything of the first run's team still runs: a teammate's command, or sam's process. */
const sleeping = (): boolean =>
  psRows().some(
    (r) => r.args === 'sleep 181.37' || r.args === 'sleep 181.38' || r.args.includes('teammate --team orphans')
  )

describe('--resume of a leader killed with -9, its team on files', () => {
  it('marks the teammates that ended with it inactive and puts their tasks back on the list', async () => {
    const { home, work } = ws
    const env = { SWARMDESK_HOME: home }
    writeFileSync(join(home, 'first.yaml'), first)
    writeFileSync(join(home, 'second.yaml'), second)
    const leader = startCli(
      ['run', '--cwd', work, '--scenario', join(home, 'first.yaml'), '--approve', 'all', '--json', 'Go'],
      { env }
    )
    const run1 = collectEvents(leader)
    await waitFor(
      'both teammates in their commands',
      () => {
        const args = psRows().map((r) => r.args)
        return args.includes('sleep 181.37') && args.includes('sleep 181.38') ? true : undefined
      },
      90_000
    )
    leader.kill('SIGKILL')
    await exited(leader)
    await waitFor('the teammates gone with their leader', () => (sleeping() ? undefined : true), 30_000)
    expect(run1.stderr()).toBe('')
    const sessionId = onlySessionId(home, work)!

    const resumed = await runCli(
      [
        'run',
        '--cwd',
        work,
        '--scenario',
        join(home, 'second.yaml'),
        '--approve',
        'all',
        '--json',
        '--resume',
        sessionId,
        'Carry on'
      ],
      { env }
    )
    expect(resumed.stderr).toBe('')
    expect(resumed.code).toBe(0)
    const notices = ofType(resumed.events, 'notice').map((n) => n.message)
    expect(notices).toContain(
      "Teammate sam ended with the session's earlier process: marked inactive; tasks #1 are pending again."
    )
    expect(notices).toContain(
      "Teammate bo ended with the session's earlier process: marked inactive; tasks #2 are pending again."
    )
    // the leader's first turn already sees both tasks free
    const list = ofType(resumed.events, 'tool_call').find((e) => e.name === 'TaskList')!
    const output = ofType(resumed.events, 'tool_result').find((e) => e.toolUseId === list.toolUseId)!.output
    expect(output).toMatch(/#1 \[pending\] Job one/)
    expect(output).toMatch(/#2 \[pending\] Job two/)
    for (const id of [1, 2]) {
      const task = JSON.parse(readFileSync(join(home, 'tasks', 'orphans', `${id}.json`), 'utf8')) as Record<
        string,
        unknown
      >
      expect(task).toMatchObject({ status: 'pending' })
      expect(task.owner).toBeUndefined()
    }
    const config = JSON.parse(readFileSync(join(home, 'teams', 'orphans', 'config.json'), 'utf8')) as {
      members: { name: string; isActive: boolean }[]
    }
    expect(config.members.filter((m) => m.name !== 'team-lead').map((m) => [m.name, m.isActive])).toEqual([
      ['sam', false],
      ['bo', false]
    ])
  }, 150_000)
})
