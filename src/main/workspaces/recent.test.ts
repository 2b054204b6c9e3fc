import {
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
  existsSync
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { canonicalFolder, NotAFolderError, RECENT_MAX, RecentListError, RecentWorkspaces } from './recent'

let root: string
let home: string
let clock: number
const folder = (name: string): string => {
  const path = join(root, 'folders', name)
  mkdirSync(path, { recursive: true })
  return path
}
const recent = () => new RecentWorkspaces(home, () => new Date(Date.UTC(2026, 0, 1, 0, 0, clock++)))

beforeEach(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'swarmdesk-recent-')))
  home = join(root, 'home')
  clock = 0
})
afterEach(() => rmSync(root, { recursive: true, force: true }))

describe('recent workspaces list', () => {
  it('is empty before anything was opened, and creates the home on the first record', async () => {
    expect(await recent().list()).toEqual([])
    await recent().record(folder('a'))
    expect(JSON.parse(readFileSync(join(home, 'recent.json'), 'utf8'))).toMatchObject({
      schemaVersion: 1,
      workspaces: [{ path: join(root, 'folders', 'a') }]
    })
  })

  it('keeps the most recently opened first, and moves a reopened folder to the top without duplicating it', async () => {
    const list = recent()
    await list.record(folder('a'))
    await list.record(folder('b'))
    await list.record(folder('c'))
    await list.record(folder('a'))
    const entries = await recent().list()
    expect(entries.map((e) => e.name)).toEqual(['a', 'c', 'b'])
    expect(entries[0]).toEqual({
      path: join(root, 'folders', 'a'),
      name: 'a',
      openedAt: '2026-01-01T00:00:03.000Z',
      missing: false
    })
  })

  it(`keeps at most ${RECENT_MAX} folders, dropping the oldest`, async () => {
    const list = recent()
    for (let i = 0; i < RECENT_MAX + 5; i++) await list.record(folder(`f${i}`))
    const names = (await list.list()).map((e) => e.name)
    expect(names).toHaveLength(RECENT_MAX)
    expect(names[0]).toBe(`f${RECENT_MAX + 4}`)
    expect(names.at(-1)).toBe('f5')
  })

  it('serialises concurrent records so none is lost', async () => {
    const list = recent()
    await Promise.all(['a', 'b', 'c', 'd'].map((n) => list.record(folder(n))))
    expect((await list.list()).map((e) => e.name).sort()).toEqual(['a', 'b', 'c', 'd'])
  })

  it('shows a folder that no longer exists (or became a file) as missing, and forgets it on request', async () => {
    const list = recent()
    const gone = folder('gone')
    const file = folder('file')
    await list.record(gone)
    await list.record(file)
    await list.record(folder('kept'))
    rmSync(gone, { recursive: true })
    rmSync(file, { recursive: true })
    writeFileSync(file, 'now a file')
    expect((await list.list()).map((e) => [e.name, e.missing])).toEqual([
      ['kept', false],
      ['file', true],
      ['gone', true]
    ])
    expect((await list.forget(gone)).map((e) => e.name)).toEqual(['kept', 'file'])
    expect((await list.forget('/not/in/the/list')).map((e) => e.name)).toEqual(['kept', 'file'])
  })

  it('drops malformed entries of a readable file and keeps the good ones', async () => {
    mkdirSync(home, { recursive: true })
    const a = folder('a')
    const b = folder('b')
    writeFileSync(
      join(home, 'recent.json'),
      JSON.stringify({
        schemaVersion: 1,
        workspaces: [
          { path: a, openedAt: '2026-01-01T00:00:00.000Z' },
          { path: 'relative/dir', openedAt: 'x' },
          42,
          { path: b },
          { path: a, openedAt: 'dup' },
          { path: b, openedAt: '2025-12-31T00:00:00.000Z' }
        ]
      })
    )
    const list = recent()
    expect(await list.read()).toMatchObject({ dropped: 4 })
    expect((await list.list()).map((e) => e.name)).toEqual(['a', 'b'])
    await list.record(folder('c'))
    expect((await list.list()).map((e) => e.name)).toEqual(['c', 'a', 'b'])
  })

  it('reports a corrupt file with a clear error, then a record moves it aside and starts a new list', async () => {
    mkdirSync(home, { recursive: true })
    writeFileSync(join(home, 'recent.json'), '{"schemaVersion": 1, "workspaces": [')
    const list = recent()
    const error = await list.list().catch((e: unknown) => e)
    expect(error).toBeInstanceOf(RecentListError)
    expect((error as Error).message).toContain(join(home, 'recent.json'))
    expect((error as Error).message).toMatch(/not valid JSON.*Fix or delete it/)
    await expect(recent().list()).rejects.toThrow(RecentListError)
    expect(readFileSync(join(home, 'recent.json'), 'utf8')).toBe('{"schemaVersion": 1, "workspaces": [')

    expect((await list.record(folder('a'))).map((e) => e.name)).toEqual(['a'])
    expect(readFileSync(join(home, 'recent.json.corrupt'), 'utf8')).toBe('{"schemaVersion": 1, "workspaces": [')
  })

  it('refuses a file of another shape with a clear error', async () => {
    mkdirSync(home, { recursive: true })
    writeFileSync(join(home, 'recent.json'), JSON.stringify(['/a', '/b']))
    await expect(recent().list()).rejects.toThrow(/is not a Swarmdesk recent list/)
  })

  it('leaves no temp files beside the list', async () => {
    const list = recent()
    for (const n of ['a', 'b', 'c']) await list.record(folder(n))
    expect(existsSync(join(home, 'recent.json'))).toBe(true)
    const { readdirSync } = await import('node:fs')
    expect(readdirSync(home)).toEqual(['recent.json'])
  })
})

describe('canonical folders', () => {
  it('expands a leading ~ to the home folder, as a shell does', async () => {
    const project = folder('home/project')
    const saved = process.env.HOME
    process.env.HOME = join(root, 'folders', 'home')
    try {
      expect(await canonicalFolder('~/project')).toBe(project)
      expect(await canonicalFolder(' ~/project/ ')).toBe(project)
      expect(await canonicalFolder('~')).toBe(join(root, 'folders', 'home'))
      // only the user's own home: ~other is relative, refused as any relative path is
      await expect(canonicalFolder('~other/project')).rejects.toThrow(NotAFolderError)
    } finally {
      process.env.HOME = saved
    }
  })

  it('resolves symlinks so one folder is one entry', async () => {
    const real = folder('real')
    symlinkSync(real, join(root, 'link'))
    expect(await canonicalFolder(join(root, 'link'))).toBe(real)
    expect(await canonicalFolder('folders/real', root)).toBe(real)
  })

  it('refuses a relative path without a base, a missing path and a file, saying which and what to do', async () => {
    writeFileSync(join(root, 'a-file'), 'x')
    await expect(canonicalFolder('project')).rejects.toThrow(
      new NotAFolderError(
        "'project' is not an absolute path: give the folder's full path, e.g. /home/me/project or ~/project."
      )
    )
    await expect(canonicalFolder(join(root, 'nope'))).rejects.toThrow(`${join(root, 'nope')} does not exist`)
    await expect(canonicalFolder(join(root, 'a-file'))).rejects.toThrow(
      `${join(root, 'a-file')} is a file, not a folder`
    )
  })
})
