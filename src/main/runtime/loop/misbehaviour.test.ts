import { mkdtempSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { MAX_COMMAND_BYTES } from '../tools/shell/bash'
import { CORE_TOOLS } from '../tools/registry'
import { runQuery, startLoopHarness, type LoopHarness } from './loop.testkit'

// Issue 10's model misbehaviour, through the real SDK, the scripted model and the real tools:
// inputs no tool can use come back to the model as clear tool errors it can act on — the agent
// keeps going — and a large but usable input simply works.

let dir: string
let harness: LoopHarness | undefined
beforeEach(() => {
  dir = realpathSync(mkdtempSync(join(tmpdir(), 'swarmdesk-misbehave-')))
})
afterEach(async () => {
  await harness?.close()
  harness = undefined
  rmSync(dir, { recursive: true, force: true })
})

/** Runs one scripted tool call, then "ok"; returns the call's result event and how the run ended. */
async function runOne(name: string, input: Record<string, unknown>) {
  harness = await startLoopHarness({ agents: { 'team-lead': [{ tools: [{ name, input }] }, { text: 'ok' }] } })
  const { events, end } = await runQuery(harness, { cwd: dir, tools: [...CORE_TOOLS] })
  const results = events.filter((e) => e.type === 'tool_result')
  expect(results).toHaveLength(1)
  return { result: results[0] as Extract<(typeof events)[number], { type: 'tool_result' }>, end }
}

describe('huge and unusable tool inputs from the model', () => {
  it('a Bash command longer than bash can take is refused before anything starts, saying how to run it instead', async () => {
    const marker = join(dir, 'ran.txt')
    const { result, end } = await runOne('Bash', {
      command: `touch '${marker}'; echo ${'y'.repeat(MAX_COMMAND_BYTES)}`
    })
    expect(end).toMatchObject({ reason: 'completed', finalText: 'ok' })
    expect(result.isError).toBe(true)
    expect(result.output).toMatch(
      /^The command is \d+ bytes; a command may be at most 131071 bytes\. Write long scripts or data to a file/
    )
    expect(() => statSync(marker)).toThrow()
  })

  it('a command just under the limit runs', async () => {
    const { result } = await runOne('Bash', { command: `printf %s ${'z'.repeat(100_000)} | wc -c` })
    expect(result.isError).toBe(false)
    expect(result.output).toContain('100000')
  })

  it('a glob pattern too long to compile is a tool error, not a crashed agent', async () => {
    writeFileSync(join(dir, 'a.ts'), '')
    const { result, end } = await runOne('Glob', { pattern: '**/'.repeat(30_000) + '*.ts' })
    expect(end.reason).toBe('completed')
    expect(result.isError).toBe(true)
    expect(result.output).toMatch(/^Invalid glob pattern \(90004 characters\): .*Use a shorter pattern/)
  })

  it('a catastrophic-backtracking grep pattern answers instead of freezing the process', async () => {
    writeFileSync(join(dir, 'a.txt'), 'a'.repeat(50_000) + '!\n')
    const { result, end } = await runOne('Grep', { pattern: '(a+)+$', output_mode: 'content' })
    expect(end.reason).toBe('completed')
    expect(result).toMatchObject({ isError: false, output: 'No matches found' })
  })

  it('a grep pattern of 96,000 characters is searched, not a crashed agent', async () => {
    writeFileSync(join(dir, 'a.txt'), 'aaaa\n')
    const { result, end } = await runOne('Grep', { pattern: '(a+)+$'.repeat(16_000), output_mode: 'content' })
    expect(end.reason).toBe('completed')
    expect(result).toMatchObject({ isError: false, output: 'No matches found' })
  })

  it('a file path longer than the system allows is a tool error', async () => {
    const { result, end } = await runOne('Read', { file_path: join(dir, 'p/'.repeat(5_000) + 'x.txt') })
    expect(end.reason).toBe('completed')
    expect(result.isError).toBe(true)
    expect(result.output).toMatch(/ENAMETOOLONG|too long/i)
  })

  it('a 3 MB Write lands whole', async () => {
    const content = 'line of text\n'.repeat(240_000)
    const { result, end } = await runOne('Write', { file_path: 'big.txt', content })
    expect(result.isError).toBe(false)
    expect(readFileSync(join(dir, 'big.txt'), 'utf8')).toBe(content)
    // the call's 3 MB argument is cut in the history, so the next request fits the window and the agent goes on
    expect(end).toMatchObject({ reason: 'completed', finalText: 'ok' })
    for (const r of harness!.server.requests())
      expect(r.promptTokens).toBeLessThanOrEqual(harness!.server.scenario.contextWindow)
  })
})
