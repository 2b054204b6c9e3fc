import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { buildChild, startChild } from '../../runtime/tasks/children.testkit'
import { TeamStore } from '../../runtime/teams'
import { UsageError } from '../io'
import { capture } from './cliCapture'
import { runCliText as binary } from '../cli.testkit'
import { teamCommand } from './team'

let home: string
beforeEach(async () => {
  home = mkdtempSync(join(tmpdir(), 'swarmdesk-cli-team-'))
  const store = new TeamStore(home)
  await store.create({
    name: 'review',
    description: 'code review',
    lead: { name: 'team-lead', agentType: 'main', model: 'm', backendType: 'main', cwd: '/w' }
  })
  await store.addMember('review', {
    name: 'alice',
    agentType: 'reviewer',
    model: 'm',
    backendType: 'worker',
    cwd: '/w'
  })
})
afterEach(() => rmSync(home, { recursive: true, force: true }))
const run = (...argv: string[]) => capture(home, () => teamCommand(argv))

describe('swarmdesk team', () => {
  it('lists teams and shows one, as JSON and as text', async () => {
    // made by the store alone, no session leads it: it is stale, and none of its members counts as active
    expect(JSON.parse((await run('list', '--json')).stdout)).toMatchObject([
      { name: 'review', members: [{ name: 'team-lead' }, { name: 'alice' }], leader: { state: 'stale' } }
    ])
    expect((await run('list')).stdout).toMatch(
      /^review {2}STALE, 2 members {2}code review \(no leader session holds it/
    )
    expect(JSON.parse((await run('show', '--team', 'review', '--json')).stdout)).toMatchObject({
      leadAgentId: 'team-lead@review'
    })
    const text = (await run('show', '--team', 'review')).stdout
    expect(text).toContain('review — code review')
    expect(text).toMatch(/alice\s+alice@review\s+reviewer\s+m\s+worker/)
  })

  it('treats an unknown team or subcommand as bad usage', async () => {
    await expect(run('show', '--team', 'nope')).rejects.toBeInstanceOf(UsageError)
    await expect(run('show')).rejects.toBeInstanceOf(UsageError)
    await expect(run('delete')).rejects.toBeInstanceOf(UsageError)
    await expect(run('delete', '--team', 'nope')).rejects.toBeInstanceOf(UsageError)
    await expect(run('frobnicate')).rejects.toBeInstanceOf(UsageError)
  })

  it('says which teams are stale and deletes one, never a team whose leader lives in another process (bin/swarmdesk)', async () => {
    const leader = startChild(await buildChild(), { op: 'lead', home, team: 'live', sessionId: 'live-session' })
    try {
      await leader.ready
      const list = await binary(home, ['team', 'list'])
      expect(list.code).toBe(0)
      expect(list.stdout).toMatch(/^live\s+1\/1 active\s*$/m)
      expect(list.stdout).toMatch(/^review\s+STALE, 2 members\s+code review \(no leader session holds it/m)
      expect(list.stdout).toContain('swarmdesk team delete --team NAME')
      const json = JSON.parse((await binary(home, ['team', 'list', '--json'])).stdout) as Array<{
        name: string
        leader: object
      }>
      expect(json.map((t) => [t.name, t.leader])).toEqual([
        ['live', { state: 'alive', sessionId: 'live-session', pid: leader.proc.pid }],
        ['review', { state: 'stale', reason: expect.stringContaining('no leader session') }]
      ])
      const refused = await binary(home, ['team', 'delete', '--team', 'live'])
      expect(refused).toMatchObject({ code: 1, stdout: '' })
      expect(refused.stderr).toBe(
        `swarmdesk team delete: Team 'live' is led by session live-session, alive in process ${leader.proc.pid}: it is not stale. Delete it from that session (TeamDelete), or end that session first.\n`
      )
      expect(existsSync(join(home, 'tasks', 'live', '1.json'))).toBe(true)
      const deleted = await binary(home, ['team', 'delete', '--team', 'review'])
      expect(deleted.code).toBe(0)
      expect(deleted.stdout).toMatch(
        /^Deleted stale team 'review' \(no leader session holds it.*\): its config, inboxes and task list are gone\.\n$/
      )
      expect(existsSync(join(home, 'teams', 'review'))).toBe(false)
      // the live leader's process dies: its team is stale from then on
      leader.proc.kill('SIGKILL')
      await leader.lines.catch(() => undefined)
      expect((await binary(home, ['team', 'list'])).stdout).toMatch(
        new RegExp(`^live\\s+STALE, 1 member\\s+\\(its leader process ${leader.proc.pid} is gone`, 'm')
      )
      expect((await binary(home, ['team', 'delete', '--team', 'live'])).code).toBe(0)
      expect(existsSync(join(home, 'tasks', 'live'))).toBe(false)
    } finally {
      leader.proc.kill('SIGKILL')
    }
  }, 180_000)
})
