import { mkdir, symlink, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { canonicalPath, isWithin, protectedReason } from './paths'
import { makeWorkspace, type TestWorkspace } from './workspace.testkit'

describe('canonical paths', () => {
  let t: TestWorkspace
  beforeAll(async () => {
    t = await makeWorkspace()
    await symlink(t.outside, path.join(t.ws, 'out-link'))
    await symlink(path.join(t.outside, 'not-yet.txt'), path.join(t.ws, 'dangling'))
    await symlink('../outside', path.join(t.ws, 'src', 'rel-link'))
    await mkdir(path.join(t.base, 'ws_evil'))
  })

  it('resolves .. segments', async () => {
    expect(await canonicalPath('src/../../outside/secret.txt', t.ws)).toBe(path.join(t.outside, 'secret.txt'))
  })

  it('resolves a link inside the workspace that points outside', async () => {
    expect(await canonicalPath('out-link/secret.txt', t.ws)).toBe(path.join(t.outside, 'secret.txt'))
  })

  it('resolves a dangling link by reading it', async () => {
    expect(await canonicalPath('dangling', t.ws)).toBe(path.join(t.outside, 'not-yet.txt'))
  })

  it('resolves .. after a link physically, as the kernel does', async () => {
    // src/rel-link -> ../outside resolves to <base>/ws/outside (does not exist); `..` of it is <base>/ws
    expect(await canonicalPath('src/rel-link/..', t.ws)).toBe(t.ws)
  })

  it('keeps new files under their longest existing ancestor', async () => {
    expect(await canonicalPath('src/new/dir/file.ts', t.ws)).toBe(path.join(t.ws, 'src', 'new', 'dir', 'file.ts'))
  })

  it('throws on a symlink loop instead of spinning', async () => {
    await symlink(path.join(t.ws, 'loop-b'), path.join(t.ws, 'loop-a'))
    await symlink(path.join(t.ws, 'loop-a'), path.join(t.ws, 'loop-b'))
    await expect(canonicalPath('loop-a/x', t.ws)).rejects.toThrow(/too many symbolic links/)
  })

  it('compares whole segments', () => {
    expect(isWithin('/w/app_evil/x', '/w/app')).toBe(false)
    expect(isWithin('/w/app/x', '/w/app')).toBe(true)
    expect(isWithin('/w/app', '/w/app')).toBe(true)
  })

  it('protects .git, .swarmdesk, .claude below the root and shell rc files anywhere', () => {
    const root = '/w/app'
    expect(protectedReason('/w/app/.git/hooks/pre-commit', root, [])).toBeDefined()
    expect(protectedReason('/w/app/sub/.claude/settings.json', root, [])).toBeDefined()
    expect(protectedReason('/home/u/.zshrc', root, [])).toBeDefined()
    expect(protectedReason('/w/app/src/a.ts', root, [])).toBeUndefined()
    expect(
      protectedReason('/w/app/.swarmdesk/worktrees/agent-1/src/a.ts', '/w/app/.swarmdesk/worktrees/agent-1', [])
    ).toBeUndefined()
  })
})

describe('path escapes through the engine', () => {
  let t: TestWorkspace
  beforeAll(async () => {
    t = await makeWorkspace()
    await symlink(t.outside, path.join(t.ws, 'out-link'))
    await symlink(path.join(t.outside, 'planted.sh'), path.join(t.ws, 'dangling'))
    await mkdir(path.join(t.base, 'ws_evil'))
    await writeFile(path.join(t.base, 'ws_evil', 'x'), '')
  })

  it('asks for a read through .. out of the workspace', async () => {
    expect((await t.decide({ kind: 'read', path: '../outside/secret.txt' })).decision).toBe('ask')
  })

  it('asks for a read through a symlink that points outside', async () => {
    expect((await t.decide({ kind: 'read', path: 'out-link/secret.txt' })).decision).toBe('ask')
  })

  it('asks for a Write through a dangling link pointing outside, even in acceptEdits', async () => {
    expect((await t.decide({ kind: 'edit', path: path.join(t.ws, 'dangling') }, 'acceptEdits')).decision).toBe('ask')
  })

  it('asks when a path loops', async () => {
    await symlink(path.join(t.ws, 'loop'), path.join(t.ws, 'loop'))
    expect((await t.decide({ kind: 'read', path: 'loop/x' })).decision).toBe('ask')
  })

  it('asks for a sibling directory sharing the prefix', async () => {
    expect((await t.decide({ kind: 'edit', path: `${t.ws}_evil/x` }, 'acceptEdits')).decision).toBe('ask')
    expect((await t.decide({ kind: 'read', path: `${t.ws}_evil/x` })).decision).toBe('ask')
  })

  it('does not let an allow rule for the workspace cover a sibling', async () => {
    await t.writeSettings(path.join(t.home, 'settings.json'), { permissions: { allow: [`Edit(/${t.ws}/**)`] } })
    expect((await t.decide({ kind: 'edit', path: `${t.ws}_evil/x` })).decision).toBe('ask')
    expect((await t.decide({ kind: 'edit', path: 'src/a.ts' })).decision).toBe('allow')
  })
})
