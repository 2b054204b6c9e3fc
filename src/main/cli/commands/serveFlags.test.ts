import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { parseServeFlags } from './serve'

describe('swarmdesk serve flags', () => {
  it('takes --mcp-config, repeatable and resolved against the cwd, as run does (docs/tools.md#mcp-servers)', () => {
    expect(parseServeFlags(['--mcp-config', 'a.json', '--mcp-config', '/etc/b.json']).mcpConfigFiles).toEqual([
      join(process.cwd(), 'a.json'),
      '/etc/b.json'
    ])
    expect(parseServeFlags([]).mcpConfigFiles).toEqual([])
  })
})
