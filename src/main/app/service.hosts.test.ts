import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { WorkspaceSnapshot } from '../../shared/ipc'
import type { SettingsView } from '../../shared/settings'
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
  it('offers the hosts of the setting, refuses a host on a team on files or an unknown one with the reason, and follows the setting when the settings reload', async () => {
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

    // the setting changes while the workspace runs: the next reload (a save in the Settings view) follows it
    writeFileSync(
      join(work, '.swarmdesk', 'settings.json'),
      JSON.stringify({
        teammateHosts: [
          { name: 'box', ...host },
          { name: 'tpu', ...host }
        ]
      })
    )
    const view = (await s.handle('settings.update', { values: { stuckAfterMinutes: 7 } })) as SettingsView
    expect(view.effective?.teammateHosts).toEqual(['box', 'tpu'])
    expect(((await s.handle('settings.get', {})) as SettingsView).effective?.teammateHosts).toEqual(['box', 'tpu'])
    expect(((await s.handle('team.spawnOptions', {})) as { hosts?: string[] }).hosts).toEqual(['box', 'tpu'])
    // and so do the spawn's checks: tpu is known now (refused only for the team on files), gpu no longer
    await expect(s.handle('teammate.spawn', { name: 'bob', prompt: 'Build it.', host: 'tpu' })).rejects.toThrow(
      /A teammate on host 'tpu' needs the team on a NATS JetStream transport/
    )
    await expect(s.handle('teammate.spawn', { name: 'bob', prompt: 'Build it.', host: 'gpu' })).rejects.toThrow(
      "No teammate host named 'gpu': the teammateHosts setting has 'box', 'tpu'."
    )
  }, 60_000)
})
