import { chmod } from 'node:fs/promises'
import { describe, expect, it } from 'vitest'
import { loadAgentDefinitions } from './loader'
import { agentFile, makeAgentDirs } from './agentDefinitions.testkit'

async function reportOf(text: string) {
  const d = await makeAgentDirs()
  const path = await d.write(d.cwd, '.swarmdesk/agents/bad.md', text)
  const { definitions, files } = await loadAgentDefinitions(d)
  expect(files).toHaveLength(1)
  expect(files[0].source).toBe(path)
  return {
    report: files[0],
    customNames: [...definitions.values()].filter((x) => x.source.kind !== 'builtin').map((x) => x.name)
  }
}

describe('malformed agent files are reported with file and field, never dropped', () => {
  it('a file without frontmatter', async () => {
    const { report, customNames } = await reportOf('# Reviewer\n\nYou review code.\n')
    expect(report.problems).toEqual([{ field: 'frontmatter', message: expect.stringMatching(/no YAML frontmatter/) }])
    expect(customNames).toEqual([])
  })

  it('frontmatter that is never closed', async () => {
    const { report } = await reportOf('---\nname: a\ndescription: d\n')
    expect(report.problems[0].message).toMatch(/not closed/)
  })

  it('broken YAML, with the line of the file', async () => {
    const { report } = await reportOf('---\nname: a\ndescription: [unclosed\n---\nbody\n')
    expect(report.problems[0]).toMatchObject({
      field: 'frontmatter',
      message: expect.stringMatching(/YAML does not parse: .*\(line [34] of the file\)/)
    })
  })

  it.each([
    [
      'a bad indentation after comments and blank lines',
      '---\n# the reviewer\n\nname: a\n  description: d\n---\nbody\n',
      5
    ],
    ['a duplicated key', '---\nname: a\ndescription: d\nname: b\n---\nbody\n', 4],
    ['CRLF line ends', '---\r\nname: a\r\n  description: d\r\n---\r\nbody\r\n', 3],
    [
      'an unquoted !Tool, a tag, on its own line',
      '---\nname: a\ndescription: d\ntools: !Bash\nmodel: sonnet\n---\nbody\n',
      4
    ]
  ])('names the line of the file a YAML error is on: %s', async (_what, text, line) => {
    const { report } = await reportOf(text)
    expect(report.problems[0]!.message).toContain(`(line ${line} of the file)`)
  })

  it('JavaScript frontmatter is refused, never run', async () => {
    const { report } = await reportOf("---js\n{ name: (globalThis.__ran = 'yes', 'a'), description: 'd' }\n---\nbody\n")
    expect(report.problems[0].message).toMatch(/language 'js' is not supported/)
    expect((globalThis as Record<string, unknown>).__ran).toBeUndefined()
  })

  it('a missing description', async () => {
    const { report, customNames } = await reportOf(agentFile(['name: a']))
    expect(report).toMatchObject({
      name: 'a',
      problems: [{ field: 'description', message: expect.stringMatching(/required/) }]
    })
    expect(customNames).toEqual([])
  })

  it.each([['Code Reviewer'], ['code_reviewer'], ['Reviewer'], ['fork']])('a bad name: %s', async (name) => {
    const { report, customNames } = await reportOf(agentFile([`name: ${name}`, 'description: d']))
    expect(report.problems.map((p) => p.field)).toEqual(['name'])
    expect(customNames).toEqual([])
  })

  it('a missing name', async () => {
    const { report } = await reportOf(agentFile(['description: d']))
    expect(report).toMatchObject({ name: null, problems: [{ field: 'name' }] })
  })

  it.each([
    ['tools: 3', 'tools'],
    ['disallowedTools: {a: 1}', 'disallowedTools'],
    ['permissionMode: plna', 'permissionMode'],
    ['maxTurns: many', 'maxTurns'],
    ['isolation: container', 'isolation']
  ])('a value that, ignored, would widen the agent: %s', async (line, field) => {
    const { report, customNames } = await reportOf(agentFile(['name: a', 'description: d', line]))
    expect(report.problems).toEqual([{ field, message: expect.stringMatching(/expected/) }])
    expect(customNames).toEqual([])
  })

  it('an unreadable file', async () => {
    if (process.getuid?.() === 0) return
    const d = await makeAgentDirs()
    const path = await d.write(d.cwd, '.swarmdesk/agents/locked.md', agentFile(['name: a', 'description: d']))
    await chmod(path, 0o000)
    const { files } = await loadAgentDefinitions(d)
    expect(files[0].problems).toEqual([{ field: 'file', message: expect.stringMatching(/cannot be read/) }])
  })
})
