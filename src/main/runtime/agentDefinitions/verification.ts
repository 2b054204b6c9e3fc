/** The verdicts a verification agent may give (docs/agents.md#agent-definitions). */
export type Verdict = 'PASS' | 'FAIL' | 'PARTIAL'

/**
 * What {@link checkVerificationReport} made of a report. `verified` is true when there is a
 * verdict and every check shows its command and output (at least one check); a PASS that is not
 * verified is reported to the parent as unverified (docs/agents.md#agent-definitions), never as a pass.
 */
export interface VerificationCheck {
  verdict: Verdict | null
  verified: boolean
  /** One line each, in the order found. */
  problems: string[]
}

const VERDICT_LINE = /^\s*\**VERDICT\**\s*:\s*\**\s*(PASS|FAIL|PARTIAL)\**\.?\s*$/i
const COMMAND_LINE = /^\s*(?:[-*]\s*)?\**Command(?:\s+run)?\**:\**\s*(.*)$/i
const OUTPUT_LINE = /^\s*(?:[-*]\s*)?\**Output\**:\**\s*(.*)$/i
const SECTION_END = /^\s*(?:#{1,6}\s|\**Result\**:|\**VERDICT)/i

/**
 * Checks a verification agent's final report against the contract of its prompt: a last line
 * `VERDICT: PASS|FAIL|PARTIAL`, and evidence for every check. Evidence is either a `Command:`
 * line (command on the line or in the fenced block after it) followed by an `Output:` section
 * with something in it, or a fenced block starting with a `$ command` line followed by output.
 * Output such as "(no output, exit 0)" counts: what matters is that the agent showed it.
 * Pure; never throws.
 */
export function checkVerificationReport(text: string): VerificationCheck {
  const lines = text.replace(/\r\n/g, '\n').split('\n')
  const problems: string[] = []
  const verdict = findVerdict(lines, problems)
  let evidence = 0
  const commands = lines.flatMap((l, i) => (COMMAND_LINE.test(l) ? [i] : []))
  commands.forEach((start, n) => {
    const end = commands[n + 1] ?? lines.length
    const section = lines.slice(start, end)
    const label = commandText(section) || `#${n + 1}`
    if (hasOutput(section)) evidence++
    else problems.push(`check with command ${label} shows no output`)
  })
  evidence += countShellBlocks(lines)
  if (evidence === 0) problems.push('no check shows a command and its output')
  const verified = verdict !== null && evidence > 0 && problems.length === 0
  if (verdict === 'PASS' && !verified) problems.push('PASS without evidence for every check: treat it as unverified')
  return { verdict, verified, problems }
}

function findVerdict(lines: string[], problems: string[]): Verdict | null {
  const nonEmpty = lines.map((l, i) => [l, i] as const).filter(([l]) => l.trim() !== '')
  const found = nonEmpty.filter(([l]) => VERDICT_LINE.test(l))
  if (found.length === 0) {
    problems.push('no VERDICT line (expected a last line VERDICT: PASS, FAIL or PARTIAL)')
    return null
  }
  const [line, index] = found[found.length - 1]
  if (index !== nonEmpty[nonEmpty.length - 1][1]) problems.push('the VERDICT line is not the last line')
  return line.match(VERDICT_LINE)![1].toUpperCase() as Verdict
}

function commandText(section: string[]): string {
  const inline = section[0].match(COMMAND_LINE)![1].trim()
  if (inline) return inline
  const fence = section.findIndex((l, i) => i > 0 && l.trim().startsWith('```'))
  return fence > 0 ? (section[fence + 1] ?? '').trim() : ''
}

function hasOutput(section: string[]): boolean {
  const at = section.findIndex((l) => OUTPUT_LINE.test(l))
  if (at < 0) return false
  if (section[at].match(OUTPUT_LINE)![1].replace(/`/g, '').trim()) return true
  let inFence = false
  for (const line of section.slice(at + 1)) {
    if (line.trim().startsWith('```')) inFence = !inFence
    else if (!inFence && SECTION_END.test(line)) break
    else if (line.trim()) return true
  }
  return false
}

function countShellBlocks(lines: string[]): number {
  let count = 0
  for (let i = 0; i < lines.length; i++) {
    if (!lines[i].trim().startsWith('```')) continue
    const close = lines.findIndex((l, j) => j > i && l.trim().startsWith('```'))
    if (close < 0) break
    const body = lines.slice(i + 1, close).filter((l) => l.trim())
    if (body.length >= 2 && body[0].trim().startsWith('$ ') && !COMMAND_LINE.test(lines[i - 1] ?? '')) count++
    i = close
  }
  return count
}
