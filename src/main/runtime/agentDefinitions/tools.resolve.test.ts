import { describe, expect, it } from 'vitest'
import { ASYNC_ALLOWED_TOOL_NAMES } from '../tools/registry'
import { KNOWN_TOOL_NAMES, resolveTeammateTools, SUBAGENT_FORBIDDEN_TOOLS } from './toolNames'
import { resolveSubagentTools } from './tools'

const ALL = KNOWN_TOOL_NAMES
const def = (tools: string[] | undefined, disallowedTools: string[] = []) => ({ tools, disallowedTools })

describe('resolveSubagentTools', () => {
  it('gives an agent with no tools list everything the parent has minus the tools no subagent may have', () => {
    const { tools, dropped } = resolveSubagentTools({
      definition: def(undefined),
      available: ALL,
      async: false,
      depth: 1
    })
    expect(tools).toEqual(ALL.filter((t) => !SUBAGENT_FORBIDDEN_TOOLS.includes(t)))
    expect(dropped).toEqual(
      ALL.filter((t) => SUBAGENT_FORBIDDEN_TOOLS.includes(t)).map((tool) => ({ tool, reason: 'subagent-only-main' }))
    )
  })

  it('gives an explicit list exactly, in the parent order, and reports listed tools the parent lacks', () => {
    const { tools, dropped } = resolveSubagentTools({
      definition: def(['Grep', 'Read', 'Glob']),
      available: ALL,
      async: false,
      depth: 1
    })
    expect(tools).toEqual(['Read', 'Glob', 'Grep'])
    expect(dropped.filter((d) => d.reason !== 'not-listed')).toEqual([])
    const lacking = resolveSubagentTools({
      definition: def(['Read', 'Bash']),
      available: ['Read'],
      async: false,
      depth: 1
    })
    expect(lacking).toEqual({ tools: ['Read'], dropped: [{ tool: 'Bash', reason: 'unavailable' }] })
  })

  it('removes !X entries and disallowedTools, from an omitted or an explicit list', () => {
    expect(
      resolveSubagentTools({ definition: def(['!Bash']), available: ASYNC_ALLOWED_TOOL_NAMES, async: false, depth: 1 })
        .tools
    ).toEqual(['Read', 'Write', 'Edit', 'Glob', 'Grep', 'BashOutput', 'KillShell', 'NotebookEdit'])
    const { tools, dropped } = resolveSubagentTools({
      definition: def(['Read', 'Edit', 'Bash'], ['Edit']),
      available: ASYNC_ALLOWED_TOOL_NAMES,
      async: false,
      depth: 1
    })
    expect(tools).toEqual(['Read', 'Bash'])
    expect(dropped).toContainEqual({ tool: 'Edit', reason: 'disallowed' })
  })

  it('drops the forbidden tools even when listed, except Agent', () => {
    const { tools } = resolveSubagentTools({
      definition: def(['Read', 'AskUserQuestion', 'TeamCreate', 'TaskStop', 'Agent']),
      available: ALL,
      async: false,
      depth: 1
    })
    expect(tools).toEqual(['Read', 'Agent'])
  })

  it('keeps an explicitly listed Agent below the depth cap and drops it at the cap', () => {
    const at = (depth: number) =>
      resolveSubagentTools({ definition: def(['Read', 'Agent']), available: ALL, async: false, depth })
    expect(at(4).tools).toEqual(['Read', 'Agent'])
    expect(at(5).tools).toEqual(['Read'])
    expect(at(5).dropped).toContainEqual({ tool: 'Agent', reason: 'depth-cap' })
  })

  it('never gives Agent to a definition that inherits all tools (nesting is opt-in)', () => {
    expect(
      resolveSubagentTools({ definition: def(undefined), available: ALL, async: false, depth: 1 }).tools
    ).not.toContain('Agent')
  })

  it('keeps only the async allow list for async agents, plus an explicitly listed Agent under the cap', () => {
    const { tools, dropped } = resolveSubagentTools({
      definition: def(undefined),
      available: ALL,
      async: true,
      depth: 1
    })
    expect(tools).toEqual([...ASYNC_ALLOWED_TOOL_NAMES])
    expect(dropped).toContainEqual({ tool: 'SendMessage', reason: 'async' })
    expect(
      resolveSubagentTools({ definition: def(['Read', 'Agent', 'TaskList']), available: ALL, async: true, depth: 2 })
        .tools
    ).toEqual(['Read', 'Agent'])
  })
})

describe('resolveTeammateTools', () => {
  it('is the async allow list plus messaging, the task list and Agent; ExitPlanMode only when plan-required', () => {
    const base = [
      ...ASYNC_ALLOWED_TOOL_NAMES,
      'SendMessage',
      'TaskCreate',
      'TaskGet',
      'TaskList',
      'TaskUpdate',
      'Agent'
    ]
    expect(resolveTeammateTools({ planModeRequired: false })).toEqual(base)
    expect(resolveTeammateTools({ planModeRequired: true })).toEqual([...base, 'ExitPlanMode'])
  })
})
