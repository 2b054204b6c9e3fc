/**
 * Keeping an "always allow" of a network question (docs/sandbox.md#network): the host goes into the
 * local settings' `sandbox.network.allowedDomains`, every other key kept; a malformed file is left
 * alone and the answer holds for the session only; a host named as a pattern is never written.
 * Real files in a temp workspace.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import type { PermissionPromptRequest } from '../../../shared/permissions'
import { AllowDomainError, allowDomainLocally, keepAlwaysAllowedDomains, localSettingsFile } from './alwaysAllow'
import { networkPromptRequest } from './network'

const base = mkdtempSync(join(tmpdir(), 'sbx-always-'))
afterAll(() => rmSync(base, { recursive: true, force: true }))
let n = 0
const workspace = (local?: string): string => {
  const dir = join(base, `w${n++}`)
  mkdirSync(join(dir, '.swarmdesk'), { recursive: true })
  if (local !== undefined) writeFileSync(localSettingsFile(dir), local)
  return dir
}
const read = (dir: string): unknown => JSON.parse(readFileSync(localSettingsFile(dir), 'utf8'))

describe('allowDomainLocally', () => {
  it('adds the host once, keeping every other key, by rename', () => {
    const dir = workspace(
      JSON.stringify({ env: { A: '1' }, sandbox: { enabled: true, network: { deniedDomains: ['x.io'] } } })
    )
    allowDomainLocally(dir, 'example.com')
    allowDomainLocally(dir, 'EXAMPLE.com')
    allowDomainLocally(dir, 'api.example.org')
    expect(read(dir)).toEqual({
      env: { A: '1' },
      sandbox: {
        enabled: true,
        network: { deniedDomains: ['x.io'], allowedDomains: ['example.com', 'api.example.org'] }
      }
    })
    expect(readdirSync(join(dir, '.swarmdesk'))).toEqual(['settings.local.json'])
  })

  it('creates the file when missing, and refuses a file of another shape, leaving it as it was', () => {
    const fresh = join(base, 'fresh')
    allowDomainLocally(fresh, 'example.com')
    expect(read(fresh)).toEqual({ sandbox: { network: { allowedDomains: ['example.com'] } } })
    for (const bad of ['{not json', '[]', '{"sandbox": 3}', '{"sandbox": {"network": {"allowedDomains": "x"}}}']) {
      const dir = workspace(bad)
      expect(() => allowDomainLocally(dir, 'example.com')).toThrow(AllowDomainError)
      expect(readFileSync(localSettingsFile(dir), 'utf8')).toBe(bad)
    }
  })
})

describe('keepAlwaysAllowedDomains', () => {
  const question = (host: string): PermissionPromptRequest =>
    networkPromptRequest({ requestId: 'net-1', host, agentId: 'team-lead', agentName: 'team-lead' })

  it('writes the host of an "always allow", not of "allow once" or a deny; a pattern is offered nothing', async () => {
    const dir = workspace()
    const reports: Array<{ host: string; error?: string }> = []
    const answers = [
      { decision: 'allow', by: 'user' },
      { decision: 'deny', by: 'user' },
      { decision: 'allow', by: 'user', alwaysAllowRule: 'example.com' }
    ] as const
    let i = 0
    const prompter = keepAlwaysAllowedDomains({ prompt: async () => answers[i++]! }, dir, (r) => reports.push(r))
    await prompter.prompt(question('example.com'), new AbortController().signal)
    await prompter.prompt(question('example.com'), new AbortController().signal)
    expect(reports).toEqual([])
    expect(question('example.com').suggestions).toEqual(['example.com'])
    expect(question('*.com').suggestions).toEqual([])
    expect((await prompter.prompt(question('example.com'), new AbortController().signal)).decision).toBe('allow')
    expect(reports).toEqual([{ host: 'example.com', file: localSettingsFile(dir) }])
    expect(read(dir)).toEqual({ sandbox: { network: { allowedDomains: ['example.com'] } } })
  })

  it('refuses to keep a rule other than the plain host asked about; the answer still stands', async () => {
    const dir = workspace()
    const reports: Array<{ host: string; error?: string }> = []
    const prompter = keepAlwaysAllowedDomains(
      { prompt: async () => ({ decision: 'allow', by: 'user', alwaysAllowRule: '*.com' }) },
      dir,
      (r) => reports.push(r)
    )
    expect((await prompter.prompt(question('example.com'), new AbortController().signal)).decision).toBe('allow')
    expect(reports[0]?.error).toContain('for this session only')
    expect(readdirSync(join(dir, '.swarmdesk'))).toEqual([])
  })
})
