import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { SettingsView } from '../../shared/settings'
import { PushLog } from './pushes.testkit'
import { WorkspaceService, type WorkspaceServiceOptions } from './service'
import { activeSettingsWatches } from './settingsWatch'

// A running workspace follows hand edits of its settings files (docs/permissions.md#reloading-while-it-runs),
// on real files and a real session: every step waits for the notice or push it causes, never a timer.

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

async function start(
  scenario = 'agents:\n  team-lead:\n    - text: "ok"\n',
  options: Partial<WorkspaceServiceOptions> = {}
): Promise<{ s: WorkspaceService; pushes: PushLog }> {
  const file = join(home, 's.yaml')
  writeFileSync(file, scenario)
  const s = (service = await WorkspaceService.start({ cwd: work, home, scenario: file, env: {}, ...options }))
  const pushes = new PushLog()
  s.onPush(pushes.record)
  return { s, pushes }
}

/** Resolves with the message of the first notice from now on that `match` accepts. */
function notice(s: WorkspaceService, match: RegExp): Promise<string> {
  return new Promise((resolve) => {
    const sub = s.onPush((channel, payload) => {
      const e = payload as { type?: string; message?: string }
      if (channel === 'runtime.event' && e.type === 'notice' && match.test(e.message ?? '')) {
        sub.dispose()
        resolve(e.message!)
      }
    })
  })
}

const reloads = (pushes: PushLog): string[] =>
  pushes
    .of('runtime.event')
    .flatMap((e) => (e.type === 'notice' && /^Settings reloaded/.test(e.message) ? [e.message] : []))
const host = (name: string) => ({ name, destination: 'dev@box.invalid', workspace: '/srv/swarm', command: 'swarmdesk' })
const hostsOf = async (s: WorkspaceService): Promise<string[] | undefined> =>
  ((await s.handle('settings.get', {})) as SettingsView).effective?.teammateHosts

describe('a settings file edited by hand', () => {
  it('reaches the live settings from each kind of source: user, project, local (its folder made after the start) and --settings', async () => {
    writeFileSync(join(home, 'extra.json'), '{}')
    const { s, pushes } = await start(undefined, { settingsFiles: [join(home, 'extra.json')], trustProject: true })
    const sources = [
      join(home, 'settings.json'),
      join(work, '.swarmdesk', 'settings.json'),
      join(work, '.swarmdesk', 'settings.local.json'),
      join(home, 'extra.json')
    ]
    const names: string[] = []
    for (const [i, file] of sources.entries()) {
      names.push(`h${i}`)
      const reloaded = notice(s, /^Settings reloaded from/)
      mkdirSync(join(file, '..'), { recursive: true })
      writeFileSync(file, JSON.stringify({ teammateHosts: [host(`h${i}`)] }))
      expect(await reloaded).toContain(`Settings reloaded from ${file}:`)
      // a list setting: the highest source that sets it wins
      expect(await hostsOf(s)).toEqual([`h${i}`])
      expect(pushes.of('settings.changed').at(-1)).toMatchObject({ effective: { teammateHosts: [`h${i}`] } })
      expect(pushes.of('settings.changed').at(-1)?.reloadProblem).toBeUndefined()
    }
    expect(reloads(pushes)).toHaveLength(sources.length)
  })

  it("takes a deny rule added by hand on the leader's next tool call", async () => {
    const { s, pushes } = await start(
      'agents:\n  team-lead:\n    - tools: [{ name: Bash, input: { command: "echo hi" } }]\n    - when: "Permission denied"\n      text: "refused by a rule"\n    - text: "it ran"\n',
      { mode: 'bypassPermissions' }
    )
    const reloaded = notice(s, /^Settings reloaded from/)
    mkdirSync(join(work, '.swarmdesk'))
    writeFileSync(
      join(work, '.swarmdesk', 'settings.local.json'),
      JSON.stringify({ permissions: { deny: ['Bash(echo:*)'] } })
    )
    await reloaded
    await s.handle('leader.prompt', { text: 'go' })
    await s.whenIdle()
    const said = pushes.of('runtime.event').flatMap((e) => (e.type === 'assistant_text' ? [e.text] : []))
    expect(said.join('\n')).toContain('refused by a rule')
  })

  it('keeps the last good settings through a bad edit, says which file and what is wrong, and applies the fix', async () => {
    const file = join(home, 'settings.json')
    writeFileSync(file, JSON.stringify({ teammateHosts: [host('good')] }))
    const { s, pushes } = await start()

    let refused = notice(s, /^Settings not reloaded/)
    writeFileSync(file, '{"teammateHosts": [')
    let message = await refused
    expect(message).toContain(file)
    expect(message).toMatch(/is not valid JSON.*fix the syntax/)
    expect(message).toContain('keeps its previous settings')
    expect(((await s.handle('team.spawnOptions', {})) as { hosts?: string[] }).hosts).toEqual(['good'])
    // the view of a user file that is not JSON is refused as before, naming it
    await expect(s.handle('settings.get', {})).rejects.toThrow(`${file} is not valid JSON`)
    expect(pushes.of('settings.changed').at(-1)?.reloadProblem).toContain(file)

    // a schema error: the same, naming the field
    refused = notice(s, /^Settings not reloaded/)
    writeFileSync(file, JSON.stringify({ teammateHosts: [host('good')], stuckAfterMinutes: 'soon' }))
    message = await refused
    expect(message).toContain(`${file} (stuckAfterMinutes)`)
    const shown = (await s.handle('settings.get', {})) as SettingsView
    expect(shown.reloadProblem).toContain('stuckAfterMinutes')
    expect(shown.effective?.teammateHosts).toEqual(['good'])

    const reloaded = notice(s, /^Settings reloaded from/)
    writeFileSync(file, JSON.stringify({ teammateHosts: [host('fixed')] }))
    await reloaded
    expect(await hostsOf(s)).toEqual(['fixed'])
    expect(((await s.handle('settings.get', {})) as SettingsView).reloadProblem).toBeUndefined()
    expect(pushes.of('settings.changed').at(-1)).toEqual({
      effective: expect.objectContaining({ teammateHosts: ['fixed'] })
    })
  })

  it('is not reloaded a second time after a save in the Settings view', async () => {
    const { s, pushes } = await start()
    await s.handle('settings.update', { values: { stuckAfterMinutes: 7 } })
    expect(reloads(pushes)).toHaveLength(1)
    // a hand edit after the save: the save's own write, seen first, must have added no reload of its own
    const marker = notice(s, /^Settings reloaded from/)
    mkdirSync(join(work, '.swarmdesk'))
    writeFileSync(join(work, '.swarmdesk', 'settings.json'), JSON.stringify({ paneScrollbackLines: 500 }))
    expect(await marker).toContain(join(work, '.swarmdesk', 'settings.json'))
    expect(reloads(pushes)).toEqual([
      expect.stringMatching(/^Settings reloaded: /),
      expect.stringMatching(/^Settings reloaded from /)
    ])
    expect(reloads(pushes)[1]).not.toContain(join(home, 'settings.json'))
  })

  it('stops being watched when the workspace closes', async () => {
    const before = activeSettingsWatches()
    const { s } = await start()
    expect(activeSettingsWatches()).toBe(before + 1)
    await s.dispose()
    service = undefined
    expect(activeSettingsWatches()).toBe(before)
  })
})
