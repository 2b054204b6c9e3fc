import { describe, expect, it } from 'vitest'
import { checkVerificationReport } from './verification'

const fence = '```'
const EVIDENCE = `### Check: the tests pass
Command: \`npm test\`
Output:
${fence}
Tests  12 passed (12)
exit 0
${fence}
Result: PASS

### Check: the build compiles
Command: \`npx tsc --noEmit\`
Output: (no output, exit 0)
Result: PASS`

describe('checkVerificationReport', () => {
  it('accepts a PASS whose every check shows its command and output', () => {
    expect(checkVerificationReport(`${EVIDENCE}\n\nVERDICT: PASS\n`)).toEqual({
      verdict: 'PASS',
      verified: true,
      problems: []
    })
  })

  it('accepts $-prompt code blocks as evidence', () => {
    const report = `Ran the suite:\n${fence}\n$ npm test\nall 3 passed\n${fence}\nVERDICT: FAIL`
    expect(checkVerificationReport(report)).toMatchObject({ verdict: 'FAIL', verified: true })
  })

  it('marks a PASS without any command and output as unverified', () => {
    const result = checkVerificationReport('I looked at the code and it all seems right.\nVERDICT: PASS')
    expect(result.verdict).toBe('PASS')
    expect(result.verified).toBe(false)
    expect(result.problems.join('\n')).toMatch(/no check shows a command and its output/)
    expect(result.problems.join('\n')).toMatch(/unverified/)
  })

  it('marks a PASS unverified when one check shows a command but no output', () => {
    const result = checkVerificationReport(
      `${EVIDENCE}\n\n### Check: lint\nCommand: \`npm run lint\`\nResult: PASS\n\nVERDICT: PASS`
    )
    expect(result.verified).toBe(false)
    expect(result.problems[0]).toMatch(/`npm run lint` shows no output/)
  })

  it('reports a missing verdict and a verdict that is not the last line', () => {
    expect(checkVerificationReport(EVIDENCE)).toMatchObject({ verdict: null, verified: false })
    const late = checkVerificationReport(`${EVIDENCE}\nVERDICT: PARTIAL\nSome more words.`)
    expect(late.verdict).toBe('PARTIAL')
    expect(late.problems).toContain('the VERDICT line is not the last line')
  })
})

describe('checkVerificationReport verdict line', () => {
  it.each([['VERDICT: PASS'], ['**VERDICT: PASS**'], ['VERDICT: **PASS**'], ['verdict: pass.'], ['**VERDICT:** PASS']])(
    'reads %s',
    (line) => {
      expect(checkVerificationReport(`$ x\n${line}`).verdict).toBe('PASS')
    }
  )

  it('does not read a line that names two verdicts', () => {
    expect(checkVerificationReport('VERDICT: PASS or FAIL').verdict).toBeNull()
  })
})
