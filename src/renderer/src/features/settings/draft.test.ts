import { describe, expect, it } from 'vitest'
import { draftOf, draftProblems, patchOf } from './draft'

describe('the Settings form', () => {
  it('sends nothing when nothing changed', () => {
    const values = { model: 'opus', rules: { allow: ['Read'], ask: [], deny: [] }, stuckAfterMinutes: 5 }
    expect(patchOf(values, draftOf(values))).toEqual({})
  })

  it('sends changed fields, emptied ones as null, and whole rule lists one rule per line', () => {
    const values = { model: 'opus', teammateBackend: 'process' as const, rules: { allow: ['Read'], ask: [], deny: [] } }
    const draft = { ...draftOf(values), model: '', teammateBackend: 'worker' as const, deny: 'Bash(rm:*)\n\n  Edit(//etc/**) ', stuckAfterMinutes: '0.5', forkSubagents: true }
    expect(patchOf(values, draft)).toEqual({
      model: null,
      teammateBackend: 'worker',
      stuckAfterMinutes: 0.5,
      forkSubagents: true,
      rules: { allow: ['Read'], ask: [], deny: ['Bash(rm:*)', 'Edit(//etc/**)'] }
    })
  })

  it('names a number input that is not a number', () => {
    expect(draftProblems({ ...draftOf({}), autoBackgroundSeconds: 'soon', stuckAfterMinutes: '2' })).toEqual(['Auto-background delay: "soon" is not a number.'])
  })
})
