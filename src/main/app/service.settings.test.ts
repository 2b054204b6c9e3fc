import { execFileSync } from 'node:child_process'
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { SettingsView } from '../../shared/settings'
import { resolveModel } from '../runtime/model/pricing'
import { IpcRequestError, WorkspaceService, type WorkspaceServiceOptions } from './service'
import { PushLog } from './pushes.testkit'

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

async function start(options: Partial<WorkspaceServiceOptions> = {}): Promise<WorkspaceService> {
  const scenario = join(home, 's.yaml')
  writeFileSync(scenario, 'agents:\n  team-lead:\n    - text: "ok"\n')
  service = await WorkspaceService.start({ cwd: work, home, scenario, env: {}, ...options })
  return service
}

const userFile = (): string => join(home, 'settings.json')
const view = async (s: WorkspaceService): Promise<SettingsView> => (await s.handle('settings.get', {})) as SettingsView

/** A project settings file whose TaskCreated hook appends to `hook-ran.txt` in the workspace, plus an env and a base URL. */
function writeProjectHooks(): void {
  mkdirSync(join(work, '.swarmdesk'), { recursive: true })
  writeFileSync(
    join(work, '.swarmdesk', 'settings.json'),
    JSON.stringify({
      hooks: {
        TaskCreated: [
          { hooks: [{ type: 'command', command: 'echo created >> "$SWARMDESK_PROJECT_DIR/hook-ran.txt"' }] }
        ]
      },
      env: { FOO: 'bar' },
      apiBaseUrl: 'http://127.0.0.1:9/'
    })
  )
}

describe('Settings requests', () => {
  it('shows the user file, the data directory and the environment-only key of a host without a keychain', async () => {
    writeFileSync(
      userFile(),
      JSON.stringify({ teammateBackend: 'process', permissions: { allow: ['Bash(npm test:*)'] } })
    )
    const s = await start({ env: { ANTHROPIC_API_KEY: 'sk-from-env' } })
    const v = await view(s)
    expect(v.file).toBe(userFile())
    expect(v.values).toEqual({ teammateBackend: 'process', rules: { allow: ['Bash(npm test:*)'], ask: [], deny: [] } })
    expect(v.dataDir).toEqual({ path: home, fromEnv: false })
    expect(v.apiKey).toMatchObject({ source: 'environment', storage: 'environmentOnly' })
    expect(JSON.stringify(v)).not.toContain('sk-from-env')
  })

  it('saves a valid rule and the other values atomically, keeping keys the view does not know', async () => {
    writeFileSync(
      userFile(),
      JSON.stringify({
        someOtherTool: { keep: true },
        permissions: { additionalDirectories: ['/opt/x'] },
        env: { A: '1' }
      })
    )
    const s = await start()
    const v = (await s.handle('settings.update', {
      values: {
        rules: { allow: ['Bash(npm run test:*)'], ask: [], deny: ['Read(./secrets/**)'] },
        defaultMode: 'acceptEdits',
        stuckAfterMinutes: 0.5,
        model: 'haiku',
        autoBackgroundSeconds: 30
      }
    })) as SettingsView
    const onDisk = JSON.parse(readFileSync(userFile(), 'utf8'))
    expect(onDisk).toEqual({
      someOtherTool: { keep: true },
      env: { A: '1' },
      permissions: {
        additionalDirectories: ['/opt/x'],
        allow: ['Bash(npm run test:*)'],
        ask: [],
        deny: ['Read(./secrets/**)'],
        defaultMode: 'acceptEdits'
      },
      stuckAfterMinutes: 0.5,
      model: 'haiku',
      autoBackgroundSeconds: 30
    })
    expect(v.values).toMatchObject({
      defaultMode: 'acceptEdits',
      stuckAfterMinutes: 0.5,
      model: 'haiku',
      rules: { deny: ['Read(./secrets/**)'] }
    })
    // written by temp file + rename: no temp file is left beside it
    expect(readdirSync(home).filter((f) => f.includes('settings.json'))).toEqual(['settings.json'])
    // the stuck threshold applies at once
    expect((await s.handle('workspace.snapshot', {})) as { stuckAfterMinutes: number }).toMatchObject({
      stuckAfterMinutes: 0.5
    })
  })

  it("starts the leader on the settings' model", async () => {
    writeFileSync(userFile(), JSON.stringify({ model: 'haiku' }))
    const s = await start()
    expect(await s.handle('workspace.snapshot', {})).toMatchObject({ model: resolveModel('haiku') })
  })

  it("applies saved rules to the leader's next tool call at once", async () => {
    const scenario = join(home, 'deny.yaml')
    writeFileSync(
      scenario,
      'agents:\n  team-lead:\n    - tools: [{ name: Bash, input: { command: "echo hi" } }]\n    - when: "Permission denied"\n      text: "refused by a rule"\n    - text: "it ran"\n'
    )
    service = await WorkspaceService.start({ cwd: work, home, scenario, env: {}, mode: 'bypassPermissions' })
    const pushes = new PushLog()
    service.onPush(pushes.record)
    await service.handle('settings.update', { values: { rules: { allow: [], ask: [], deny: ['Bash(echo:*)'] } } })
    await service.handle('leader.prompt', { text: 'go' })
    await service.whenIdle()
    const said = pushes.of('runtime.event').flatMap((e) => (e.type === 'assistant_text' ? [e.text] : []))
    expect(said.join('\n')).toContain('refused by a rule')
  })

  it('keeps both of two changes saved at the same moment', async () => {
    const s = await start()
    await Promise.all([
      s.handle('settings.update', { values: { model: 'haiku' } }),
      s.handle('settings.update', { values: { teammateBackend: 'process' } }),
      s.handle('settings.update', { values: { forkSubagents: true } })
    ])
    expect(JSON.parse(readFileSync(userFile(), 'utf8'))).toEqual({
      model: 'haiku',
      teammateBackend: 'process',
      forkSubagents: true
    })
  })

  it('removes a key set to null', async () => {
    writeFileSync(userFile(), JSON.stringify({ model: 'opus', permissions: { defaultMode: 'plan' } }))
    const s = await start()
    await s.handle('settings.update', { values: { model: null, defaultMode: null } })
    expect(JSON.parse(readFileSync(userFile(), 'utf8'))).toEqual({})
  })

  it('rejects an invalid rule naming it and what is wrong, and saves nothing', async () => {
    const before = JSON.stringify({ permissions: { allow: ['Read'] }, model: 'opus' })
    writeFileSync(userFile(), before)
    const s = await start()
    const refused = s.handle('settings.update', {
      values: { model: 'haiku', rules: { allow: ['Read', 'bash(ls)'], ask: [], deny: [] } }
    })
    await expect(refused).rejects.toBeInstanceOf(IpcRequestError)
    await expect(refused).rejects.toThrow(
      /The allow rule "bash\(ls\)": tool names are case-sensitive.*Nothing was saved/
    )
    await expect(
      s.handle('settings.update', { values: { rules: { allow: [], ask: [], deny: ['Bash(ls && rm -rf /)'] } } })
    ).rejects.toThrow(/The deny rule "Bash\(ls && rm -rf \/\)": the Bash specifier must be one plain command/)
    expect(readFileSync(userFile(), 'utf8')).toBe(before)
  })

  it('rejects bad payloads with messages naming the field', async () => {
    const s = await start()
    await expect(s.handle('settings.update', { values: { stuckAfterMinutes: -1 } })).rejects.toThrow(
      /values\.stuckAfterMinutes: stuckAfterMinutes must be more than 0/
    )
    await expect(s.handle('settings.update', { values: { apiBaseUrl: 'ftp://x' } })).rejects.toThrow(
      /values\.apiBaseUrl: the base URL must be an http\(s\) URL/
    )
    await expect(s.handle('settings.update', { values: { teammateBackend: 'tmux' } })).rejects.toThrow(
      /values\.teammateBackend/
    )
    await expect(s.handle('settings.update', { values: { hooks: {} } })).rejects.toThrow(
      /Bad payload for 'settings.update'.*hooks/
    )
    await expect(s.handle('settings.update', { values: { defaultMode: 'bubble' } })).rejects.toThrow(
      /values\.defaultMode/
    )
    await expect(s.handle('settings.trust', { trusted: 'yes' })).rejects.toThrow(/trusted/)
    expect(existsSync(userFile())).toBe(false)
  })

  it('refuses to overwrite a user file that is not JSON', async () => {
    const s = await start()
    writeFileSync(userFile(), '{ not json')
    await expect(s.handle('settings.update', { values: { model: 'haiku' } })).rejects.toThrow(
      /is not valid JSON.*fix it by hand/
    )
    expect(readFileSync(userFile(), 'utf8')).toBe('{ not json')
  })

  it('refuses to store or clear an API key without a keychain (the web host)', async () => {
    const s = await start()
    await expect(s.handle('settings.setApiKey', { apiKey: 'sk-ant-x' })).rejects.toThrow(
      /no keychain.*ANTHROPIC_API_KEY/
    )
    await expect(s.handle('settings.clearApiKey', {})).rejects.toThrow(/no keychain/)
    await expect(s.handle('settings.setApiKey', { apiKey: '  ' })).rejects.toThrow(/the API key is empty/)
  })

  it('lists an untrusted project’s hooks as ignored, and runs them once trust is granted', async () => {
    writeProjectHooks()
    const s = await start()
    const hookFile = join(work, 'hook-ran.txt')
    const before = await view(s)
    expect(before.project).toMatchObject({ trusted: false, via: 'none' })
    const projectFile = join(work, '.swarmdesk', 'settings.json')
    expect(before.project.ignored).toEqual([
      { key: 'hooks', file: projectFile },
      { key: 'env', file: projectFile },
      { key: 'apiBaseUrl', file: projectFile }
    ])
    expect(before.project.hooks).toEqual([
      { event: 'TaskCreated', file: projectFile, scope: 'project', commands: 1, active: false }
    ])
    await s.handle('tasks.create', { subject: 'before trust' })
    expect(existsSync(hookFile)).toBe(false)

    const after = (await s.handle('settings.trust', { trusted: true })) as SettingsView
    expect(after.project).toMatchObject({ trusted: true, via: 'file', ignored: [] })
    expect(after.project.hooks[0]).toMatchObject({ event: 'TaskCreated', active: true })
    expect(JSON.parse(readFileSync(join(home, 'trusted.json'), 'utf8')).workspaces).toEqual([
      { path: work, trustedAt: expect.any(String) }
    ])
    await s.handle('tasks.create', { subject: 'after trust' })
    expect(readFileSync(hookFile, 'utf8')).toBe('created\n')

    const revoked = (await s.handle('settings.trust', { trusted: false })) as SettingsView
    expect(revoked.project).toMatchObject({ trusted: false, via: 'none' })
    expect(JSON.parse(readFileSync(join(home, 'trusted.json'), 'utf8')).workspaces).toEqual([])
    await s.handle('tasks.create', { subject: 'after revoking' })
    expect(readFileSync(hookFile, 'utf8')).toBe('created\n')
  })

  it('keeps 1,000 lines of pane scrollback unless a setting says otherwise: the highest source wins, and a save applies at once', async () => {
    const snapshotLines = async (s: WorkspaceService) =>
      ((await s.handle('workspace.snapshot', {})) as { paneScrollbackLines?: number }).paneScrollbackLines
    const s = await start()
    expect(await snapshotLines(s)).toBe(1_000)
    const v = (await s.handle('settings.update', { values: { paneScrollbackLines: 5_000 } })) as SettingsView
    expect(JSON.parse(readFileSync(userFile(), 'utf8'))).toEqual({ paneScrollbackLines: 5_000 })
    expect(v.values.paneScrollbackLines).toBe(5_000)
    expect(await snapshotLines(s)).toBe(5_000)
    await s.handle('settings.update', { values: { paneScrollbackLines: null } })
    expect(await snapshotLines(s)).toBe(1_000)
    await s.dispose()

    // the project's file is a higher source than the user's (docs/permissions.md#permissions), and needs no trust for this key
    writeFileSync(userFile(), JSON.stringify({ paneScrollbackLines: 5_000 }))
    mkdirSync(join(work, '.swarmdesk'), { recursive: true })
    writeFileSync(join(work, '.swarmdesk', 'settings.json'), JSON.stringify({ paneScrollbackLines: 300 }))
    const project = await start()
    expect(await snapshotLines(project)).toBe(300)
    expect((await view(project)).values.paneScrollbackLines).toBe(5_000)
    // every view says what applies now, so a page that saves the user file's value applies the project's
    expect((await view(project)).effective).toMatchObject({ stuckAfterMinutes: 5, paneScrollbackLines: 300 })
    const saved = (await project.handle('settings.update', {
      values: { paneScrollbackLines: 7_000, stuckAfterMinutes: 2 }
    })) as SettingsView
    expect(saved.values).toMatchObject({ paneScrollbackLines: 7_000, stuckAfterMinutes: 2 })
    expect(saved.effective).toMatchObject({ stuckAfterMinutes: 2, paneScrollbackLines: 300 })
    await project.dispose()
  })

  it('refuses a pane scrollback that is not a whole number of lines from 100 to 100,000, in a save and in a settings file', async () => {
    const s = await start()
    await expect(s.handle('settings.update', { values: { paneScrollbackLines: 99 } })).rejects.toThrow(
      /values\.paneScrollbackLines: paneScrollbackLines must be at least 100 lines/
    )
    await expect(s.handle('settings.update', { values: { paneScrollbackLines: 100_001 } })).rejects.toThrow(
      /values\.paneScrollbackLines: paneScrollbackLines is at most 100000 lines/
    )
    await expect(s.handle('settings.update', { values: { paneScrollbackLines: 2000.5 } })).rejects.toThrow(
      /values\.paneScrollbackLines: paneScrollbackLines must be a whole number of lines, like 2000/
    )
    await expect(s.handle('settings.update', { values: { paneScrollbackLines: '2000' } })).rejects.toThrow(
      /values\.paneScrollbackLines: paneScrollbackLines must be a number of lines, like 2000/
    )
    expect(existsSync(userFile())).toBe(false)
    expect(((await s.handle('workspace.snapshot', {})) as { paneScrollbackLines?: number }).paneScrollbackLines).toBe(
      1_000
    )
    await s.dispose()

    writeFileSync(userFile(), JSON.stringify({ paneScrollbackLines: 50 }))
    await expect(start()).rejects.toThrow(/paneScrollbackLines must be at least 100 lines/)
  })

  it('cannot revoke the trust of --trust-project', async () => {
    writeProjectHooks()
    const s = await start({ trustProject: true })
    expect((await view(s)).project).toMatchObject({ trusted: true, via: 'flag' })
    await expect(s.handle('settings.trust', { trusted: false })).rejects.toThrow(/--trust-project/)
  })
})
