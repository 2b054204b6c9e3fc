import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { PushChannel } from '../../shared/ipc'
import { toDisposable } from '../runtime/base/disposable'
import { RecentWorkspaces } from '../workspaces/recent'
import { WebWorkspaces, workspaceId, type WebService } from './workspaces'

/** A service that answers with its folder and counts its disposal. */
function fakeService(folder: string, disposed: string[]): WebService {
  return {
    handle: async (channel) => ({ folder, channel }),
    onPush: (_listener: (channel: PushChannel, payload: unknown) => void) => toDisposable(() => undefined),
    dispose: async () => void disposed.push(folder)
  }
}

let root: string
let started: string[]
let disposed: string[]
let logged: string[]
let set: WebWorkspaces
const folder = (name: string): string => {
  const path = join(root, name)
  mkdirSync(path, { recursive: true })
  return path
}

beforeEach(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'swarmdesk-web-set-')))
  started = []
  disposed = []
  logged = []
  set = new WebWorkspaces({
    recent: new RecentWorkspaces(join(root, 'home')),
    startService: async (path) => {
      started.push(path)
      await new Promise((resolve) => setTimeout(resolve, 5))
      return fakeService(path, disposed)
    },
    log: (line) => logged.push(line)
  })
})
afterEach(async () => {
  await set.dispose()
  rmSync(root, { recursive: true, force: true })
})

describe("the web host's workspace set", () => {
  it('starts one service for a folder opened twice at once, under an id derived from its canonical path', async () => {
    const a = folder('a')
    const [first, second] = await Promise.all([set.open(a), set.open(`${a}/.`)])
    expect(started).toEqual([a])
    expect(first.id).toBe(workspaceId(a))
    expect(second).toMatchObject({ id: first.id, path: a })
    expect(set.list()).toEqual([{ id: workspaceId(a), folder: a }])
    expect(await set.bridged(first.id)!.handle('workspace.snapshot', {})).toEqual({
      folder: a,
      channel: 'workspace.snapshot'
    })
    expect(set.bridged('nope')).toBeUndefined()
  })

  it('answers the workspaces channels itself, passing every other request to the workspace', async () => {
    const a = await set.open(folder('a'))
    const b = await set.open(folder('b'))
    expect(await set.bridged(b.id)!.handle('workspaces.menu', {})).toMatchObject({
      current: b.path,
      picker: 'path',
      recent: [{ name: 'b' }, { name: 'a' }]
    })
    expect(await set.bridged(a.id)!.handle('workspaces.forget', { path: b.path })).toMatchObject({
      recent: [{ name: 'a' }]
    })
    await expect(set.bridged(a.id)!.handle('workspaces.forget', { path: '' })).rejects.toThrow(
      "Bad payload for 'workspaces.forget'"
    )
  })

  it('opens a workspace even when the recent list cannot be written, and says so in the log', async () => {
    writeFileSync(join(root, 'home'), 'a file where the home folder should be')
    const a = await set.open(folder('a'))
    expect(a.alreadyOpen).toBe(false)
    expect(logged).toEqual([expect.stringContaining('the recent list was not updated')])
  })

  it('disposes every workspace on dispose, and refuses opens afterwards', async () => {
    await set.open(folder('a'))
    await set.open(folder('b'))
    await set.dispose()
    expect(disposed.sort()).toEqual([join(root, 'a'), join(root, 'b')])
    expect(set.list()).toEqual([])
    await expect(set.open(folder('c'))).rejects.toThrow(/stopping/)
  })
})
