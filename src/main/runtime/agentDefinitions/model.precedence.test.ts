import { describe, expect, it } from 'vitest'
import { MODEL_ALIASES } from '../model/pricing'
import { resolveAgentModel, subagentModelOverride } from './model'

const PARENT = 'claude-parent-1'

describe('resolveAgentModel', () => {
  it.each([
    {
      envOverride: 'claude-env-1',
      callModel: 'opus',
      definitionModel: 'haiku',
      expected: { model: 'claude-env-1', source: 'env' }
    },
    {
      envOverride: undefined,
      callModel: 'opus',
      definitionModel: 'haiku',
      expected: { model: MODEL_ALIASES.opus, source: 'call' }
    },
    {
      envOverride: '',
      callModel: undefined,
      definitionModel: 'haiku',
      expected: { model: MODEL_ALIASES.haiku, source: 'definition' }
    },
    {
      envOverride: undefined,
      callModel: undefined,
      definitionModel: 'claude-x-9',
      expected: { model: 'claude-x-9', source: 'definition' }
    },
    {
      envOverride: undefined,
      callModel: undefined,
      definitionModel: 'inherit',
      expected: { model: PARENT, source: 'definition' }
    },
    {
      envOverride: undefined,
      callModel: 'inherit',
      definitionModel: 'haiku',
      expected: { model: PARENT, source: 'call' }
    },
    {
      envOverride: undefined,
      callModel: undefined,
      definitionModel: undefined,
      expected: { model: PARENT, source: 'parent' }
    }
  ])('env $envOverride, call $callModel, definition $definitionModel → $expected.source', ({ expected, ...input }) => {
    expect(resolveAgentModel({ ...input, parentModel: PARENT })).toEqual(expected)
  })

  it('reads the override from SWARMDESK_SUBAGENT_MODEL, empty meaning unset', () => {
    expect(subagentModelOverride({ SWARMDESK_SUBAGENT_MODEL: 'haiku' })).toBe('haiku')
    expect(subagentModelOverride({ SWARMDESK_SUBAGENT_MODEL: '' })).toBeUndefined()
    expect(subagentModelOverride({})).toBeUndefined()
  })
})
