import { z } from 'zod'
import { describe, expect, it } from 'vitest'
import { EditTool } from './edit'
import { GlobTool } from './glob'
import { GrepTool } from './grep'
import { ReadTool } from './read'
import { WriteTool } from './write'

/** Input fields per tool, exactly as Claude Code names them (docs/tools.md#tools), required ones first. */
const FIELDS: Array<[{ name: string; inputSchema: z.ZodType }, string[], string[]]> = [
  [ReadTool, ['file_path'], ['offset', 'limit']],
  [WriteTool, ['file_path', 'content'], []],
  [EditTool, ['file_path', 'old_string', 'new_string'], ['replace_all']],
  [GlobTool, ['pattern'], ['path']],
  [
    GrepTool,
    ['pattern'],
    ['path', 'glob', 'type', 'output_mode', '-i', '-n', '-A', '-B', '-C', 'head_limit', 'multiline']
  ]
]

describe('file tool input schemas', () => {
  const cases = FIELDS.map(([tool, required, optional]) => ({ name: tool.name, tool, required, optional }))
  it.each(cases)('$name uses Claude Code field names', ({ tool, required, optional }) => {
    const schema = z.toJSONSchema(tool.inputSchema, { io: 'input' }) as { properties: object; required?: string[] }
    expect(Object.keys(schema.properties).sort()).toEqual([...required, ...optional].sort())
    expect((schema.required ?? []).sort()).toEqual([...required].sort())
  })

  it('gives Grep output_mode the three ripgrep-like modes', () => {
    expect(GrepTool.inputSchema.safeParse({ pattern: 'x', output_mode: 'content' }).success).toBe(true)
    expect(GrepTool.inputSchema.safeParse({ pattern: 'x', output_mode: 'lines' }).success).toBe(false)
  })

  it('rejects negative offsets and a zero limit for Read', () => {
    expect(ReadTool.inputSchema.safeParse({ file_path: 'a', offset: -1 }).success).toBe(false)
    expect(ReadTool.inputSchema.safeParse({ file_path: 'a', limit: 0 }).success).toBe(false)
  })
})
