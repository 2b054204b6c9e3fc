import { describe, expect, it } from 'vitest'
import { KNOWN_TOOL_NAMES } from './toolNames'
import { loadAgentDefinitions } from './loader'
import { agentFile, makeAgentDirs } from './agentDefinitions.testkit'
import { resolveSubagentTools } from './tools'

describe('custom agent files', () => {
  it('loads a Claude Code definition as its author expects: string tools, alias model, body as prompt', async () => {
    const d = await makeAgentDirs()
    const path = await d.write(
      d.cwd,
      '.claude/agents/reviewer.md',
      agentFile(
        ['name: code-reviewer', 'description: Reviews diffs', 'tools: Read, Grep, Glob', 'model: sonnet'],
        'You review code.\n\nBe strict.'
      )
    )
    const { definitions, files } = await loadAgentDefinitions(d)
    expect(files).toEqual([
      {
        name: 'code-reviewer',
        source: path,
        tools: ['Read', 'Grep', 'Glob'],
        model: 'sonnet',
        warnings: [],
        problems: []
      }
    ])
    expect(definitions.get('code-reviewer')).toEqual({
      name: 'code-reviewer',
      description: 'Reviews diffs',
      tools: ['Read', 'Grep', 'Glob'],
      disallowedTools: [],
      model: 'sonnet',
      background: false,
      omitClaudeMd: false,
      systemPrompt: 'You review code.\n\nBe strict.',
      source: { kind: 'project', path }
    })
  })

  it('reads a YAML list of tools and every optional field', async () => {
    const d = await makeAgentDirs()
    await d.write(
      d.cwd,
      '.swarmdesk/agents/fixer.md',
      agentFile([
        'name: fixer',
        'description: Fixes',
        'tools:',
        '  - Read',
        '  - Edit',
        'disallowedTools: [Bash]',
        'model: claude-opus-5-5',
        'permissionMode: acceptEdits',
        'maxTurns: 12',
        'background: true',
        'isolation: worktree',
        'omitClaudeMd: true',
        'color: green'
      ])
    )
    const { definitions, files } = await loadAgentDefinitions({ ...d, projectTrusted: true })
    expect(files[0].warnings).toEqual([])
    expect(definitions.get('fixer')).toMatchObject({
      tools: ['Read', 'Edit'],
      disallowedTools: ['Bash'],
      model: 'claude-opus-5-5',
      permissionMode: 'acceptEdits',
      maxTurns: 12,
      background: true,
      isolation: 'worktree',
      omitClaudeMd: true,
      color: 'green'
    })
  })

  it('treats !Tool as an exclusion: only exclusions mean every tool but those', async () => {
    const d = await makeAgentDirs()
    await d.write(
      d.cwd,
      '.swarmdesk/agents/a.md',
      agentFile(['name: no-shell', 'description: d', 'tools: "!Bash, !Write"', 'disallowedTools: Edit'])
    )
    const { definitions, files } = await loadAgentDefinitions(d)
    expect(files[0].tools).toEqual(['!Bash', '!Write'])
    const def = definitions.get('no-shell')!
    expect(def.tools).toBeUndefined()
    expect(def.disallowedTools).toEqual(['Edit', 'Bash', 'Write'])
    const { tools } = resolveSubagentTools({ definition: def, available: KNOWN_TOOL_NAMES, async: true, depth: 1 })
    expect(tools).toEqual(['Read', 'Glob', 'Grep', 'BashOutput', 'KillShell', 'NotebookEdit'])
  })

  it('explains the YAML tag trap of an unquoted leading !', async () => {
    const d = await makeAgentDirs()
    await d.write(d.cwd, '.swarmdesk/agents/a.md', agentFile(['name: a', 'description: d', 'tools: !Bash']))
    const { files } = await loadAgentDefinitions(d)
    expect(files[0].problems[0]).toMatchObject({ field: 'frontmatter' })
    expect(files[0].problems[0].message).toMatch(/quote it/)
  })

  it('warns about and leaves out unknown tools, MCP tools and specifiers; reads Task as Agent', async () => {
    const d = await makeAgentDirs()
    await d.write(
      d.cwd,
      '.swarmdesk/agents/a.md',
      agentFile(['name: a', 'description: d', 'tools: Read, WebFetch, mcp__github__search, Bash(git:*), Task'])
    )
    const { definitions, files } = await loadAgentDefinitions(d)
    expect(definitions.get('a')!.tools).toEqual(['Read', 'Agent'])
    expect(files[0].problems).toEqual([])
    const messages = files[0].warnings.map((w) => `${w.field}: ${w.message}`).join('\n')
    expect(messages).toMatch(/tools: unknown tool 'WebFetch'/)
    expect(messages).toMatch(/MCP tools are not supported/)
    expect(messages).toMatch(/'Bash\(git:\*\)': tool specifiers are not supported/)
    expect(messages).toMatch(/'Task' is Claude Code's old name of Agent/)
  })

  it('warns about unknown models and unknown fields, and keeps the file', async () => {
    const d = await makeAgentDirs()
    await d.write(
      d.cwd,
      '.swarmdesk/agents/a.md',
      agentFile(['name: a', 'description: d', 'model: gpt-5', 'hooks: {}', 'color: magenta'])
    )
    const { definitions, files } = await loadAgentDefinitions(d)
    expect(files[0].problems).toEqual([])
    expect(files[0].warnings.map((w) => w.field)).toEqual(['model', 'color', 'hooks'])
    expect(definitions.get('a')).toMatchObject({ model: 'gpt-5' })
    expect(definitions.get('a')!.color).toBeUndefined()
  })

  it('gives an omitted tools list everything the parent has minus the filtered set', async () => {
    const d = await makeAgentDirs()
    await d.write(d.userHome, '.claude/agents/all.md', agentFile(['name: all-tools', 'description: d']))
    const { definitions, files } = await loadAgentDefinitions(d)
    expect(files[0].tools).toBeNull()
    const { tools } = resolveSubagentTools({
      definition: definitions.get('all-tools')!,
      available: KNOWN_TOOL_NAMES,
      async: false,
      depth: 1
    })
    expect(tools).toEqual([
      'Read',
      'Write',
      'Edit',
      'Glob',
      'Grep',
      'Bash',
      'BashOutput',
      'KillShell',
      'NotebookEdit',
      'SendMessage',
      'TaskCreate',
      'TaskGet',
      'TaskList',
      'TaskUpdate'
    ])
  })

  it('reads subfolders and only .md files', async () => {
    const d = await makeAgentDirs()
    await d.write(d.home, 'agents/team/deep.md', agentFile(['name: deep', 'description: d']))
    await d.write(d.home, 'agents/notes.txt', 'not an agent')
    const { definitions, files } = await loadAgentDefinitions(d)
    expect(files.map((f) => f.name)).toEqual(['deep'])
    expect(definitions.get('deep')!.source.kind).toBe('user')
  })

  it('lets a file opt into nesting by listing Agent, up to the depth cap', async () => {
    const d = await makeAgentDirs()
    await d.write(
      d.cwd,
      '.swarmdesk/agents/lead.md',
      agentFile(['name: sub-lead', 'description: d', 'tools: [Read, Agent]'])
    )
    const { definitions } = await loadAgentDefinitions(d)
    const at = (depth: number) =>
      resolveSubagentTools({
        definition: definitions.get('sub-lead')!,
        available: KNOWN_TOOL_NAMES,
        async: false,
        depth
      }).tools
    expect(at(4)).toEqual(['Read', 'Agent'])
    expect(at(5)).toEqual(['Read'])
  })
})
