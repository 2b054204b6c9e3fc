import { mkdir, symlink, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { resolveToolSubject } from '../../cli/toolSubjects'
import { GrepTool } from '../tools/files/grep'
import { makeToolContext } from '../tools/tools.testkit'
import { BYPASS_CASES, SETTINGS_CASES, type BypassCase } from './bypassCases.testkit'
import { fill, fillInput, makeBypassFixture, type BypassFixture } from './bypassFixture.testkit'
import { PermissionEngine } from './engine'
import { SettingsError } from './errors'
import { fileSystemCase } from './paths'
import { loadPermissionSettings, type LoadedSettings } from './settings'

/**
 * The bypass regression suite through the API (issue 10; the same table runs through the CLI in
 * cli/commands/permissionsCheck.bypass.test.ts). Tool inputs are mapped to subjects by the real
 * tools' own mapping, as the agent loop does.
 */
let fx: BypassFixture
let settings: LoadedSettings

beforeAll(async () => {
  fx = await makeBypassFixture()
  settings = await loadPermissionSettings({
    cwd: fx.ws,
    home: fx.home,
    userHome: fx.userHome,
    extraSettingsFiles: [fx.sessionSettings]
  })
})

async function decideCase(c: BypassCase, engine = new PermissionEngine(settings)) {
  const subject = resolveToolSubject(c.tool, fillInput(c.input, fx), fx.ws)
  return engine.decide(subject, { cwd: fx.ws, mode: c.mode ?? 'default', tool: c.tool })
}

describe('permission bypass classes (API)', () => {
  it('has at least ten cases in every class', () => {
    const counts = new Map<string, number>()
    for (const c of BYPASS_CASES) counts.set(c.cls, (counts.get(c.cls) ?? 0) + 1)
    expect([...counts.keys()].sort()).toEqual(['compound', 'prefix', 'protected', 'quoting', 'side-effect', 'symlink'])
    for (const [cls, n] of counts) expect(n, cls).toBeGreaterThanOrEqual(10)
  })

  it.each(
    BYPASS_CASES.map(
      (c) =>
        [
          `${c.cls}: ${c.tool} ${JSON.stringify(c.input)}${c.mode ? ` [${c.mode}]` : ''} → ${c.expect} (${c.why})`,
          c
        ] as const
    )
  )('%s', async (_name, c) => {
    const d = await decideCase(c)
    expect({ decision: d.decision, reason: d.reason }).toEqual({ decision: c.expect, reason: expect.any(String) })
    if (c.reason) expect(d.reason).toContain(fill(c.reason, fx))
  })
})

describe('links made during the session', () => {
  it('decides on the file system as it is now: a link the agent makes after an allowed write is seen on the next call', async () => {
    const engine = new PermissionEngine(settings)
    const c: BypassCase = {
      cls: 'symlink',
      tool: 'Write',
      input: { file_path: 'notes-later.md', content: 'x' },
      mode: 'acceptEdits',
      expect: 'allow',
      why: ''
    }
    expect((await decideCase(c, engine)).decision).toBe('allow')
    await symlink(path.join(fx.ws, '.swarmdesk', 'settings.local.json'), path.join(fx.ws, 'notes-later.md'))
    const after = await decideCase(c, engine)
    expect(after.decision).toBe('ask')
    expect(after.reason).toContain(path.join(fx.ws, '.swarmdesk', 'settings.local.json'))
  })
})

describe('what an allowed search reads', () => {
  it('Grep does not read through symlinked files met while walking the tree (their targets were never judged)', async () => {
    const ctx = makeToolContext(fx.ws)
    const out = await GrepTool.call(
      GrepTool.inputSchema.parse({ pattern: 'SECRET|ok', output_mode: 'files_with_matches' }),
      ctx
    )
    expect(out.content).toContain(path.join(fx.ws, 'linkdir', 'ok.ts'))
    expect(out.content).not.toContain('zz')
    expect(out.content).not.toContain('link-out')
  })
})

describe('case-insensitive file systems (modelled through the fileSystemCase seam)', () => {
  afterEach(() => {
    fileSystemCase.insensitive = false
  })

  it.each([
    ['Read', { file_path: 'SECRETS/key.pem' }, 'deny', '{ws}/secrets/key.pem'],
    ['Read', { file_path: 'Secrets/KEY.PEM' }, 'deny', '{ws}/secrets/key.pem'],
    ['Write', { file_path: '.Git/config', content: 'x' }, 'ask', '{ws}/.git/config'],
    [
      'Write',
      { file_path: '.SWARMDESK/settings.local.json', content: 'x' },
      'ask',
      '{ws}/.swarmdesk/settings.local.json'
    ],
    ['Write', { file_path: 'SECRETS/new.pem', content: 'x' }, 'deny', '{ws}/secrets/new.pem'],
    ['Read', { file_path: '{base}/W/APP_EVIL/x' }, 'ask', '{base}/w/app_evil/x'],
    ['Read', { file_path: '{base}/W/LIB/x' }, 'allow', ''],
    ['Bash', { command: 'cat SECRETS/key.pem' }, 'deny', 'Read(./secrets/**)'],
    ['Bash', { command: 'echo a && RM -rf src' }, 'deny', 'Bash(rm:*)'],
    ['Bash', { command: '/BIN/Rm -rf src' }, 'deny', 'Bash(rm:*)']
  ] as const)('%s %j → %s, naming the file as it is spelled on disk', async (tool, input, expected, named) => {
    fileSystemCase.insensitive = true
    const d = await decideCase({ cls: 'prefix', tool, input, mode: 'acceptEdits', expect: expected, why: '' })
    expect(d.decision).toBe(expected)
    expect(d.reason).toContain(fill(named, fx))
  })

  it('keeps case-sensitive matching where the file system is case-sensitive', async () => {
    const d = await decideCase({
      cls: 'prefix',
      tool: 'Read',
      input: { file_path: 'SECRETS/key.pem' },
      expect: 'allow',
      why: ''
    })
    expect(d).toMatchObject({ decision: 'allow' })
  })
})

describe('settings that must not load or must not apply (API)', () => {
  it.each(SETTINGS_CASES.map((c, i) => [c.why, c, i] as const))('%s', async (_why, c, i) => {
    const ws = path.join(fx.base, 'settings-cases', String(i))
    await mkdir(path.join(ws, '.swarmdesk'), { recursive: true })
    for (const [rel, data] of Object.entries(c.files))
      await writeFile(path.join(ws, rel), typeof data === 'string' ? data : JSON.stringify(data))
    const load = loadPermissionSettings({
      cwd: ws,
      home: fx.home,
      userHome: fx.userHome,
      trustProject: c.trust,
      extraSettingsFiles: c.session ? [path.join(ws, c.session)] : []
    })
    if ('error' in c.expect) {
      await expect(load).rejects.toThrow(SettingsError)
      await expect(load).rejects.toThrow(c.expect.error)
      return
    }
    const loaded = await load
    for (const key of c.expect.dropped)
      expect(
        loaded.warnings.some((w) => w.includes(`"${key}"`)),
        key
      ).toBe(true)
    expect(loaded.warnings).toHaveLength(c.expect.dropped.length)
    if (c.expect.dropped.length > 0) {
      expect(loaded).toMatchObject({ defaultMode: 'default', env: {}, hooks: [], additionalDirectories: [] })
      expect(loaded.apiBaseUrl).toBeUndefined()
    }
    const d = await new PermissionEngine(loaded).decide(
      { kind: 'bash', command: 'touch x' },
      { cwd: ws, mode: loaded.defaultMode }
    )
    expect(d.decision).toBe(c.expect.bashTouch)
  })
})
