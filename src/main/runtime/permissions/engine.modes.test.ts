import path from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import type { PermissionMode, PermissionSubject } from '../../../shared/permissions'
import { makeWorkspace, type TestWorkspace } from './workspace.testkit'

type Row = [mode: PermissionMode, subject: PermissionSubject, expected: 'allow' | 'ask' | 'deny']

describe('modes (no rules)', () => {
  let t: TestWorkspace
  beforeAll(async () => {
    t = await makeWorkspace()
  })
  const read = (p: string): PermissionSubject => ({ kind: 'read', path: p })
  const edit = (p: string): PermissionSubject => ({ kind: 'edit', path: p })
  const rows = (): Row[] => [
    ['default', read('src/a.ts'), 'allow'],
    ['default', read('/etc/hosts'), 'ask'],
    ['default', edit('src/a.ts'), 'ask'],
    ['default', { kind: 'tool', tool: 'WebFetch', readOnly: false }, 'ask'],
    ['default', { kind: 'tool', tool: 'TodoWrite', readOnly: true }, 'allow'],
    ['default', { kind: 'none' }, 'allow'],
    ['acceptEdits', edit('src/a.ts'), 'allow'],
    ['acceptEdits', edit('src/new/file.ts'), 'allow'],
    ['acceptEdits', edit('/etc/hosts'), 'ask'],
    ['acceptEdits', edit('.git/config'), 'ask'],
    ['acceptEdits', edit('.swarmdesk/settings.json'), 'ask'],
    ['acceptEdits', edit('.bashrc'), 'ask'],
    ['plan', read('src/a.ts'), 'allow'],
    ['plan', edit('src/a.ts'), 'deny'],
    ['plan', { kind: 'tool', tool: 'WebFetch', readOnly: false }, 'deny'],
    ['dontAsk', read('src/a.ts'), 'allow'],
    ['dontAsk', edit('src/a.ts'), 'deny'],
    ['dontAsk', read('/etc/hosts'), 'deny'],
    ['bypassPermissions', edit('/etc/hosts'), 'allow'],
    ['bypassPermissions', edit('.git/config'), 'allow'],
    ['bubble', edit('src/a.ts'), 'ask'],
    ['bubble', read('src/a.ts'), 'allow']
  ]
  it('decides each mode as docs/permissions.md#permissions says', async () => {
    for (const [mode, subject, expected] of rows()) {
      const d = await t.decide(subject, mode)
      expect(d.decision, `${mode} ${JSON.stringify(subject)}: ${d.reason}`).toBe(expected)
    }
  })

  it('says plan mode is read-only when it denies', async () => {
    expect((await t.decide(edit('src/a.ts'), 'plan')).reason).toMatch(/plan mode is read-only/)
  })
})

describe('rules', () => {
  let t: TestWorkspace
  beforeAll(async () => {
    t = await makeWorkspace()
    await t.writeSettings(path.join(t.home, 'settings.json'), {
      permissions: {
        deny: ['Read(./.env)', 'Agent(general-purpose)', 'Edit(//etc/**)'],
        ask: ['Edit(./src/generated/**)'],
        allow: [
          'Edit(./src/**)',
          'Edit(./.git/hooks/**)',
          'Edit',
          'Read(~/notes/**)',
          'Agent(Explore)',
          'WebFetch',
          'Read(/shared/**)'
        ]
      }
    })
  })

  it('applies deny before ask before allow', async () => {
    expect((await t.decide({ kind: 'edit', path: 'src/generated/x.ts' })).decision).toBe('ask')
    expect((await t.decide({ kind: 'edit', path: 'src/x.ts' })).decision).toBe('allow')
    expect((await t.decide({ kind: 'read', path: '.env' })).decision).toBe('deny')
  })

  it('lets deny win in bypassPermissions', async () => {
    expect((await t.decide({ kind: 'read', path: '.env' }, 'bypassPermissions')).decision).toBe('deny')
    expect((await t.decide({ kind: 'edit', path: '/etc/hosts' }, 'bypassPermissions')).decision).toBe('deny')
  })

  it('reports the first matching rule with its file', async () => {
    const d = await t.decide({ kind: 'edit', path: 'src/x.ts' })
    expect(d.rule).toEqual({ rule: 'Edit(./src/**)', source: path.join(t.home, 'settings.json') })
  })

  it('lets an allow rule that names a protected path open it, but not a generic Edit rule', async () => {
    expect((await t.decide({ kind: 'edit', path: '.git/hooks/pre-commit' })).decision).toBe('allow')
    expect((await t.decide({ kind: 'edit', path: '.git/config' })).decision).toBe('ask')
    expect((await t.decide({ kind: 'edit', path: '.claude/settings.json' })).decision).toBe('ask')
  })

  it("resolves ~/ against the person's home and /x against the settings file's directory", async () => {
    expect((await t.decide({ kind: 'read', path: path.join(t.userHome, 'notes', 'a.md') })).decision).toBe('allow')
    expect((await t.decide({ kind: 'read', path: path.join(t.home, 'shared', 'a.md') })).decision).toBe('allow')
    expect((await t.decide({ kind: 'read', path: path.join(t.outside, 'secret.txt') })).decision).toBe('ask')
  })

  it('matches tool rules by name and specifier', async () => {
    const engine = await t.engine()
    const ctx = { cwd: t.ws, mode: 'default' as const }
    expect(
      (await engine.decide({ kind: 'tool', tool: 'Agent', specifier: 'Explore', readOnly: false }, ctx)).decision
    ).toBe('allow')
    expect(
      (await engine.decide({ kind: 'tool', tool: 'Agent', specifier: 'general-purpose', readOnly: false }, ctx))
        .decision
    ).toBe('deny')
    expect(
      (await engine.decide({ kind: 'tool', tool: 'Agent', specifier: 'Plan', readOnly: false }, ctx)).decision
    ).toBe('ask')
    expect(
      (await engine.decide({ kind: 'tool', specifier: 'x', readOnly: false }, { ...ctx, tool: 'WebFetch' })).decision
    ).toBe('allow')
  })

  it('asks before a spawn hands an agent more than its spawner has, whatever the allow rules say', async () => {
    const engine = await t.engine()
    const spawn = (grantsMode: 'acceptEdits' | 'bypassPermissions'): PermissionSubject => ({
      kind: 'tool',
      tool: 'Agent',
      specifier: 'Explore',
      readOnly: true,
      grantsMode
    })
    const decide = async (subject: PermissionSubject, mode: PermissionMode) =>
      (await engine.decide(subject, { cwd: t.ws, mode })).decision
    // Agent(Explore) is allowed by the workspace's rules: that covers starting it, not the mode it gets.
    expect(await decide({ kind: 'tool', tool: 'Agent', specifier: 'Explore', readOnly: true }, 'default')).toBe('allow')
    const table: Array<[PermissionMode, 'acceptEdits' | 'bypassPermissions', 'allow' | 'ask' | 'deny']> = [
      ['default', 'acceptEdits', 'ask'],
      ['default', 'bypassPermissions', 'ask'],
      ['bubble', 'acceptEdits', 'ask'],
      ['acceptEdits', 'acceptEdits', 'allow'],
      ['acceptEdits', 'bypassPermissions', 'ask'],
      ['plan', 'acceptEdits', 'deny'],
      ['dontAsk', 'bypassPermissions', 'deny'],
      ['bypassPermissions', 'bypassPermissions', 'allow'],
      ['bypassPermissions', 'acceptEdits', 'allow']
    ]
    for (const [mode, grants, expected] of table)
      expect(await decide(spawn(grants), mode), `${mode} spawning into ${grants}`).toBe(expected)
    // A deny rule still wins, even for a spawner in bypassPermissions.
    expect(
      await decide(
        { kind: 'tool', tool: 'Agent', specifier: 'general-purpose', readOnly: true, grantsMode: 'acceptEdits' },
        'bypassPermissions'
      )
    ).toBe('deny')
  })

  it('applies session allow rules for the agent that got them', async () => {
    const engine = await t.engine()
    const subject = { kind: 'bash', command: 'npm test' } as const
    expect((await engine.decide(subject, { cwd: t.ws, mode: 'default' })).decision).toBe('ask')
    const d = await engine.decide(subject, { cwd: t.ws, mode: 'default', sessionAllowRules: ['Bash(npm test:*)'] })
    expect(d).toMatchObject({ decision: 'allow', rule: { rule: 'Bash(npm test:*)', source: 'session' } })
  })

  it('suggests rules for "Always allow"', async () => {
    const engine = await t.engine()
    expect(engine.suggestRules({ kind: 'bash', command: 'npm test -- --watch && git status' }, t.ws)).toEqual([
      'Bash(npm test:*)',
      'Bash(git status:*)'
    ])
    expect(engine.suggestRules({ kind: 'bash', command: 'bash -c "make" && sudo make install' }, t.ws)).toEqual([
      'Bash(make:*)',
      'Bash(make install:*)'
    ])
    expect(engine.suggestRules({ kind: 'edit', path: 'src/deep/a.ts' }, t.ws)).toEqual(['Edit(./src/**)'])
    expect(engine.suggestRules({ kind: 'read', path: '/etc/hosts' }, t.ws)).toEqual(['Read(//etc/**)'])
    expect(engine.suggestRules({ kind: 'tool', tool: 'Agent', specifier: 'Explore', readOnly: false }, t.ws)).toEqual([
      'Agent(Explore)'
    ])
  })

  it('lets a bare tool name match every call of it, and a name without / match at any depth', async () => {
    const t2 = await makeWorkspace()
    await t2.writeSettings(path.join(t2.ws, '.swarmdesk', 'settings.json'), {
      permissions: { deny: ['Read(*.pem)', 'WebSearch'], ask: ['Read'] }
    })
    expect((await t2.decide({ kind: 'read', path: 'deep/dir/key.pem' })).decision).toBe('deny')
    expect((await t2.decide({ kind: 'read', path: 'key.pem' })).decision).toBe('deny')
    expect((await t2.decide({ kind: 'read', path: 'src/a.ts' })).decision).toBe('ask')
    expect((await t2.decide({ kind: 'read', path: '/etc/hosts' })).decision).toBe('ask')
    expect(
      (await t2.decide({ kind: 'tool', tool: 'WebSearch', specifier: 'q', readOnly: true }, 'bypassPermissions'))
        .decision
    ).toBe('deny')
  })

  it('treats additionalDirectories like the workspace for reads and acceptEdits, never for protected files', async () => {
    const t3 = await makeWorkspace()
    await t3.writeSettings(path.join(t3.home, 'settings.json'), {
      permissions: { additionalDirectories: [t3.outside] }
    })
    expect((await t3.decide({ kind: 'read', path: path.join(t3.outside, 'secret.txt') })).decision).toBe('allow')
    expect((await t3.decide({ kind: 'edit', path: path.join(t3.outside, 'new.txt') })).decision).toBe('ask')
    expect((await t3.decide({ kind: 'edit', path: path.join(t3.outside, 'new.txt') }, 'acceptEdits')).decision).toBe(
      'allow'
    )
    expect((await t3.decide({ kind: 'edit', path: path.join(t3.outside, '.zshrc') }, 'acceptEdits')).decision).toBe(
      'ask'
    )
    expect((await t3.decide({ kind: 'bash', command: `cat ${t3.outside}/secret.txt` })).decision).toBe('allow')
  })
})
