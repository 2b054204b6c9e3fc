/**
 * The Bash sandbox through the UI contract (docs/sandbox.md#settings, docs/ui.md#the-workspace-ui):
 * Settings shows and sets `enabled`, `autoAllowBashIfSandboxed` and `network.allowedDomains` in
 * the user settings file (its other sandbox keys kept), refuses a domain that is not one, and
 * answers the sandbox as it applies now; the snapshot carries it for the panes' mark, and the
 * leader's next command runs sandboxed. A real WorkspaceService, scripted model, real PTYs, bwrap.
 */
import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { WorkspaceSnapshot } from '../../shared/ipc'
import type { SettingsView } from '../../shared/settings'
import { forwarderAvailable, sandboxAvailability } from '../runtime/sandbox'
import { PushLog } from './pushes.testkit'
import { WorkspaceService } from './service'

let home: string
let work: string
let outside: string
let service: WorkspaceService | undefined

beforeEach(() => {
  home = realpathSync(mkdtempSync(join(tmpdir(), 'swarmdesk-home-')))
  work = realpathSync(mkdtempSync(join(tmpdir(), 'swarmdesk-work-')))
  outside = realpathSync(mkdtempSync(join(tmpdir(), 'swarmdesk-outside-')))
  execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: work })
})
afterEach(async () => {
  await service?.dispose()
  service = undefined
  for (const dir of [home, work, outside]) rmSync(dir, { recursive: true, force: true })
})

const userFile = (): string => join(home, 'settings.json')

describe.runIf(sandboxAvailability().ok)('the sandbox in Settings', () => {
  it('is shown off, switched on with allowed domains (other keys kept), and applies to the next command', async () => {
    writeFileSync(userFile(), JSON.stringify({ sandbox: { excludedCommands: ['docker'] } }))
    const scenario = join(home, 's.yaml')
    writeFileSync(
      scenario,
      `agents:\n  team-lead:\n    - tools: [{ name: Bash, input: { command: "touch ${outside}/x.txt" } }]\n    - text: "done"\n`
    )
    service = await WorkspaceService.start({ cwd: work, home, scenario, env: {}, mode: 'bypassPermissions' })
    const s = service
    const before = (await s.handle('settings.get', {})) as SettingsView
    expect(before.values.sandbox).toBeUndefined()
    expect(before.effective?.sandbox).toMatchObject({ enabled: false, active: false, autoAllowBashIfSandboxed: true })
    // what this machine has of what it needs, and the rest of the block as it applies
    expect(before.effective?.sandbox?.requirements).toEqual([
      { name: 'bubblewrap', ok: true, detail: 'installed (bwrap)' },
      { name: 'user namespaces', ok: true, detail: 'usable: bwrap starts' },
      forwarderAvailable()
        ? { name: 'socat', ok: true, detail: expect.stringContaining('installed') }
        : { name: 'socat', ok: false, detail: expect.stringContaining('apt-get install socat') }
    ])
    expect(before.effective?.sandbox).toMatchObject({
      excludedCommands: ['docker'],
      allowUnsandboxedCommands: true,
      failIfUnavailable: false,
      filesystem: { allowWrite: [], denyWrite: [], denyRead: [] },
      deniedDomains: [],
      allowLocalBinding: false
    })
    expect(((await s.handle('workspace.snapshot', {})) as WorkspaceSnapshot).sandbox?.active).toBe(false)

    await expect(
      s.handle('settings.update', { values: { sandbox: { allowedDomains: ['https://example.com/'] } } })
    ).rejects.toThrow(/values\.sandbox\.allowedDomains\.0: a domain is a host name/)

    const after = (await s.handle('settings.update', {
      values: { sandbox: { enabled: true, allowedDomains: ['*.example.com', 'registry.npmjs.org'] } }
    })) as SettingsView
    expect(JSON.parse(readFileSync(userFile(), 'utf8'))).toEqual({
      sandbox: {
        excludedCommands: ['docker'],
        enabled: true,
        network: { allowedDomains: ['*.example.com', 'registry.npmjs.org'] }
      }
    })
    expect(after.values.sandbox).toEqual({ enabled: true, allowedDomains: ['*.example.com', 'registry.npmjs.org'] })
    expect(after.effective?.sandbox).toMatchObject({
      enabled: true,
      active: true,
      allowedDomains: ['*.example.com', 'registry.npmjs.org']
    })
    expect(((await s.handle('workspace.snapshot', {})) as WorkspaceSnapshot).sandbox?.active).toBe(true)

    // the leader's next command runs sandboxed: its write outside the workspace is stopped and named
    const pushes = new PushLog()
    s.onPush(pushes.record)
    await s.handle('leader.prompt', { text: 'go' })
    await s.whenIdle()
    const results = pushes.of('runtime.event').flatMap((e) => (e.type === 'tool_result' ? [e.output] : []))
    expect(results.join('\n')).toContain(`Sandbox blocked a write to ${outside}/x.txt`)

    await s.handle('settings.update', { values: { sandbox: null } })
    expect(JSON.parse(readFileSync(userFile(), 'utf8'))).toEqual({ sandbox: { excludedCommands: ['docker'] } })
  })

  it('shows what an untrusted project would loosen as not applying until the workspace is trusted', async () => {
    mkdirSync(join(work, '.swarmdesk'))
    writeFileSync(
      join(work, '.swarmdesk', 'settings.json'),
      JSON.stringify({
        permissions: { deny: ['Read(./secrets/**)'] },
        sandbox: {
          enabled: true,
          excludedCommands: ['curl'],
          filesystem: { allowWrite: ['/'] },
          network: { allowedDomains: ['evil.example'], deniedDomains: ['ads.example'] }
        }
      })
    )
    service = await WorkspaceService.start({ cwd: work, home, env: {}, mode: 'default' })
    const untrusted = ((await service.handle('settings.get', {})) as SettingsView).effective!.sandbox!
    // tightening applies at once; loosening waits for trust
    expect(untrusted).toMatchObject({
      enabled: true,
      autoAllowBashIfSandboxed: false,
      excludedCommands: [],
      allowedDomains: [],
      deniedDomains: ['ads.example'],
      filesystem: { allowWrite: [], denyRead: [join(work, 'secrets')] }
    })
    const trusted = ((await service.handle('settings.trust', { trusted: true })) as SettingsView).effective!.sandbox!
    expect(trusted).toMatchObject({
      excludedCommands: ['curl'],
      allowedDomains: ['evil.example'],
      filesystem: { allowWrite: ['/'] },
      autoAllowBashIfSandboxed: true
    })
  })
})
