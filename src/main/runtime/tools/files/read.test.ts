import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { ctx, dir, useToolFolder } from './files.testkit'
import { ReadTool } from './read'
import { ToolError } from '../types'

useToolFolder()

const read = (input: Parameters<typeof ReadTool.call>[0]) => ReadTool.call(ReadTool.inputSchema.parse(input), ctx)

describe('Read', () => {
  it('shows the file in cat -n style and records it as fully read', async () => {
    await writeFile(join(dir, 'a.txt'), 'alpha\nbeta\n')
    const result = await read({ file_path: 'a.txt' })
    expect(result.content).toBe('     1\talpha\n     2\tbeta')
    const entry = ctx.fileState.get(join(dir, 'a.txt'))
    expect(entry).toMatchObject({ partial: false, size: 11 })
  })

  it('reads an absolute path and shows CRLF lines without the carriage return', async () => {
    await writeFile(join(dir, 'w.txt'), 'one\r\ntwo\r\n')
    const result = await read({ file_path: join(dir, 'w.txt') })
    expect(result.content).toBe('     1\tone\n     2\ttwo')
  })

  it('starts at the 1-based offset, stops at limit, says how to read on, and marks the read partial', async () => {
    await writeFile(join(dir, 'n.txt'), Array.from({ length: 10 }, (_, i) => `line ${i + 1}`).join('\n'))
    const result = await read({ file_path: 'n.txt', offset: 3, limit: 2 })
    expect(result.content).toContain('     3\tline 3\n     4\tline 4\n\n[Showing lines 3-4 of 10.')
    expect(result.content).toContain('offset=5')
    expect(result.content).not.toContain('line 5')
    expect(ctx.fileState.get(join(dir, 'n.txt'))?.partial).toBe(true)
  })

  it('shows 2000 lines by default and reports the rest', async () => {
    await writeFile(join(dir, 'big.txt'), Array.from({ length: 2500 }, (_, i) => `${i + 1}`).join('\n'))
    const result = await read({ file_path: 'big.txt' })
    expect(result.content).toContain('  2000\t2000\n')
    expect(result.content).not.toContain('  2001\t')
    expect(result.content).toContain('500 more lines remain')
  })

  it('stops at about 100,000 characters at a line boundary and says where to read on', async () => {
    await writeFile(join(dir, 'wide.txt'), Array.from({ length: 1500 }, () => 'y'.repeat(99)).join('\n'))
    const result = await read({ file_path: 'wide.txt' })
    expect(result.content.length).toBeLessThan(101_000)
    const shown = result.content.split('\n').filter((line) => /^ *\d+\t/.test(line)).length
    expect(result.content).toContain(`[Showing lines 1-${shown} of 1500.`)
    expect(result.content).toContain(`offset=${shown + 1}`)
  })

  it('truncates lines longer than 2000 characters with a marker', async () => {
    await writeFile(join(dir, 'long.txt'), `${'x'.repeat(2500)}\nshort\n`)
    const result = await read({ file_path: 'long.txt' })
    const [first, second] = result.content.split('\n')
    expect(first).toBe(`     1\t${'x'.repeat(2000)}… [line truncated: 500 more characters]`)
    expect(second).toBe('     2\tshort')
  })

  it('says an empty file is empty', async () => {
    await writeFile(join(dir, 'empty.txt'), '')
    expect((await read({ file_path: 'empty.txt' })).content).toMatch(/exists but is empty/)
    expect(ctx.fileState.get(join(dir, 'empty.txt'))).toBeDefined()
  })

  it('says when the offset is past the end of the file', async () => {
    await writeFile(join(dir, 's.txt'), 'a\nb\n')
    expect((await read({ file_path: 's.txt', offset: 9 })).content).toMatch(/only 2 lines/)
  })

  it('refuses a missing file and suggests a similarly named one', async () => {
    await writeFile(join(dir, 'config.ts'), 'x')
    await expect(read({ file_path: 'config.js' })).rejects.toThrow(ToolError)
    await expect(read({ file_path: 'config.js' })).rejects.toThrow(`Did you mean ${join(dir, 'config.ts')}?`)
    await expect(read({ file_path: 'nothing/here.txt' })).rejects.toThrow(/does not exist/)
  })

  it('refuses a directory and points to Glob or ls', async () => {
    await mkdir(join(dir, 'sub'))
    await expect(read({ file_path: 'sub' })).rejects.toThrow(/is a directory.*Glob.*ls/)
  })

  it('refuses binary files by content and by extension', async () => {
    await writeFile(join(dir, 'blob.dat'), Buffer.from([0x41, 0x00, 0x42]))
    await writeFile(join(dir, 'pic.png'), 'not really a png')
    await expect(read({ file_path: 'blob.dat' })).rejects.toThrow(/binary file.*cannot be shown as text/)
    await expect(read({ file_path: 'pic.png' })).rejects.toThrow(/binary file/)
    expect(ctx.fileState.size).toBe(0)
  })

  it('is read-only, concurrency-safe, and asks for read permission on the resolved path', () => {
    const input = { file_path: 'a.txt' }
    expect(ReadTool.isReadOnly(input)).toBe(true)
    expect(ReadTool.isConcurrencySafe(input)).toBe(true)
    expect(ReadTool.permissionSubject(input, { cwd: dir })).toEqual({ kind: 'read', path: join(dir, 'a.txt') })
  })
})
