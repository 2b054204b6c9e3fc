import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { TeamStore } from '../teams'
import { startTeamHarness, type TeamHarness } from './testing'

let h: TeamHarness | undefined
afterEach(async () => {
  await h?.close()
  h = undefined
})

const call = (name: string, input: Record<string, unknown>) => ({ name, input })

describe('TeamCreate and TeamDelete', () => {
  it('writes the config with the leader as lead and only member; a second TeamCreate names the current team', async () => {
    h = await startTeamHarness([{ tools: [call('TeamCreate', { team_name: 'crew', description: 'the crew' }), call('TeamCreate', { team_name: 'other' })] }, { text: 'done' }])
    await h.prompt('go')
    const [first, second] = h.results()
    expect(first).toEqual({ isError: false, output: `Team 'crew' created (${join(h.home, 'teams', 'crew', 'config.json')}). You lead it as team-lead@crew; the task tools now use its task list and SendMessage reaches its members by name.` })
    expect(second).toEqual({ isError: true, output: expect.stringContaining("already leads team 'crew'") })
    const config = new TeamStore(h.home).read('crew')
    expect(config).toMatchObject({ name: 'crew', description: 'the crew', leadAgentId: 'team-lead@crew' })
    expect(config.members).toEqual([expect.objectContaining({ agentId: 'team-lead@crew', name: 'team-lead', backendType: 'main', cwd: h.work, model: 'claude-sonnet-5-5' })])
    expect(existsSync(join(h.home, 'teams', 'other'))).toBe(false)
  })

  it('TeamDelete fails while a teammate is active, naming it, and succeeds once none is', async () => {
    h = await startTeamHarness([
      { tools: [call('TeamCreate', { team_name: 'crew' }), call('TaskCreate', { subject: 'x', description: '' })] },
      { text: 'made' },
      { tools: [call('TeamDelete', {})] },
      { text: 'refused' },
      { tools: [call('TeamDelete', {}), call('TaskList', {})] },
      { text: 'deleted' }
    ])
    await h.prompt('make')
    await h.addMembers('crew', ['alice'])
    await h.addMembers('crew', ['bob'], false)
    await h.prompt('delete')
    expect(h.results()[2]).toEqual({ isError: true, output: expect.stringMatching(/active members: alice\./) })
    expect(existsSync(join(h.home, 'teams', 'crew', 'config.json'))).toBe(true)
    await new TeamStore(h.home).setActive('crew', 'alice', false)
    await h.prompt('delete again')
    const [deleted, list] = h.results().slice(3)
    expect(deleted).toEqual({ isError: false, output: "Team 'crew' deleted: its config, inboxes and task list are gone." })
    expect(existsSync(join(h.home, 'teams', 'crew'))).toBe(false)
    expect(existsSync(join(h.home, 'tasks', 'crew'))).toBe(false)
    // back on the session's own list
    expect(list!.output).toBe('No tasks found.')
    expect(h.session.team?.team()).toBeUndefined()
  })

  it('offers TeamCreate/TeamDelete to the leader only; a sync subagent shares the leader\'s task list in its own name', async () => {
    h = await startTeamHarness([
      { tools: [call('TeamCreate', { team_name: 'crew' })] },
      { tools: [call('Agent', { subagent_type: 'general-purpose', description: 'helper', prompt: 'file a task' })] },
      { text: 'done' }
    ], { subagentTurns: { helper: [{ tools: [call('TaskCreate', { subject: 'Found by the helper', description: '' })] }, { text: 'filed {{last_tool_result}}' }] } })
    await h.prompt('go')
    const toolsOf = (name: string) => (h!.server.requests().find((r) => r.agentName === name)!.body as unknown as { tools: Array<{ name: string }> }).tools.map((t) => t.name)
    expect(toolsOf('team-lead').slice(-7)).toEqual(['SendMessage', 'TaskCreate', 'TaskGet', 'TaskList', 'TaskUpdate', 'TeamCreate', 'TeamDelete'])
    const child = toolsOf('helper')
    expect(child).toEqual(expect.arrayContaining(['SendMessage', 'TaskCreate', 'TaskGet', 'TaskList', 'TaskUpdate']))
    expect(child).not.toContain('TeamCreate')
    expect(child).not.toContain('TeamDelete')
    expect(h.tasks('crew').get(1)).toMatchObject({ subject: 'Found by the helper' })
    expect(h.ofType('task_updated')).toEqual([expect.objectContaining({ agentName: 'helper' })])
  })
})
