import { mkdir, utimes, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { GLOB_MAX_RESULTS, GlobTool, type GlobInput } from './glob'
import { makeTempDir, makeToolContext } from '../tools.testkit'
import type { ToolContext } from '../types'

let dir: string
let cleanup: () => Promise<void>
let ctx: ToolContext

beforeEach(async () => {
  ;({ dir, cleanup } = await makeTempDir())
  ctx = makeToolContext(dir)
})
afterEach(() => cleanup())

const glob = async (input: GlobInput) => (await GlobTool.call(input, ctx)).content

/** Creates files (relative to the temp dir); an mtime (seconds since epoch) may be given. */
async function files(spec: Record<string, number | undefined>): Promise<void> {
  for (const [name, mtime] of Object.entries(spec)) {
    const path = join(dir, name)
    await mkdir(dirname(path), { recursive: true })
    await writeFile(path, name)
    if (mtime !== undefined) await utimes(path, mtime, mtime)
  }
}

describe('Glob', () => {
  it('returns matching files as absolute paths, newest first by mtime', async () => {
    await files({ 'old.ts': 1_000_000, 'src/mid.ts': 2_000_000, 'src/deep/new.ts': 3_000_000, 'notes.md': 4_000_000 })
    expect(await glob({ pattern: '**/*.ts' })).toBe(
      [join(dir, 'src/deep/new.ts'), join(dir, 'src/mid.ts'), join(dir, 'old.ts')].join('\n')
    )
  })

  it('keeps * within one directory level and searches under path', async () => {
    await files({ 'a.ts': undefined, 'src/b.ts': undefined, 'src/c/d.ts': undefined })
    expect(await glob({ pattern: '*.ts' })).toBe(join(dir, 'a.ts'))
    expect(await glob({ pattern: '*.ts', path: 'src' })).toBe(join(dir, 'src/b.ts'))
    expect(await glob({ pattern: 'src/*/*.ts' })).toBe(join(dir, 'src/c/d.ts'))
  })

  it('lists files, never directories', async () => {
    await files({ 'lib.d/x.txt': undefined })
    expect(await glob({ pattern: '**/*.d' })).toBe('No files found')
  })

  it('matches dotfiles only when the pattern names the dot', async () => {
    await files({ '.env': undefined, '.github/ci.yml': undefined, 'app.yml': 1_000_000 })
    expect(await glob({ pattern: '**/*.yml' })).toBe(join(dir, 'app.yml'))
    expect(await glob({ pattern: '.github/*.yml' })).toBe(join(dir, '.github/ci.yml'))
    expect(await glob({ pattern: '.env' })).toBe(join(dir, '.env'))
  })

  it('never searches .git, node_modules or .swarmdesk/worktrees', async () => {
    await files({
      'keep.js': undefined,
      '.git/hooks/x.js': undefined,
      'node_modules/pkg/index.js': undefined,
      'packages/a/node_modules/dep/index.js': undefined,
      '.swarmdesk/worktrees/agent-1/src/y.js': undefined
    })
    expect(await glob({ pattern: '**/*.js' })).toBe(join(dir, 'keep.js'))
    expect(await glob({ pattern: '**/.*/**/*.js' })).toBe('No files found')
  })

  it('ignores .gitignore, so build outputs can be found', async () => {
    await files({ '.gitignore': undefined, 'dist/out.js': undefined })
    await writeFile(join(dir, '.gitignore'), 'dist/\n')
    expect(await glob({ pattern: 'dist/**' })).toBe(join(dir, 'dist/out.js'))
  })

  it('caps the results and says how many there were', async () => {
    await files(
      Object.fromEntries(Array.from({ length: GLOB_MAX_RESULTS + 5 }, (_, i) => [`f${i}.txt`, 1_000_000 + i]))
    )
    const lines = (await glob({ pattern: '*.txt' })).split('\n')
    expect(lines).toHaveLength(GLOB_MAX_RESULTS + 1)
    expect(lines[0]).toBe(join(dir, `f${GLOB_MAX_RESULTS + 4}.txt`))
    expect(lines[GLOB_MAX_RESULTS]).toMatch(/truncated: showing the 100 most recently modified of 105 files/)
  })

  it('accepts an absolute pattern', async () => {
    await files({ 'abs/one.md': undefined })
    expect(await glob({ pattern: `${dir}/abs/*.md` })).toBe(join(dir, 'abs/one.md'))
  })

  it('says "No files found" when nothing matches', async () => {
    expect(await glob({ pattern: 'missing/**/*.rs' })).toBe('No files found')
  })

  it('refuses a path that is missing or is a file', async () => {
    await files({ 'f.txt': undefined })
    await expect(glob({ pattern: '*', path: 'nope' })).rejects.toThrow(/Directory does not exist/)
    await expect(glob({ pattern: '*', path: 'f.txt' })).rejects.toThrow(/must be a directory/)
  })

  it('stops with a ToolError when the call is aborted', async () => {
    await files({ 'a.txt': undefined })
    const controller = new AbortController()
    controller.abort()
    await expect(GlobTool.call({ pattern: '**/*' }, { ...ctx, signal: controller.signal })).rejects.toThrow(
      /Interrupted/
    )
  })

  it('is read-only and concurrency-safe, asking read permission for path or cwd', () => {
    expect(GlobTool.isReadOnly({ pattern: '*' })).toBe(true)
    expect(GlobTool.isConcurrencySafe({ pattern: '*' })).toBe(true)
    expect(GlobTool.permissionSubject({ pattern: '*' }, { cwd: dir })).toEqual({ kind: 'read', path: dir })
    expect(GlobTool.permissionSubject({ pattern: '*', path: 'src' }, { cwd: dir })).toEqual({
      kind: 'read',
      path: join(dir, 'src')
    })
  })
})

describe('Glob permission subject', () => {
  it('is the directory the pattern really reads, so escapes by .., absolute patterns and links are judged there', async () => {
    const { GlobTool } = await import('./glob')
    const cwd = '/w/app'
    expect(GlobTool.permissionSubject({ pattern: '../../etc/pass*' }, { cwd })).toEqual({ kind: 'read', path: '/etc' })
    expect(GlobTool.permissionSubject({ pattern: '/etc/pass*' }, { cwd })).toEqual({ kind: 'read', path: '/etc' })
    expect(GlobTool.permissionSubject({ pattern: 'link/pass*' }, { cwd })).toEqual({
      kind: 'read',
      path: '/w/app/link'
    })
    expect(GlobTool.permissionSubject({ pattern: '**/*.ts', path: 'src' }, { cwd })).toEqual({
      kind: 'read',
      path: '/w/app/src'
    })
  })
})
