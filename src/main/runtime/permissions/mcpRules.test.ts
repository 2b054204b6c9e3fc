import path from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import type { PermissionSubject } from '../../../shared/permissions'
import { parseRule } from './rules'
import { makeWorkspace, type TestWorkspace } from './workspace.testkit'

const mcp = (tool: string): PermissionSubject => ({ kind: 'tool', tool, readOnly: false })

describe('MCP permission rules', () => {
  let t: TestWorkspace
  beforeAll(async () => {
    t = await makeWorkspace()
  })

  it('an MCP call asks by default; mcp__server, mcp__server__* and mcp__server__tool match as Claude Code’s do; deny wins', async () => {
    expect((await t.decide(mcp('mcp__memory__read_graph'))).decision).toBe('ask')
    const settings = await t.writeSettings(path.join(t.base, 's.json'), {
      permissions: {
        allow: ['mcp__memory', 'mcp__fs__*', 'mcp__every__echo'],
        deny: ['mcp__memory__delete_entities']
      }
    })
    const opts = { extraSettingsFiles: [settings] }
    const rows: Array<[string, 'allow' | 'ask' | 'deny']> = [
      ['mcp__memory__read_graph', 'allow'],
      ['mcp__memory__delete_entities', 'deny'],
      ['mcp__fs__read_text_file', 'allow'],
      ['mcp__every__echo', 'allow'],
      ['mcp__every__get-sum', 'ask'],
      // a server whose name starts like another's is not covered by it
      ['mcp__memory2__read_graph', 'ask'],
      ['mcp__fsx__read_text_file', 'ask']
    ]
    for (const [tool, expected] of rows) {
      const d = await t.decide(mcp(tool), 'default', opts)
      expect(d.decision, `${tool}: ${d.reason}`).toBe(expected)
    }
    expect((await t.decide(mcp('mcp__memory__read_graph'), 'default', opts)).rule?.rule).toBe('mcp__memory')
    expect((await t.decide(mcp('mcp__every__get-sum'), 'plan', opts)).decision).toBe('deny')
  })

  it('__* is only for MCP rules', () => {
    expect(parseRule('mcp__fs__*', 'x', '/').tool).toBe('mcp__fs__*')
    expect(() => parseRule('Read__*', 'x', '/')).toThrow(/only MCP rules end in __\*/)
  })
})
