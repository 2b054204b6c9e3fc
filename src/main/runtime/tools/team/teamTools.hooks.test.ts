import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { hookSettings, startTeamHarness, type TeamHarness } from './team.testkit'

let h: TeamHarness | undefined
afterEach(async () => {
  await h?.close()
  h = undefined
})

const call = (name: string, input: Record<string, unknown>) => ({ name, input })

describe('TaskCreated and TaskCompleted hooks', () => {
  it('a TaskCreated hook exiting 2 refuses the task with its reason and leaves no task file', async () => {
    h = await startTeamHarness(
      [
        {
          tools: [
            call('TeamCreate', { team_name: 'crew' }),
            call('TaskCreate', { subject: 'Forbidden work', description: '' }),
            call('TaskList', {})
          ]
        },
        { text: 'done' }
      ],
      {
        hookSettings: hookSettings({
          TaskCreated:
            'input=$(cat); case "$input" in *\'"task_subject":"Forbidden work"\'*\'"team_name":"crew"\'*) echo "no tasks without a ticket" >&2; exit 2;; esac'
        })
      }
    )
    await h.prompt('go')
    const [, created, list] = h.results()
    expect(created!.isError).toBe(true)
    expect(created!.output).toContain('no tasks without a ticket')
    expect(readdirSync(join(h.home, 'tasks', 'crew')).filter((f) => f.endsWith('.json'))).toEqual([])
    expect(list!.output).toBe('No tasks found.')
    expect(h.ofType('task_updated')).toEqual([])
  })

  it('a TaskCompleted hook exiting 2 blocks completion: the status stays and the reason reaches the model', async () => {
    h = await startTeamHarness(
      [
        {
          tools: [
            call('TeamCreate', { team_name: 'crew' }),
            call('TaskCreate', { subject: 'Run the tests', description: '' }),
            call('TaskUpdate', { taskId: '1', status: 'in_progress', owner: 'team-lead' }),
            call('TaskUpdate', { taskId: '1', status: 'completed' }),
            call('TaskCreate', { subject: 'Write the docs', description: '' }),
            call('TaskUpdate', { taskId: '2', status: 'completed' })
          ]
        },
        { text: 'done' }
      ],
      {
        hookSettings: hookSettings({
          TaskCompleted: 'grep -q \'"task_id":"1"\' && { echo "tests are still red" >&2; exit 2; }; exit 0'
        })
      }
    )
    await h.prompt('go')
    const completed = h.results()[3]!
    expect(completed.isError).toBe(true)
    expect(completed.output).toContain('tests are still red')
    expect(h.tasks('crew').get(1)).toMatchObject({ status: 'in_progress', owner: 'team-lead' })
    // the hook lets other tasks complete
    expect(h.results()[5]).toEqual({ isError: false, output: 'Updated task #2 status' })
    expect(h.tasks('crew').get(2)).toMatchObject({ status: 'completed' })
  })
})
