import { chmod, readFile, stat, utimes, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { ctx, dir, useToolFolder } from './files.testkit'
import { ReadTool } from './read'
import { WriteTool } from './write'

useToolFolder()

const write = (file_path: string, content: string) => WriteTool.call({ file_path, content }, ctx)
const read = (file_path: string) => ReadTool.call({ file_path }, ctx)

describe('Write', () => {
  it('creates a new file and its parent directories without a prior Read', async () => {
    const result = await write('deep/er/new.txt', 'a\nb\n')
    expect(result.content).toBe(`Created ${join(dir, 'deep/er/new.txt')} (2 lines).`)
    expect(await readFile(join(dir, 'deep/er/new.txt'), 'utf8')).toBe('a\nb\n')
    expect(ctx.fileState.get(join(dir, 'deep/er/new.txt'))?.partial).toBe(false)
  })

  it('refuses to overwrite an existing file the agent has not read', async () => {
    await writeFile(join(dir, 'f.txt'), 'original')
    await expect(write('f.txt', 'clobbered')).rejects.toThrow(/has not been read yet.*Read it first/)
    expect(await readFile(join(dir, 'f.txt'), 'utf8')).toBe('original')
  })

  it('overwrites a file after a Read, keeping its mode', async () => {
    await writeFile(join(dir, 'run.sh'), 'echo old\n')
    await chmod(join(dir, 'run.sh'), 0o755)
    await read('run.sh')
    const result = await write('run.sh', 'echo new\n')
    expect(result.content).toBe(`Updated ${join(dir, 'run.sh')} (1 line).`)
    expect(await readFile(join(dir, 'run.sh'), 'utf8')).toBe('echo new\n')
    expect((await stat(join(dir, 'run.sh'))).mode & 0o777).toBe(0o755)
  })

  it('refuses when the file changed on disk since it was read, then accepts after a new Read', async () => {
    await writeFile(join(dir, 'f.txt'), 'v1')
    await read('f.txt')
    await writeFile(join(dir, 'f.txt'), 'v2 by someone else')
    await expect(write('f.txt', 'mine')).rejects.toThrow(/modified since it was read.*Read it again/)
    expect(await readFile(join(dir, 'f.txt'), 'utf8')).toBe('v2 by someone else')
    await read('f.txt')
    await write('f.txt', 'mine')
    expect(await readFile(join(dir, 'f.txt'), 'utf8')).toBe('mine')
  })

  it('notices a change of mtime alone (same size)', async () => {
    await writeFile(join(dir, 'f.txt'), 'same')
    await read('f.txt')
    await utimes(join(dir, 'f.txt'), new Date(), new Date(Date.now() + 60_000))
    await expect(write('f.txt', 'next')).rejects.toThrow(/modified since it was read/)
  })

  it('may write twice in a row: its own write counts as the latest read', async () => {
    await write('g.txt', 'one')
    await write('g.txt', 'two')
    expect(await readFile(join(dir, 'g.txt'), 'utf8')).toBe('two')
  })

  it('refuses a directory path', async () => {
    await expect(write('.', 'x')).rejects.toThrow(/is a directory/)
  })

  it('is neither read-only nor concurrency-safe and asks for edit permission', () => {
    const input = { file_path: 'x', content: '' }
    expect(WriteTool.isReadOnly(input)).toBe(false)
    expect(WriteTool.isConcurrencySafe(input)).toBe(false)
    expect(WriteTool.permissionSubject(input, { cwd: dir })).toEqual({ kind: 'edit', path: join(dir, 'x') })
  })
})
