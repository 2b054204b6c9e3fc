import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { TeamStore } from '../../runtime/teams'
import { UsageError } from '../io'
import { capture } from './cliCapture'
import { teamCommand } from './team'

let home: string
beforeEach(async () => {
  home = mkdtempSync(join(tmpdir(), 'swarmdesk-cli-team-'))
  const store = new TeamStore(home)
  await store.create({ name: 'review', description: 'code review', lead: { name: 'team-lead', agentType: 'main', model: 'm', backendType: 'main', cwd: '/w' } })
  await store.addMember('review', { name: 'alice', agentType: 'reviewer', model: 'm', backendType: 'worker', cwd: '/w' })
})
afterEach(() => rmSync(home, { recursive: true, force: true }))
const run = (...argv: string[]) => capture(home, () => teamCommand(argv))

describe('swarmdesk team', () => {
  it('lists teams and shows one, as JSON and as text', async () => {
    expect(JSON.parse((await run('list', '--json')).stdout)).toMatchObject([{ name: 'review', members: [{ name: 'team-lead' }, { name: 'alice' }] }])
    expect((await run('list')).stdout).toBe('review  2/2 active  code review\n')
    expect(JSON.parse((await run('show', '--team', 'review', '--json')).stdout)).toMatchObject({ leadAgentId: 'team-lead@review' })
    const text = (await run('show', '--team', 'review')).stdout
    expect(text).toContain('review — code review')
    expect(text).toMatch(/alice\s+alice@review\s+reviewer\s+m\s+worker/)
  })

  it('treats an unknown team or subcommand as bad usage', async () => {
    await expect(run('show', '--team', 'nope')).rejects.toBeInstanceOf(UsageError)
    await expect(run('show')).rejects.toBeInstanceOf(UsageError)
    await expect(run('delete')).rejects.toBeInstanceOf(UsageError)
  })
})
