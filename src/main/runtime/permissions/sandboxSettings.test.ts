import path from 'node:path'
import { beforeEach, describe, expect, it } from 'vitest'
import { SettingsError } from './errors'
import { loadPermissionSettings } from './settings'
import { effectiveSandbox } from './sandboxSettings'
import { makeWorkspace, type TestWorkspace } from './workspace.testkit'

describe('sandbox settings', () => {
  let t: TestWorkspace
  let project: string
  let user: string
  beforeEach(async () => {
    t = await makeWorkspace()
    user = path.join(t.home, 'settings.json')
    project = path.join(t.ws, '.swarmdesk', 'settings.json')
  })
  const load = (trustProject = false) =>
    loadPermissionSettings({ cwd: t.ws, home: t.home, userHome: t.userHome, trustProject })

  it('is off with Claude Code defaults when no file sets it', async () => {
    const s = await load()
    expect(s.sandbox).toEqual({
      enabled: false,
      autoAllowBashIfSandboxed: true,
      excludedCommands: [],
      allowUnsandboxedCommands: true,
      failIfUnavailable: false,
      filesystem: { allowWrite: [], denyWrite: [], denyRead: [] },
      network: { allowedDomains: [], deniedDomains: [], allowLocalBinding: false }
    })
  })

  it('unions lists, takes single values from the highest source and resolves paths', async () => {
    await t.writeSettings(user, {
      sandbox: { enabled: true, filesystem: { denyRead: ['~/.ssh'] }, network: { allowedDomains: ['a.test'] } }
    })
    await t.writeSettings(project, {
      sandbox: {
        failIfUnavailable: true,
        filesystem: { denyWrite: ['secrets'] },
        network: { deniedDomains: ['b.test'] }
      }
    })
    const s = await load()
    expect(s.sandbox.enabled).toBe(true)
    expect(s.sandbox.failIfUnavailable).toBe(true)
    expect(s.sandbox.filesystem.denyRead).toEqual([path.join(t.userHome, '.ssh')])
    expect(s.sandbox.filesystem.denyWrite).toEqual([path.join(t.ws, 'secrets')])
    expect(s.sandbox.network).toEqual({
      allowedDomains: ['a.test'],
      deniedDomains: ['b.test'],
      allowLocalBinding: false
    })
  })

  it('ignores what an untrusted project would loosen, with a warning for each, and keeps what tightens', async () => {
    await t.writeSettings(user, { sandbox: { enabled: true, allowUnsandboxedCommands: false } })
    await t.writeSettings(project, {
      sandbox: {
        enabled: false,
        excludedCommands: ['docker'],
        allowUnsandboxedCommands: true,
        filesystem: { allowWrite: ['/'], denyRead: ['.env'] },
        network: { allowedDomains: ['evil.test'], allowLocalBinding: true }
      }
    })
    const s = await load()
    expect(s.sandbox.enabled).toBe(true)
    expect(s.sandbox.excludedCommands).toEqual([])
    expect(s.sandbox.allowUnsandboxedCommands).toBe(false)
    expect(s.sandbox.filesystem.allowWrite).toEqual([])
    expect(s.sandbox.filesystem.denyRead).toEqual([path.join(t.ws, '.env')])
    expect(s.sandbox.network.allowedDomains).toEqual([])
    expect(s.sandbox.network.allowLocalBinding).toBe(false)
    for (const key of [
      'sandbox.enabled',
      'sandbox.excludedCommands',
      'sandbox.allowUnsandboxedCommands',
      'sandbox.filesystem.allowWrite',
      'sandbox.network.allowedDomains',
      'sandbox.network.allowLocalBinding'
    ]) {
      expect(s.warnings.some((w) => w.includes(`"${key}"`) && w.includes(project))).toBe(true)
    }
    const trusted = await load(true)
    expect(trusted.sandbox.enabled).toBe(false)
    expect(trusted.sandbox.excludedCommands).toEqual(['docker'])
  })

  it('an untrusted project turning the sandbox on does not make Bash run without asking', async () => {
    await t.writeSettings(project, { sandbox: { enabled: true, autoAllowBashIfSandboxed: true } })
    expect((await load()).sandbox).toMatchObject({ enabled: true, autoAllowBashIfSandboxed: false })
    expect((await load(true)).sandbox).toMatchObject({ enabled: true, autoAllowBashIfSandboxed: true })
  })

  it('a misspelt sandbox key fails closed, naming the field', async () => {
    await t.writeSettings(user, { sandbox: { enabeld: true } })
    await expect(load()).rejects.toThrow(SettingsError)
    await expect(load()).rejects.toThrow(/sandbox/)
  })

  it("merges Edit and Read rules into its paths; an untrusted project's Edit allow rule does not widen writes", async () => {
    await t.writeSettings(user, {
      permissions: {
        allow: ['Edit(//data/**)', 'Edit(*.md)'],
        deny: ['Edit(./keys/**)', 'Read(~/.aws)', 'Read(**/.env)']
      }
    })
    await t.writeSettings(project, { permissions: { allow: ['Edit(//etc/**)'] } })
    const fsOf = async (trust: boolean) => effectiveSandbox(await load(trust), t.ws).filesystem
    const untrusted = await fsOf(false)
    expect(untrusted.allowWrite).toEqual(['/data'])
    expect(untrusted.denyWrite).toEqual([path.join(t.ws, 'keys')])
    expect(untrusted.denyRead).toEqual([path.join(t.userHome, '.aws')])
    expect((await fsOf(true)).allowWrite).toEqual(['/data', '/etc'])
  })
})
