import { describe, expect, it } from 'vitest'
import { loadAgentDefinitions } from './loader'
import { agentFile, makeAgentDirs } from './agentDefinitions.testkit'

const file = (name: string, description: string) => agentFile([`name: ${name}`, `description: ${description}`])

describe('agent definition precedence', () => {
  it('project .swarmdesk > project .claude > user .swarmdesk > user .claude, losers marked overriddenBy', async () => {
    const d = await makeAgentDirs()
    const userClaude = await d.write(d.userHome, '.claude/agents/r.md', file('reviewer', 'user claude'))
    const userOwn = await d.write(d.home, 'agents/r.md', file('reviewer', 'user swarmdesk'))
    const projectClaude = await d.write(d.cwd, '.claude/agents/r.md', file('reviewer', 'project claude'))
    const projectOwn = await d.write(d.cwd, '.swarmdesk/agents/r.md', file('reviewer', 'project swarmdesk'))
    const { definitions, files } = await loadAgentDefinitions(d)
    expect(definitions.get('reviewer')).toMatchObject({
      description: 'project swarmdesk',
      source: { kind: 'project', path: projectOwn }
    })
    expect(files.map((f) => [f.source, f.overriddenBy])).toEqual([
      [projectOwn, undefined],
      [projectClaude, projectOwn],
      [userOwn, projectOwn],
      [userClaude, projectOwn]
    ])
    expect(files[1].warnings[0]).toMatchObject({
      field: 'name',
      message: expect.stringMatching(/takes precedence; this file is not used/)
    })
  })

  it('project beats user on a clash', async () => {
    const d = await makeAgentDirs()
    const user = await d.write(d.home, 'agents/x.md', file('helper', 'from user'))
    const project = await d.write(d.cwd, '.swarmdesk/agents/x.md', file('helper', 'from project'))
    const { definitions, files } = await loadAgentDefinitions(d)
    expect(definitions.get('helper')!.description).toBe('from project')
    expect(files.find((f) => f.source === user)!.overriddenBy).toBe(project)
  })

  it('a file with problems never takes a name from a usable one', async () => {
    const d = await makeAgentDirs()
    await d.write(d.cwd, '.swarmdesk/agents/x.md', agentFile(['name: helper']))
    const user = await d.write(d.home, 'agents/x.md', file('helper', 'usable'))
    const { definitions, files } = await loadAgentDefinitions(d)
    expect(definitions.get('helper')!.source).toEqual({ kind: 'user', path: user })
    expect(files.every((f) => f.overriddenBy === undefined)).toBe(true)
  })

  it('a custom file replaces a built-in of the same name, with a warning', async () => {
    const d = await makeAgentDirs()
    const path = await d.write(d.cwd, '.swarmdesk/agents/gp.md', file('general-purpose', 'ours'))
    const { definitions, files, overriddenBuiltins } = await loadAgentDefinitions(d)
    expect(definitions.get('general-purpose')!.description).toBe('ours')
    expect(overriddenBuiltins.get('general-purpose')).toBe(path)
    expect(files[0].warnings).toEqual([{ field: 'name', message: "replaces the built-in agent 'general-purpose'" }])
  })

  it('without custom files, the definitions are the built-ins', async () => {
    const d = await makeAgentDirs()
    const { definitions, files } = await loadAgentDefinitions(d)
    expect([...definitions.keys()]).toEqual(['general-purpose', 'Explore', 'Plan', 'verification', 'worker'])
    expect(files).toEqual([])
  })
})

describe('replacing a capitalised built-in', () => {
  it('accepts a file named exactly like Explore and lets it replace the built-in', async () => {
    const { mkdtempSync, mkdirSync, writeFileSync, rmSync } = await import('node:fs')
    const { tmpdir } = await import('node:os')
    const { join } = await import('node:path')
    const { loadAgentDefinitions } = await import('./loader')
    const cwd = mkdtempSync(join(tmpdir(), 'swarmdesk-agents-'))
    try {
      mkdirSync(join(cwd, '.swarmdesk', 'agents'), { recursive: true })
      writeFileSync(
        join(cwd, '.swarmdesk', 'agents', 'explore.md'),
        '---\nname: Explore\ndescription: Mine\ntools: Read, Grep\n---\nMy way.\n'
      )
      const loaded = await loadAgentDefinitions({ cwd, home: join(cwd, 'home'), userHome: join(cwd, 'user') })
      expect(loaded.files[0]!.problems).toEqual([])
      expect(loaded.definitions.get('Explore')).toMatchObject({ description: 'Mine', tools: ['Read', 'Grep'] })
    } finally {
      rmSync(cwd, { recursive: true, force: true })
    }
  })
})
