import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { TaskStore } from '../../tasks'
import { buildChild, startChild } from '../../tasks/children.testkit'
import { leaderStatus, TeamStore } from '../../teams'
import { startTeamHarness, type TeamHarness } from './team.testkit'

let h: TeamHarness | undefined
afterEach(async () => {
  await h?.close()
  h = undefined
})

const call = (name: string, input: Record<string, unknown>) => ({ name, input })

describe('TeamCreate and TeamDelete', () => {
  it('writes the config with the leader as lead and only member; a second TeamCreate names the current team', async () => {
    h = await startTeamHarness([
      {
        tools: [
          call('TeamCreate', { team_name: 'crew', description: 'the crew' }),
          call('TeamCreate', { team_name: 'other' })
        ]
      },
      { text: 'done' }
    ])
    await h.prompt('go')
    const [first, second] = h.results()
    expect(first).toEqual({
      isError: false,
      output: `Team 'crew' created (${join(h.home, 'teams', 'crew', 'config.json')}). You lead it as team-lead@crew; the task tools now use its task list and SendMessage reaches its members by name.`
    })
    expect(second).toEqual({ isError: true, output: expect.stringContaining("already leads team 'crew'") })
    const config = new TeamStore(h.home).read('crew')
    expect(config).toMatchObject({ name: 'crew', description: 'the crew', leadAgentId: 'team-lead@crew' })
    expect(config.members).toEqual([
      expect.objectContaining({
        agentId: 'team-lead@crew',
        name: 'team-lead',
        backendType: 'main',
        cwd: h.work,
        model: 'claude-sonnet-5-5'
      })
    ])
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
    expect(deleted).toEqual({
      isError: false,
      output: "Team 'crew' deleted: its config, inboxes and task list are gone."
    })
    expect(existsSync(join(h.home, 'teams', 'crew'))).toBe(false)
    expect(existsSync(join(h.home, 'tasks', 'crew'))).toBe(false)
    // back on the session's own list
    expect(list!.output).toBe('No tasks found.')
    expect(h.session.team?.team()).toBeUndefined()
  })

  it("offers TeamCreate/TeamDelete to the leader only; a sync subagent shares the leader's task list in its own name", async () => {
    h = await startTeamHarness(
      [
        { tools: [call('TeamCreate', { team_name: 'crew' })] },
        { tools: [call('Agent', { subagent_type: 'general-purpose', description: 'helper', prompt: 'file a task' })] },
        { text: 'done' }
      ],
      {
        subagentTurns: {
          helper: [
            { tools: [call('TaskCreate', { subject: 'Found by the helper', description: '' })] },
            { text: 'filed {{last_tool_result}}' }
          ]
        }
      }
    )
    await h.prompt('go')
    const toolsOf = (name: string) =>
      (
        h!.server.requests().find((r) => r.agentName === name)!.body as unknown as { tools: Array<{ name: string }> }
      ).tools.map((t) => t.name)
    expect(toolsOf('team-lead').slice(-7)).toEqual([
      'SendMessage',
      'TaskCreate',
      'TaskGet',
      'TaskList',
      'TaskUpdate',
      'TeamCreate',
      'TeamDelete'
    ])
    const child = toolsOf('helper')
    expect(child).toEqual(expect.arrayContaining(['SendMessage', 'TaskCreate', 'TaskGet', 'TaskList', 'TaskUpdate']))
    expect(child).not.toContain('TeamCreate')
    expect(child).not.toContain('TeamDelete')
    expect(h.tasks('crew').get(1)).toMatchObject({ subject: 'Found by the helper' })
    expect(h.ofType('task_updated')).toEqual([expect.objectContaining({ agentName: 'helper' })])
  })

  it("TeamCreate takes a stale team's name over with a note, refuses a team whose leader lives in another process, and the session's end leaves its team stale", async () => {
    h = await startTeamHarness([
      {
        tools: [
          call('TeamCreate', { team_name: 'busy' }),
          call('TeamCreate', { team_name: 'crew' }),
          call('TaskList', {})
        ]
      },
      { text: 'done' }
    ])
    // 'crew': what a crashed leader left (config, an active teammate, a task); 'busy': led by a live process
    const teams = new TeamStore(h.home)
    await teams.create({
      name: 'crew',
      lead: { name: 'team-lead', agentType: 'main', model: 'm', backendType: 'main', cwd: h.work }
    })
    await h.addMembers('crew', ['alice'])
    await new TaskStore(h.home, 'crew').create({ subject: 'from the crashed run' })
    const leader = startChild(await buildChild(), {
      op: 'lead',
      home: h.home,
      team: 'busy',
      sessionId: 'other-session'
    })
    try {
      await leader.ready
      await h.prompt('go')
      const [busy, crew, list] = h.results()
      expect(busy).toEqual({
        isError: true,
        output: `Team 'busy' already exists: its leader session other-session is alive in process ${leader.proc.pid}. Choose another team_name.`
      })
      expect(crew!.isError).toBe(false)
      expect(crew!.output).toMatch(
        /^Note: a stale team 'crew' was in the way \(no leader session holds it[^)]*\)\); it was removed with its inboxes and task list, and this new team takes its name\.\nTeam 'crew' created/
      )
      expect(list!.output).toBe('No tasks found.')
      expect(teams.read('crew').members.map((m) => m.name)).toEqual(['team-lead'])
      expect(teams.read('busy')).toMatchObject({ leadAgentId: 'team-lead@busy' })
      expect(leaderStatus(h.home, 'crew')).toMatchObject({ state: 'alive', lease: { sessionId: h.session.sessionId } })
      // a new session (or the end of a run) closes this one: its team stays on disk, stale
      await h.session.close()
      expect(leaderStatus(h.home, 'crew')).toMatchObject({ state: 'stale' })
      expect(existsSync(join(h.home, 'teams', 'crew', 'config.json'))).toBe(true)
      expect(leaderStatus(h.home, 'busy').state).toBe('alive')
    } finally {
      leader.proc.kill('SIGKILL')
    }
  }, 60_000)
})
