import { mkdir, symlink, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadPermissionSettings } from '../permissions'
import { makeWorkspace, type TestWorkspace } from '../permissions/workspace.testkit'
import type { Disposable } from '../base'
import { createFileTeamStore, type TeamStorePort } from '../teamStore'
import { AllowedPathError, editAllowedPaths, TeammatePermissionEngine, teamAllowedPaths } from './teamAllowedPaths'

const lead = { name: 'team-lead', agentType: 'team-lead', model: 'm', backendType: 'main' as const, cwd: '/w' }

let t: TestWorkspace
let store: TeamStorePort
let elsewhere: TeamStorePort
const followed: Disposable[] = []
beforeAll(async () => {
  t = await makeWorkspace()
  store = createFileTeamStore(t.home)
  // another store on the same files: as `swarmdesk team allow` in another process, or the leader
  elsewhere = createFileTeamStore(t.home)
  await store.config.create({ name: 'crew', lead })
  await mkdir(path.join(t.outside, 'shared', 'deep'), { recursive: true })
  await writeFile(path.join(t.outside, 'shared', 'deep', 'notes.md'), 'n')
  await symlink(path.join(t.outside, 'shared'), path.join(t.base, 'link-to-shared'))
})
afterAll(async () => {
  for (const d of followed) d.dispose()
  await store.close()
  await elsewhere.close()
})

/** Asks `decide` until its decision is `want` (the change is pushed; up to 30 s on a loaded machine). */
async function until(want: string, decide: () => Promise<{ decision: string }>): Promise<void> {
  const deadline = Date.now() + 30_000
  while ((await decide()).decision !== want) {
    if (Date.now() > deadline) throw new Error(`the decision never became ${want}`)
    await new Promise((r) => setTimeout(r, 20))
  }
}

async function teammateEngine(extraSettingsFiles: string[] = []) {
  const loaded = await loadPermissionSettings({ cwd: t.ws, home: t.home, userHome: t.userHome, extraSettingsFiles })
  const paths = teamAllowedPaths(store, 'crew')
  followed.push(paths)
  return new TeammatePermissionEngine(loaded, paths)
}

describe("a team's allowed paths (docs/teams.md#allowed-paths)", () => {
  it('let every teammate read and edit there without asking, from the change pushed by the config watch on', async () => {
    const engine = await teammateEngine()
    const notes = path.join(t.outside, 'shared', 'deep', 'notes.md')
    const decide = (kind: 'read' | 'edit', p: string) =>
      engine.decide({ kind, path: p }, { cwd: t.ws, mode: 'default' })
    expect((await decide('edit', notes)).decision).toBe('ask')
    expect((await decide('read', notes)).reason).toMatch(/outside the workspace/)

    // added through a link: kept as the real directory, as decisions compare canonical paths
    expect(await editAllowedPaths(elsewhere, 'crew', { add: path.join(t.base, 'link-to-shared') })).toEqual([
      path.join(t.outside, 'shared')
    ])
    await until('allow', () => decide('edit', notes))
    expect((await decide('read', notes)).decision).toBe('allow')
    expect((await decide('edit', path.join(t.outside, 'shared'))).decision).toBe('allow')
    // a sibling outside the allowed path still asks
    expect((await decide('edit', path.join(t.outside, 'secret.txt'))).decision).toBe('ask')
    // plan mode still refuses edits
    expect((await engine.decide({ kind: 'edit', path: notes }, { cwd: t.ws, mode: 'plan' })).decision).toBe('deny')

    await editAllowedPaths(elsewhere, 'crew', { remove: path.join(t.outside, 'shared') })
    await until('ask', () => decide('edit', notes))

    // a deleted team has none: its config gone, nothing is allowed by it any more
    await editAllowedPaths(elsewhere, 'crew', { add: path.join(t.outside, 'shared') })
    await until('allow', () => decide('edit', notes))
    await elsewhere.config.delete('crew')
    await until('ask', () => decide('edit', notes))
    await store.config.create({ name: 'crew', lead })
  })

  it('never beat a deny rule', async () => {
    const settings = await t.writeSettings(path.join(t.base, 'deny.json'), {
      permissions: { deny: [`Edit(/${t.outside}/shared/deep/**)`] }
    })
    const engine = await teammateEngine([settings])
    await editAllowedPaths(store, 'crew', { add: path.join(t.outside, 'shared') })
    const notes = path.join(t.outside, 'shared', 'deep', 'notes.md')
    // the read is allowed by the path once it arrives; the edit stays denied
    await until('allow', () => engine.decide({ kind: 'read', path: notes }, { cwd: t.ws, mode: 'default' }))
    expect((await engine.decide({ kind: 'edit', path: notes }, { cwd: t.ws, mode: 'default' })).decision).toBe('deny')
    await editAllowedPaths(store, 'crew', { remove: path.join(t.outside, 'shared') })
  })

  it('are edited once each, and refuse a relative path, an empty one and /', async () => {
    const shared = path.join(t.outside, 'shared')
    await editAllowedPaths(store, 'crew', { add: shared })
    expect(await editAllowedPaths(store, 'crew', { add: `${shared}/` })).toEqual([shared])
    expect(await editAllowedPaths(store, 'crew', { add: 'deep' }, shared)).toEqual([shared, path.join(shared, 'deep')])
    expect((await store.config.read('crew')).allowedPaths).toEqual([shared, path.join(shared, 'deep')])
    expect(await editAllowedPaths(store, 'crew', { remove: path.join(t.outside, 'never-added') })).toEqual([
      shared,
      path.join(shared, 'deep')
    ])
    await expect(editAllowedPaths(store, 'crew', { add: 'rel/dir' })).rejects.toThrow(AllowedPathError)
    await expect(editAllowedPaths(store, 'crew', { add: ' ' })).rejects.toThrow(/empty/)
    await expect(editAllowedPaths(store, 'crew', { add: '/' })).rejects.toThrow(/every file on the machine/)
  })
})
