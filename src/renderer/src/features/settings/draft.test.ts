import { describe, expect, it } from 'vitest'
import { draftOf, draftProblems, patchOf } from './draft'

describe('the Settings form', () => {
  it('sends nothing when nothing changed', () => {
    const values = { model: 'opus', rules: { allow: ['Read'], ask: [], deny: [] }, stuckAfterMinutes: 5, paneScrollbackLines: 5000 }
    expect(draftOf(values).paneScrollbackLines).toBe('5000')
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
    expect(draftProblems({ ...draftOf({}), paneScrollbackLines: '5k', stuckAfterMinutes: '2' })).toEqual(['Pane scrollback: "5k" is not a number.'])
  })

  it('sends a changed pane scrollback as a number, and an emptied one as null (back to the default)', () => {
    expect(patchOf({}, { ...draftOf({}), paneScrollbackLines: ' 5000 ' })).toEqual({ paneScrollbackLines: 5000 })
    expect(patchOf({ paneScrollbackLines: 5000 }, { ...draftOf({ paneScrollbackLines: 5000 }), paneScrollbackLines: '' })).toEqual({ paneScrollbackLines: null })
    // main judges the range: the form sends what was typed
    expect(patchOf({}, { ...draftOf({}), paneScrollbackLines: '10' })).toEqual({ paneScrollbackLines: 10 })
  })
})
