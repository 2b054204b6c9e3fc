import { describe, expect, it } from 'vitest'
import { FAST_MODEL } from '../model/pricing'
import { ASYNC_ALLOWED_TOOL_NAMES, CORE_TOOLS } from '../tools/registry'
import { BUILTIN_AGENTS } from './builtins'
import { AgentDefinitionSchema } from './schema'
import { KNOWN_TOOL_NAMES } from './toolNames'
import { resolveSubagentTools } from './tools'

const byName = (name: string) => BUILTIN_AGENTS.find((a) => a.name === name)!
const MAIN_TOOLS = KNOWN_TOOL_NAMES

describe('built-in agents', () => {
  it('are the five of docs/agents.md#agent-definitions and each matches the definition schema', () => {
    expect(BUILTIN_AGENTS.map((a) => a.name)).toEqual(['general-purpose', 'Explore', 'Plan', 'verification', 'worker'])
    for (const agent of BUILTIN_AGENTS) {
      expect(AgentDefinitionSchema.parse(agent)).toEqual(agent)
      expect(agent.source).toEqual({ kind: 'builtin' })
      expect(agent.systemPrompt.length).toBeGreaterThan(200)
    }
  })

  it('gives general-purpose every tool a sync subagent may have', () => {
    const { tools } = resolveSubagentTools({
      definition: byName('general-purpose'),
      available: MAIN_TOOLS,
      async: false,
      depth: 1
    })
    expect(tools).toEqual([
      ...CORE_TOOLS.map((t) => t.name),
      'SendMessage',
      'TaskCreate',
      'TaskGet',
      'TaskList',
      'TaskUpdate'
    ])
  })

  it('makes Explore read-only, without project context, on the fast model', () => {
    const explore = byName('Explore')
    expect(explore).toMatchObject({ omitClaudeMd: true, model: FAST_MODEL, background: false })
    const { tools } = resolveSubagentTools({ definition: explore, available: MAIN_TOOLS, async: false, depth: 1 })
    expect(tools).not.toContain('Edit')
    expect(tools).not.toContain('Write')
    expect(tools).not.toContain('Agent')
    expect(tools).toEqual(expect.arrayContaining(['Read', 'Glob', 'Grep', 'Bash']))
    expect(explore.systemPrompt).toMatch(/path:line/)
    expect(explore.systemPrompt).toMatch(/never create, edit/)
  })

  it('makes Plan read-only without project context, producing a plan on the parent model', () => {
    const plan = byName('Plan')
    expect(plan).toMatchObject({
      omitClaudeMd: true,
      model: 'inherit',
      disallowedTools: ['Agent', 'Edit', 'Write', 'NotebookEdit']
    })
    expect(plan.systemPrompt).toMatch(/implementation plan/)
  })

  it('runs verification in the background, without Edit, asking for evidence and a verdict line', () => {
    const verification = byName('verification')
    expect(verification).toMatchObject({ background: true, omitClaudeMd: false })
    const { tools } = resolveSubagentTools({ definition: verification, available: MAIN_TOOLS, async: true, depth: 1 })
    expect(tools).toEqual(['Read', 'Write', 'Glob', 'Grep', 'Bash', 'BashOutput', 'KillShell'])
    expect(verification.systemPrompt).toMatch(/VERDICT: PASS/)
    expect(verification.systemPrompt).toMatch(/temp directory/)
    expect(verification.systemPrompt).toMatch(/Command:/)
  })

  it('gives the worker the async tool set and the Scope/Result/Key files/Files changed/Issues report', () => {
    const worker = byName('worker')
    expect(worker.tools).toEqual([...ASYNC_ALLOWED_TOOL_NAMES])
    const { tools } = resolveSubagentTools({ definition: worker, available: MAIN_TOOLS, async: true, depth: 1 })
    expect(tools).toEqual([...ASYNC_ALLOWED_TOOL_NAMES])
    for (const section of ['Scope:', 'Result:', 'Key files:', 'Files changed:', 'Issues:'])
      expect(worker.systemPrompt).toContain(section)
  })
})
