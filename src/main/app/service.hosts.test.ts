import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { WorkspaceSnapshot } from '../../shared/ipc'
import { WorkspaceService } from './service'

// The dashboard's spawn form and teammate hosts (docs/hosts.md#spawning-on-a-host): the form is
// offered the hosts of the setting, and a spawn naming one goes through the same checks as the
// Agent tool's.

let home: string
let work: string
let service: WorkspaceService | undefined

beforeEach(() => {
  home = realpathSync(mkdtempSync(join(tmpdir(), 'swarmdesk-home-')))
  work = realpathSync(mkdtempSync(join(tmpdir(), 'swarmdesk-work-')))
  execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: work })
})
afterEach(async () => {
  await service?.dispose()
  service = undefined
  rmSync(home, { recursive: true, force: true })
  rmSync(work, { recursive: true, force: true })
})

const TEAM = `agents:
  team-lead:
    - when: "make a team"
      tools: [{ name: TeamCreate, input: { team_name: crew } }]
${Array.from({ length: 6 }, () => '    - { text: "Noted." }').join('\n')}
`

describe('the spawn form and teammate hosts', () => {
  it('offers the hosts of the setting, and refuses a host on a team on files or an unknown one with the reason', async () => {
    const scenario = join(home, 's.yaml')
    writeFileSync(scenario, TEAM)
    mkdirSync(join(work, '.swarmdesk'))
    const host = { destination: 'dev@box.invalid', workspace: '/srv/swarm', command: 'swarmdesk' }
    writeFileSync(
      join(work, '.swarmdesk', 'settings.json'),
      JSON.stringify({
        teammateHosts: [
          { name: 'box', ...host },
          { name: 'gpu', ...host }
        ]
      })
    )
    const s = (service = await WorkspaceService.start({
      cwd: work,
      home,
      scenario,
      env: {},
      mode: 'bypassPermissions'
    }))
    await s.handle('leader.prompt', { text: 'make a team' })
    const deadline = Date.now() + 20_000
    while (((await s.handle('workspace.snapshot', {})) as WorkspaceSnapshot).team !== 'crew') {
      if (Date.now() > deadline) throw new Error('timed out waiting for the team')
      await new Promise((r) => setTimeout(r, 50))
    }
    const options = (await s.handle('team.spawnOptions', {})) as { hosts?: string[] }
    expect(options.hosts).toEqual(['box', 'gpu'])
    await expect(s.handle('teammate.spawn', { name: 'bob', prompt: 'Build it.', host: 'box' })).rejects.toThrow(
      /needs the team on a NATS JetStream transport/
    )
    await expect(s.handle('teammate.spawn', { name: 'bob', prompt: 'Build it.', host: 'nope' })).rejects.toThrow(
      "No teammate host named 'nope': the teammateHosts setting has 'box', 'gpu'."
    )
  }, 60_000)
})
