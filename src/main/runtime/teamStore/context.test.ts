import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { EventBus } from '../events/bus'
import { TeamStore } from '../teams'
import { createTeamContext, sessionTaskListName } from './context'

let home: string | undefined
afterEach(() => {
  if (home) rmSync(home, { recursive: true, force: true })
  home = undefined
})

const SESSION = '3F2A9C1D-0000-4000-8000-000000000000'

describe('team context', () => {
  it('a resumed session leads the team it created, and uses its task list', async () => {
    home = mkdtempSync(join(tmpdir(), 'swarmdesk-teamctx-'))
    const teamFile = join(home, 'session', 'team.json')
    const first = createTeamContext({
      home,
      sessionId: SESSION,
      bus: new EventBus(),
      leaderName: 'team-lead',
      teamFile
    })
    expect(first.taskListName()).toBe('session-3f2a9c1d')
    await new TeamStore(home).create({
      name: 'crew',
      lead: { name: 'team-lead', agentType: 'team-lead', model: 'm', backendType: 'main', cwd: home }
    })
    first.setTeam('crew')
    const resumed = createTeamContext({
      home,
      sessionId: SESSION,
      bus: new EventBus(),
      leaderName: 'team-lead',
      teamFile
    })
    expect(resumed.team()).toBe('crew')
    expect(resumed.taskListName()).toBe('crew')
  })

  it('forgets a team that was deleted, by TeamDelete or from outside', async () => {
    home = mkdtempSync(join(tmpdir(), 'swarmdesk-teamctx-'))
    const teamFile = join(home, 'session', 'team.json')
    const teams = new TeamStore(home)
    const ctx = createTeamContext({ home, sessionId: SESSION, bus: new EventBus(), leaderName: 'team-lead', teamFile })
    await teams.create({
      name: 'crew',
      lead: { name: 'team-lead', agentType: 'team-lead', model: 'm', backendType: 'main', cwd: home }
    })
    ctx.setTeam('crew')
    await teams.delete('crew')
    expect(
      createTeamContext({ home, sessionId: SESSION, bus: new EventBus(), leaderName: 'team-lead', teamFile }).team()
    ).toBeUndefined()
    ctx.setTeam(undefined)
    expect(existsSync(teamFile)).toBe(false)
    expect(sessionTaskListName(SESSION)).toBe('session-3f2a9c1d')
  })
})
