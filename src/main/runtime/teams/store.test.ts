import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { assignColor, TEAM_COLORS } from '../../../shared/teams'
import { TaskStore } from '../tasks'
import {
  TeamActiveError,
  TeamExistsError,
  TeamFileError,
  TeamMemberError,
  TeamNameError,
  TeamNotFoundError,
  TeamStore,
  uniqueMemberName,
  type NewMember
} from '.'

let home: string
let store: TeamStore
const lead: NewMember = {
  name: 'team-lead',
  agentType: 'main',
  model: 'claude-sonnet-4-5',
  backendType: 'main',
  cwd: '/w'
}
const mate = (name: string): NewMember => ({
  name,
  agentType: 'general-purpose',
  model: 'claude-haiku-4-5',
  backendType: 'worker',
  cwd: '/w'
})

beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'swarmdesk-teams-'))
  store = new TeamStore(home)
})
afterEach(() => rmSync(home, { recursive: true, force: true }))

describe('team store', () => {
  it('creates a team with its leader, sanitising the name, and refuses to create it twice', async () => {
    const config = await store.create({ name: 'Code Review', description: 'review', lead })
    expect(config).toMatchObject({
      schemaVersion: 1,
      name: 'code-review',
      leadAgentId: 'team-lead@code-review',
      hiddenPaneIds: [],
      allowedPaths: []
    })
    expect(config.members[0]).toMatchObject({
      agentId: 'team-lead@code-review',
      isActive: true,
      mode: 'default',
      planModeRequired: false
    })
    expect(store.read('code-review')).toEqual(config)
    await expect(store.create({ name: 'code-review', lead })).rejects.toBeInstanceOf(TeamExistsError)
  })

  it('refuses names shaped like paths with a clear error', async () => {
    await expect(store.create({ name: '../../etc', lead })).rejects.toThrow(/looks like a path/)
    await expect(store.create({ name: '!!!', lead })).rejects.toBeInstanceOf(TeamNameError)
    expect(() => store.read('a/b')).toThrow(TeamNameError)
    await store.create({ name: 't', lead })
    await expect(store.addMember('t', mate('x/../y'))).rejects.toBeInstanceOf(TeamNameError)
  })

  it('adds, updates, deactivates and removes members, with distinct colours', async () => {
    await store.create({ name: 't', lead })
    const names = ['alice', 'bob', 'carol', 'dave', 'erin', 'frank', 'grace']
    for (const n of names) await store.addMember('t', mate(n))
    const colors = store.read('t').members.map((m) => m.color)
    expect(new Set(colors).size).toBe(TEAM_COLORS.length)
    expect(store.read('t').members[1]).toMatchObject({ agentId: 'alice@t', name: 'alice' })
    await expect(store.addMember('t', mate('alice'))).rejects.toBeInstanceOf(TeamMemberError)
    expect(uniqueMemberName(store.read('t'), 'alice')).toBe('alice-2')
    await store.updateMember('t', 'bob', { paneId: 'p7', mode: 'plan' })
    await store.setActive('t', 'carol', false)
    await store.removeMember('t', 'dave')
    const after = store.read('t')
    expect(after.members.find((m) => m.name === 'bob')).toMatchObject({ paneId: 'p7', mode: 'plan' })
    expect(after.members.find((m) => m.name === 'carol')!.isActive).toBe(false)
    expect(after.members.map((m) => m.name)).not.toContain('dave')
    await expect(store.removeMember('t', 'nobody')).rejects.toBeInstanceOf(TeamMemberError)
  })

  it('gives a name the same first-choice colour every time', () => {
    expect(assignColor('alice', [])).toBe(assignColor('alice', []))
    const first = assignColor('alice', [])
    expect(assignColor('alice', [first])).not.toBe(first)
  })

  it('refuses to delete while a teammate is active, naming it, then deletes config and task list', async () => {
    await store.create({ name: 't', lead })
    await store.addMember('t', mate('alice'))
    await store.addMember('t', mate('bob'))
    await new TaskStore(home, 't').create({ subject: 'x' })
    await store.setActive('t', 'bob', false)
    const error = await store.delete('t').catch((e: unknown) => e)
    expect(error).toBeInstanceOf(TeamActiveError)
    expect((error as Error).message).toContain('alice')
    expect((error as Error).message).not.toContain('bob')
    await store.setActive('t', 'alice', false)
    await store.delete('t')
    expect(existsSync(join(home, 'teams/t'))).toBe(false)
    expect(existsSync(join(home, 'tasks/t'))).toBe(false)
    expect(() => store.read('t')).toThrow(TeamNotFoundError)
  })

  it('reports a hand-edited invalid config by file name and still lists the other teams', async () => {
    await store.create({ name: 'good', lead })
    await store.create({ name: 'bad', lead })
    writeFileSync(join(home, 'teams/bad/config.json'), '{ "name": "bad", ')
    const { teams, problems } = store.list()
    expect(teams.map((t) => t.name)).toEqual(['good'])
    expect(problems).toHaveLength(1)
    expect(problems[0]).toBeInstanceOf(TeamFileError)
    expect(problems[0].file).toBe(join(home, 'teams/bad/config.json'))
  })
})
