import { describe, expect, it } from 'vitest'
import { draftOf, draftProblems, patchOf } from './draft'

describe('the Settings form', () => {
  it('sends nothing when nothing changed', () => {
    const values = {
      model: 'opus',
      rules: { allow: ['Read'], ask: [], deny: [] },
      stuckAfterMinutes: 5,
      paneScrollbackLines: 5000
    }
    expect(draftOf(values).paneScrollbackLines).toBe('5000')
    expect(patchOf(values, draftOf(values))).toEqual({})
  })

  it('sends changed fields, emptied ones as null, and whole rule lists one rule per line', () => {
    const values = { model: 'opus', teammateBackend: 'process' as const, rules: { allow: ['Read'], ask: [], deny: [] } }
    const draft = {
      ...draftOf(values),
      model: '',
      teammateBackend: 'worker' as const,
      deny: 'Bash(rm:*)\n\n  Edit(//etc/**) ',
      stuckAfterMinutes: '0.5',
      forkSubagents: true
    }
    expect(patchOf(values, draft)).toEqual({
      model: null,
      teammateBackend: 'worker',
      stuckAfterMinutes: 0.5,
      forkSubagents: true,
      rules: { allow: ['Read'], ask: [], deny: ['Bash(rm:*)', 'Edit(//etc/**)'] }
    })
  })

  it('names a number input that is not a number', () => {
    expect(draftProblems({}, { ...draftOf({}), autoBackgroundSeconds: 'soon', stuckAfterMinutes: '2' })).toEqual({
      autoBackgroundSeconds: ['"soon" is not a number.']
    })
    expect(draftProblems({}, { ...draftOf({}), paneScrollbackLines: '5k', stuckAfterMinutes: '2' })).toEqual({
      paneScrollbackLines: ['"5k" is not a number.']
    })
  })

  it('gives every field the contract refuses its own problem in words, all at once (issue 19 item 7)', () => {
    const problems = draftProblems(
      {},
      {
        ...draftOf({}),
        stuckAfterMinutes: '0',
        paneScrollbackLines: '50',
        autoBackgroundSeconds: 'soon',
        apiBaseUrl: 'ftp://x',
        allow: 'Read\n' + 'x'.repeat(1001)
      }
    )
    expect(problems).toEqual({
      autoBackgroundSeconds: ['"soon" is not a number.'],
      apiBaseUrl: ['the base URL must be an http(s) URL, like https://api.anthropic.com'],
      stuckAfterMinutes: ['stuckAfterMinutes must be more than 0'],
      paneScrollbackLines: ['paneScrollbackLines must be at least 100 lines'],
      allow: ['a rule is at most 1000 characters long']
    })
    expect(JSON.stringify(Object.values(problems))).not.toMatch(/"code"|"path"/)
  })

  it('sends a changed pane scrollback as a number, and an emptied one as null (back to the default)', () => {
    expect(patchOf({}, { ...draftOf({}), paneScrollbackLines: ' 5000 ' })).toEqual({ paneScrollbackLines: 5000 })
    expect(
      patchOf({ paneScrollbackLines: 5000 }, { ...draftOf({ paneScrollbackLines: 5000 }), paneScrollbackLines: '' })
    ).toEqual({ paneScrollbackLines: null })
    // main judges the range: the form sends what was typed
    expect(patchOf({}, { ...draftOf({}), paneScrollbackLines: '10' })).toEqual({ paneScrollbackLines: 10 })
  })

  it('sends only the sandbox keys that changed, and a bad domain as a problem of the allowed domains field', () => {
    expect(patchOf({}, { ...draftOf({}), sandboxEnabled: true })).toEqual({ sandbox: { enabled: true } })
    const on = { sandbox: { enabled: true, allowedDomains: ['a.example.com'] } }
    expect(
      patchOf(on, { ...draftOf(on), sandboxAutoAllow: false, allowedDomains: 'a.example.com\n*.npmjs.org\n' })
    ).toEqual({
      sandbox: { autoAllowBashIfSandboxed: false, allowedDomains: ['a.example.com', '*.npmjs.org'] }
    })
    expect(draftProblems({}, { ...draftOf({}), allowedDomains: 'https://example.com/' })).toEqual({
      allowedDomains: [
        'a domain is a host name such as example.com, or *.example.com for every name below it (no scheme, port or path)'
      ]
    })
  })
})
