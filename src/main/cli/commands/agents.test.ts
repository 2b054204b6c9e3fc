import { describe, expect, it } from 'vitest'
import { AgentFileReportSchema } from '../../runtime/agentDefinitions'
import { agentFile, makeAgentDirs, type AgentDirs } from '../../runtime/agentDefinitions/agentDefinitions.testkit'
import { UsageError } from '../io'
import { agentsCommand } from './agents'

async function run(d: AgentDirs, argv: string[]): Promise<{ code: number; out: string }> {
  let out = ''
  const code = await agentsCommand(argv, {
    stdout: (t) => (out += t),
    env: { SWARMDESK_HOME: d.home, HOME: d.userHome }
  })
  return { code, out }
}

async function workspace(): Promise<AgentDirs & { good: string; bad: string; user: string }> {
  const d = await makeAgentDirs()
  const good = await d.write(
    d.cwd,
    '.swarmdesk/agents/reviewer.md',
    agentFile(['name: code-reviewer', 'description: Reviews diffs', 'tools: Read, Grep, WebFetch', 'model: sonnet'])
  )
  const bad = await d.write(d.cwd, '.claude/agents/broken.md', agentFile(['name: broken']))
  const user = await d.write(
    d.userHome,
    '.claude/agents/reviewer.md',
    agentFile(['name: code-reviewer', 'description: mine'])
  )
  return { ...d, good, bad, user }
}

describe('swarmdesk agents list', () => {
  it('--json prints one entry per definition file, in the docs/events.md#event-stream-and-command-line shape', async () => {
    const d = await workspace()
    const { code, out } = await run(d, ['list', '--cwd', d.cwd, '--json'])
    expect(code).toBe(0)
    const entries = JSON.parse(out) as unknown[]
    expect(entries).toHaveLength(3)
    for (const entry of entries) {
      expect(AgentFileReportSchema.parse(entry)).toEqual(entry)
      expect(Object.keys(entry as object).sort()).toEqual(
        expect.arrayContaining(['model', 'name', 'problems', 'source', 'tools', 'warnings'])
      )
    }
    expect(entries).toEqual([
      {
        name: 'code-reviewer',
        source: d.good,
        tools: ['Read', 'Grep', 'WebFetch'],
        model: 'sonnet',
        warnings: [
          { field: 'tools', message: "unknown tool 'WebFetch'; ignored" },
          { field: 'name', message: `'code-reviewer' is also defined by ${d.user}; this file takes precedence` }
        ],
        problems: []
      },
      {
        name: 'broken',
        source: d.bad,
        tools: null,
        model: null,
        warnings: [],
        problems: [{ field: 'description', message: expect.any(String) }]
      },
      {
        name: 'code-reviewer',
        source: d.user,
        tools: null,
        model: null,
        overriddenBy: d.good,
        warnings: [expect.objectContaining({ field: 'name' })],
        problems: []
      }
    ])
  })

  it('prints [] as JSON when there are no files (built-ins are not files)', async () => {
    const d = await makeAgentDirs()
    expect((await run(d, ['list', '--cwd', d.cwd, '--json'])).out).toBe('[]\n')
  })

  it('shows built-ins, custom agents and unusable files with their problems in the table', async () => {
    const d = await workspace()
    const { code, out } = await run(d, ['list', '--cwd', d.cwd])
    expect(code).toBe(0)
    const lines = out.split('\n')
    expect(lines[0]).toMatch(/^NAME\s+SOURCE\s+TOOLS\s+MODEL$/)
    expect(out).toMatch(/^Explore\s+built-in\s+all except Agent, Edit, Write, NotebookEdit\s+claude-haiku/m)
    expect(out).toMatch(/^code-reviewer\s+\.swarmdesk\/agents\/reviewer\.md\s+Read, Grep\s+sonnet$/m)
    expect(out).toMatch(/^ {4}warning {2}tools: unknown tool 'WebFetch'; ignored$/m)
    expect(out).toMatch(/^broken\s+\.claude\/agents\/broken\.md/m)
    expect(out).toMatch(/^ {4}not loaded: 1 problem\n {4}problem {2}description: required/m)
    expect(out).toMatch(
      /^code-reviewer\s+~\/\.claude\/agents\/reviewer\.md.*\n {4}not used: overridden by \.swarmdesk\/agents\/reviewer\.md/m
    )
    expect(out).toMatch(/3 definition files found, 1 with problems\./)
  })

  it('keeps every column aligned however long a tool list is, and lists no tools for a file that failed to load', async () => {
    const d = await makeAgentDirs()
    const many = 'Read, Grep, Glob, Bash, BashOutput, KillShell, Edit, Write, Agent, SendMessage, TaskStop'
    await d.write(
      d.cwd,
      '.swarmdesk/agents/wide.md',
      agentFile(['name: wide', 'description: many tools', `tools: ${many}`, 'model: opus'])
    )
    await d.write(
      d.cwd,
      '.swarmdesk/agents/broken.md',
      agentFile(['name: broken', 'tools: Read, Grep', 'model: sonnet'])
    )
    const { out } = await run(d, ['list', '--cwd', d.cwd])
    const lines = out.split('\n')
    const modelAt = lines[0]!.indexOf('MODEL')
    const rows = lines.filter((l) => /^\S/.test(l) && l.includes('  ') && !/definition files? found/.test(l))
    for (const row of rows.filter((r) => r !== lines[0])) {
      const model = row.slice(modelAt)
      expect({ row, model }).toEqual({ row, model: expect.stringMatching(/^(inherit|opus|sonnet|claude-[\w.-]+|)$/) })
    }
    // the long list wraps inside its column: every tool is still listed
    const wide = lines.findIndex((l) => l.startsWith('wide '))
    const toolsAt = lines[0]!.indexOf('TOOLS')
    const cells = [
      lines[wide]!.slice(toolsAt, modelAt),
      ...lines
        .slice(wide + 1)
        .filter((l, i, all) => all.slice(0, i + 1).every((x) => /^ {10,}\S/.test(x) && !x.startsWith('    warning')))
        .map((l) => l.slice(toolsAt))
    ]
    expect(cells.join(' ').replace(/\s+/g, ' ').trim()).toBe(many)
    expect(lines.find((l) => l.startsWith('broken '))).toMatch(
      /^broken\s+\.swarmdesk\/agents\/broken\.md\s+-\s+sonnet$/
    )
  })

  it('refuses an unknown subcommand, unknown flags and a --cwd that is not a directory', async () => {
    const d = await makeAgentDirs()
    await expect(run(d, ['show'])).rejects.toThrow(UsageError)
    await expect(run(d, ['list', '--verbose'])).rejects.toThrow(/swarmdesk agents list/)
    await expect(run(d, ['list', '--cwd', `${d.cwd}/missing`])).rejects.toThrow(/not a directory/)
  })
})
