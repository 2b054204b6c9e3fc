import { mkdir, utimes, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { GrepTool, type GrepInput } from './grep'
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

const grep = async (input: GrepInput) => (await GrepTool.call(GrepTool.inputSchema.parse(input), ctx)).content
const p = (name: string) => join(dir, name)

async function files(spec: Record<string, string | Buffer>): Promise<void> {
  for (const [name, content] of Object.entries(spec)) {
    await mkdir(dirname(p(name)), { recursive: true })
    await writeFile(p(name), content)
  }
}

describe('Grep output modes', () => {
  beforeEach(() =>
    files({
      'a.ts': 'import x\nconst needle = 1\nlet y\nneedle()\n',
      'b.js': 'no match here\n',
      'src/c.ts': 'one\ntwo\nthree\nNEEDLE four\nfive\nsix\nseven\neight\nneedle nine\nten\n'
    })
  )

  it('lists matching files newest first by default', async () => {
    await utimes(p('a.ts'), 1_000_000, 1_000_000)
    await utimes(p('src/c.ts'), 2_000_000, 2_000_000)
    expect(await grep({ pattern: 'needle' })).toBe(`Found 2 files\n${p('src/c.ts')}\n${p('a.ts')}`)
  })

  it('shows matching lines with line numbers in content mode, and without when -n is false', async () => {
    expect(await grep({ pattern: 'needle', output_mode: 'content' })).toBe(
      [`${p('a.ts')}:2:const needle = 1`, `${p('a.ts')}:4:needle()`, `${p('src/c.ts')}:9:needle nine`].join('\n')
    )
    expect(await grep({ pattern: 'needle', output_mode: 'content', '-n': false, path: 'src' })).toBe(
      `${p('src/c.ts')}:needle nine`
    )
  })

  it('prints context lines with - and separates groups with -- like rg', async () => {
    const out = await grep({ pattern: 'needle', output_mode: 'content', '-i': true, '-C': 1, path: 'src' })
    const c = p('src/c.ts')
    expect(out).toBe(
      [
        `${c}-3-three`,
        `${c}:4:NEEDLE four`,
        `${c}-5-five`,
        '--',
        `${c}-8-eight`,
        `${c}:9:needle nine`,
        `${c}-10-ten`
      ].join('\n')
    )
  })

  it('merges overlapping context and lets -A/-B override -C', async () => {
    const out = await grep({ pattern: 'needle', output_mode: 'content', path: 'a.ts', '-C': 5, '-A': 0 })
    expect(out).toBe(
      [
        `${p('a.ts')}-1-import x`,
        `${p('a.ts')}:2:const needle = 1`,
        `${p('a.ts')}-3-let y`,
        `${p('a.ts')}:4:needle()`
      ].join('\n')
    )
  })

  it('counts matching lines per file in count mode', async () => {
    expect(await grep({ pattern: 'needle', output_mode: 'count', '-i': true })).toBe(
      `${p('a.ts')}:2\n${p('src/c.ts')}:2\n\nFound 4 matching lines in 2 files.`
    )
  })

  it('is case-sensitive unless -i', async () => {
    expect(await grep({ pattern: 'NEEDLE', output_mode: 'count' })).toMatch(/^.*src\/c\.ts:1\n/)
    expect(await grep({ pattern: 'NEEDLE', '-i': true })).toMatch(/^Found 2 files/)
  })

  it('filters by glob and by type', async () => {
    expect(await grep({ pattern: 'match|needle', glob: '*.js' })).toBe(`Found 1 file\n${p('b.js')}`)
    expect(await grep({ pattern: 'needle', glob: 'src/**/*.ts' })).toBe(`Found 1 file\n${p('src/c.ts')}`)
    expect(await grep({ pattern: 'needle', glob: '*.ts !src/**' })).toBe(`Found 1 file\n${p('a.ts')}`)
    expect(await grep({ pattern: 'match', type: 'js' })).toBe(`Found 1 file\n${p('b.js')}`)
    expect(await grep({ pattern: 'match', type: 'ts' })).toBe('No files found')
    await expect(grep({ pattern: 'x', type: 'klingon' })).rejects.toThrow(/Unknown file type "klingon".*ts/)
  })

  it('applies head_limit to content lines, files and counts, saying so', async () => {
    expect(await grep({ pattern: 'e', output_mode: 'content', head_limit: 2 })).toMatch(
      /^[^\n]+\n[^\n]+\n\[Showing the first 2 of \d+ lines \(head_limit\)\.\]$/
    )
    expect(await grep({ pattern: 'needle', '-i': true, head_limit: 1 })).toMatch(
      /^Found 2 files \(showing first 1, head_limit\)\n[^\n]+$/
    )
    expect(await grep({ pattern: 'needle', output_mode: 'count', head_limit: 1 })).toContain(
      '(showing first 1 files, head_limit)'
    )
  })

  it('reports no matches per mode', async () => {
    expect(await grep({ pattern: 'zzz' })).toBe('No files found')
    expect(await grep({ pattern: 'zzz', output_mode: 'content' })).toBe('No matches found')
    expect(await grep({ pattern: 'zzz', output_mode: 'count' })).toBe('No matches found')
  })
})

describe('Grep patterns', () => {
  it('matches across lines only with multiline, where . also matches newlines', async () => {
    await files({ 'm.ts': 'function f(\n  a,\n  b\n) {}\nother\n' })
    expect(await grep({ pattern: 'f\\(.*b', output_mode: 'content' })).toBe('No matches found')
    expect(await grep({ pattern: 'f\\(.*b', output_mode: 'content', multiline: true })).toBe(
      [`${p('m.ts')}:1:function f(`, `${p('m.ts')}:2:  a,`, `${p('m.ts')}:3:  b`].join('\n')
    )
    expect(await grep({ pattern: 'a,\\n\\s*b', multiline: true, output_mode: 'count' })).toContain(`${p('m.ts')}:2`)
    await expect(grep({ pattern: 'a,\\nb' })).rejects.toThrow(/multiline: true/)
  })

  it('refuses an invalid regex with the regex error', async () => {
    await expect(grep({ pattern: 'foo(bar' })).rejects.toThrow(/^Invalid regex "foo\(bar": missing closing \)$/)
  })

  it('accepts rg inline flags and escapes JS unicode mode rejects', async () => {
    await files({ 'f.txt': 'Hello-World\n' })
    expect(await grep({ pattern: '(?i)hello' })).toBe(`Found 1 file\n${p('f.txt')}`)
    expect(await grep({ pattern: 'o\\-W' })).toBe(`Found 1 file\n${p('f.txt')}`)
  })

  it('matches ^ and $ per line, also in CRLF files', async () => {
    await files({ 'w.txt': 'alpha\r\nbeta\r\n' })
    expect(await grep({ pattern: '^beta$', output_mode: 'content' })).toBe(`${p('w.txt')}:2:beta`)
  })
})

describe('Grep file selection', () => {
  it('respects .gitignore, nested ones and negations', async () => {
    await files({
      '.gitignore': 'dist/\n*.log\n',
      'dist/out.js': 'hit',
      'debug.log': 'hit',
      'keep.txt': 'hit',
      'pkg/.gitignore': 'generated.ts\n!important.log\n',
      'pkg/generated.ts': 'hit',
      'pkg/important.log': 'hit',
      'pkg/src/main.ts': 'hit'
    })
    expect(await grep({ pattern: 'hit' })).toMatch(/^Found 3 files/)
    const out = await grep({ pattern: 'hit', output_mode: 'count' })
    expect(out.split('\n').slice(0, 3).sort()).toEqual([
      `${p('keep.txt')}:1`,
      `${p('pkg/important.log')}:1`,
      `${p('pkg/src/main.ts')}:1`
    ])
  })

  it('applies the repository .gitignore when searching a subdirectory', async () => {
    await files({ '.git/HEAD': 'ref', '.gitignore': 'build/\n', 'sub/build/x.txt': 'hit', 'sub/y.txt': 'hit' })
    expect(await grep({ pattern: 'hit', path: 'sub' })).toBe(`Found 1 file\n${p('sub/y.txt')}`)
  })

  it('skips hidden directories, .git, binary files and .swarmdesk/worktrees, but searches node_modules unless ignored', async () => {
    await files({
      '.git/config': 'hit',
      '.hidden/x.txt': 'hit',
      '.swarmdesk/worktrees/agent-1/y.txt': 'hit',
      'bin.dat': Buffer.from('hit\0\0binary'),
      'img.png': 'hit',
      'node_modules/dep/index.js': 'hit',
      'ok.txt': 'hit'
    })
    const found = (await grep({ pattern: 'hit' })).split('\n').slice(1).sort()
    expect(found).toEqual([p('node_modules/dep/index.js'), p('ok.txt')])
    await writeFile(p('.gitignore'), 'node_modules\n')
    expect(await grep({ pattern: 'hit' })).toBe(`Found 1 file\n${p('ok.txt')}`)
  })

  it('searches one file given as path, even a hidden one', async () => {
    await files({ '.env': 'TOKEN=1\n' })
    expect(await grep({ pattern: 'TOKEN', path: '.env', output_mode: 'content' })).toBe(`${p('.env')}:1:TOKEN=1`)
  })

  it('refuses a missing path', async () => {
    await expect(grep({ pattern: 'x', path: 'nope' })).rejects.toThrow(/Path does not exist/)
  })

  it('searches a tree of 5,000 files promptly', async () => {
    for (let d = 0; d < 50; d++) {
      await mkdir(p(`tree/d${d}`), { recursive: true })
      await Promise.all(
        Array.from({ length: 100 }, (_, f) =>
          writeFile(
            p(`tree/d${d}/f${f}.ts`),
            `export const v${f} = ${f}\n${d === 42 && f === 7 ? 'const target = true\n' : ''}`
          )
        )
      )
    }
    const started = performance.now()
    expect(await grep({ pattern: 'target', path: 'tree' })).toBe(`Found 1 file\n${p('tree/d42/f7.ts')}`)
    expect(await grep({ pattern: 'export', path: 'tree', output_mode: 'count', head_limit: 1 })).toContain(
      'Found 5000 matching lines in 5000 files'
    )
    // Generous for a loaded CI machine; a per-file thread-pool round trip made this several times slower.
    expect(performance.now() - started).toBeLessThan(10_000)
  })

  it('stops with a ToolError when the call is aborted', async () => {
    await files({ 'a.txt': 'hit' })
    const controller = new AbortController()
    controller.abort()
    await expect(GrepTool.call({ pattern: 'hit' }, { ...ctx, signal: controller.signal })).rejects.toThrow(
      /Interrupted/
    )
  })

  it('is read-only and concurrency-safe, asking read permission for path or cwd', () => {
    expect(GrepTool.isReadOnly({ pattern: 'x' })).toBe(true)
    expect(GrepTool.isConcurrencySafe({ pattern: 'x' })).toBe(true)
    expect(GrepTool.permissionSubject({ pattern: 'x' }, { cwd: dir })).toEqual({ kind: 'read', path: dir })
  })
})
