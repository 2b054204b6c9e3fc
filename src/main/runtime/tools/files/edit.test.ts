import { lstat, readFile, symlink, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { EditTool, type EditInput } from './edit'
import { ReadTool } from './read'
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

const edit = (input: EditInput) => EditTool.call(input, ctx)
const contentOf = (name: string) => readFile(join(dir, name), 'utf8')

async function fileReadByAgent(name: string, content: string): Promise<void> {
  await writeFile(join(dir, name), content)
  await ReadTool.call({ file_path: name }, ctx)
}

describe('Edit', () => {
  it('replaces a unique match and shows the edited region with line numbers', async () => {
    await fileReadByAgent('m.ts', 'a\nb\nc\nconst x = 1\nd\ne\nf\ng\n')
    const result = await edit({ file_path: 'm.ts', old_string: 'const x = 1', new_string: 'const x = 2\nconst y = 3' })
    expect(await contentOf('m.ts')).toBe('a\nb\nc\nconst x = 2\nconst y = 3\nd\ne\nf\ng\n')
    expect(result.content).toContain('replaced 1 occurrence.')
    expect(result.content).toContain(
      '     1\ta\n     2\tb\n     3\tc\n     4\tconst x = 2\n     5\tconst y = 3\n     6\td\n     7\te\n     8\tf'
    )
    expect(result.content).not.toContain('\tg')
  })

  it('refuses a file the agent has not read', async () => {
    await writeFile(join(dir, 'u.txt'), 'hello')
    await expect(edit({ file_path: 'u.txt', old_string: 'hello', new_string: 'bye' })).rejects.toThrow(
      /not been read yet/
    )
    expect(await contentOf('u.txt')).toBe('hello')
  })

  it('refuses a file changed on disk since the Read', async () => {
    await fileReadByAgent('c.txt', 'hello')
    await writeFile(join(dir, 'c.txt'), 'hello, changed')
    await expect(edit({ file_path: 'c.txt', old_string: 'hello', new_string: 'bye' })).rejects.toThrow(
      /modified since it was read/
    )
  })

  it('allows consecutive edits without re-reading', async () => {
    await fileReadByAgent('s.txt', 'one two')
    await edit({ file_path: 's.txt', old_string: 'one', new_string: '1' })
    await edit({ file_path: 's.txt', old_string: 'two', new_string: '2' })
    expect(await contentOf('s.txt')).toBe('1 2')
  })

  it('refuses a non-unique match, giving the count, and changes nothing', async () => {
    await fileReadByAgent('d.txt', 'foo\nbar\nfoo\nfoo\n')
    await expect(edit({ file_path: 'd.txt', old_string: 'foo', new_string: 'baz' })).rejects.toThrow(
      /occurs 3 times.*replace_all/
    )
    expect(await contentOf('d.txt')).toBe('foo\nbar\nfoo\nfoo\n')
  })

  it('replaces every occurrence with replace_all, keeping $ patterns literal', async () => {
    await fileReadByAgent('r.txt', 'foo\nbar\nfoo\n')
    const result = await edit({ file_path: 'r.txt', old_string: 'foo', new_string: '$&-$1', replace_all: true })
    expect(await contentOf('r.txt')).toBe('$&-$1\nbar\n$&-$1\n')
    expect(result.content).toContain('replaced 2 occurrences')
  })

  it('says when old_string is not found, hinting at a whitespace or quote mismatch', async () => {
    await fileReadByAgent('q.ts', 'x\nconst s = \u201chi\u201d;\n   if (a)   {\n')
    await expect(edit({ file_path: 'q.ts', old_string: 'nowhere', new_string: 'y' })).rejects.toThrow(/was not found/)
    await expect(edit({ file_path: 'q.ts', old_string: 'const s = "hi";', new_string: 'y' })).rejects.toThrow(
      /near line 2 if whitespace and quote style are ignored/
    )
    await expect(edit({ file_path: 'q.ts', old_string: 'if (a) {', new_string: 'y' })).rejects.toThrow(/near line 3/)
  })

  it('refuses old_string equal to new_string', async () => {
    await fileReadByAgent('e.txt', 'same')
    await expect(edit({ file_path: 'e.txt', old_string: 'same', new_string: 'same' })).rejects.toThrow(/same/)
  })

  it('keeps CRLF line endings when matching and writing with plain newlines', async () => {
    await fileReadByAgent('win.txt', 'first\r\nsecond\r\nthird\r\n')
    await edit({ file_path: 'win.txt', old_string: 'first\nsecond', new_string: 'one\ntwo\nthree' })
    expect(await contentOf('win.txt')).toBe('one\r\ntwo\r\nthree\r\nthird\r\n')
  })

  it('creates a missing file from an empty old_string, and refuses an empty old_string on a file with content', async () => {
    const result = await edit({ file_path: 'fresh/new.txt', old_string: '', new_string: 'hello\n' })
    expect(result.content).toBe(`Created ${join(dir, 'fresh/new.txt')} (1 line).`)
    expect(await contentOf('fresh/new.txt')).toBe('hello\n')
    await expect(edit({ file_path: 'fresh/new.txt', old_string: '', new_string: 'x' })).rejects.toThrow(
      /old_string is empty/
    )
  })

  it('treats a symlink and its target as one file for the read-before-edit rule', async () => {
    await fileReadByAgent('target.txt', 'v1')
    await symlink(join(dir, 'target.txt'), join(dir, 'link.txt'))
    await edit({ file_path: 'link.txt', old_string: 'v1', new_string: 'v2' })
    expect(await contentOf('target.txt')).toBe('v2')
    expect((await lstat(join(dir, 'link.txt'))).isSymbolicLink()).toBe(true)
  })

  it('refuses a missing file with a non-empty old_string', async () => {
    await expect(edit({ file_path: 'gone.txt', old_string: 'a', new_string: 'b' })).rejects.toThrow(/does not exist/)
  })

  it('is neither read-only nor concurrency-safe and asks for edit permission', () => {
    const input = { file_path: '/abs/f', old_string: 'a', new_string: 'b' }
    expect(EditTool.isReadOnly(input)).toBe(false)
    expect(EditTool.isConcurrencySafe(input)).toBe(false)
    expect(EditTool.permissionSubject(input, { cwd: dir })).toEqual({ kind: 'edit', path: '/abs/f' })
  })
})
