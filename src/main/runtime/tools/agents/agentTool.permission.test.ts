import { describe, expect, it } from 'vitest'
import { AgentInputSchema, AgentTool } from './agentTool'

/** What the permission engine is asked about an Agent call (SECURITY.md "Modes granted through started agents"). */
const subjectOf = (input: Record<string, unknown>) =>
  AgentTool.permissionSubject(AgentInputSchema.parse({ description: 'd', prompt: 'p', ...input }), { cwd: '/w' })

describe('the Agent tool as a permission subject', () => {
  it('starting a subagent or a teammate in its default mode only reads', () => {
    expect(subjectOf({})).toEqual({ kind: 'tool', specifier: 'general-purpose', readOnly: true })
    expect(subjectOf({ subagent_type: 'Explore' })).toEqual({ kind: 'tool', specifier: 'Explore', readOnly: true })
    expect(subjectOf({ name: 'ann', mode: 'plan' })).toEqual({
      kind: 'tool',
      specifier: 'general-purpose',
      readOnly: true
    })
  })

  it('spawning a teammate into acceptEdits or bypassPermissions names the mode it grants', () => {
    expect(subjectOf({ name: 'ann', mode: 'acceptEdits' })).toMatchObject({ readOnly: true, grantsMode: 'acceptEdits' })
    expect(subjectOf({ name: 'bob', mode: 'bypassPermissions', subagent_type: 'Explore' })).toMatchObject({
      specifier: 'Explore',
      grantsMode: 'bypassPermissions'
    })
  })
})
