import { mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, expectPaneToContain, paneText, promptLeader, test, type ScenarioObject } from './fixtures'
import { sessionDir } from './sessionFiles'
import { startServe, type ServedWorkspace } from './serve'
import { PANE_JOURNAL_DIR, readPaneJournal } from '../src/main/app/restore/paneJournal'
import { PANE_RESTORE_MAX_CHARS } from '../src/main/app/panes'

/**
 * Restore of a pane that was streaming coloured non-ASCII output fast when `swarmdesk serve` was
 * killed (`kill -9`), twice, with the pane journal switching segments in between: what each restart
 * shows is the stream's lines in order, none doubled, none torn, and the journal keeps the last MiB.
 */

/** Prints numbered coloured lines of CJK, emoji and a combining mark as fast as the pane takes them, numbers from `argv[1]`. */
const STREAM = `import sys
out = sys.stdout.buffer
n = int(sys.argv[1])
while True:
    chunk = ''.join(f'\\x1b[3{(n + i) % 7}m{n + i:08d} 漢字かな😀e\\u0301 ok\\x1b[0m {"-" * 40} end\\r\\n' for i in range(50))
    out.write(chunk.encode())
    out.flush()
    n += 50
`

const STREAMING: ScenarioObject = {
  name: 'restore-stream',
  agents: {
    'team-lead': [
      {
        when: 'Stream the log',
        text: 'Streaming.',
        tools: [{ name: 'Bash', input: { command: 'python3 stream.py 0', timeout: 600000 } }]
      },
      {
        when: 'Interrupted:',
        text: 'Streaming again.',
        tools: [{ name: 'Bash', input: { command: 'python3 stream.py 50000000', timeout: 600000 } }]
      }
    ]
  }
}

/** A streamed line as a pane's text reads it. */
const LINE = /^(\d{8}) 漢字かな😀(?:e\u0301|é) ok -{40} end$/

/** The highest segment number of the session's pane journal (0 before any). */
function journalSeq(home: string): number {
  try {
    const dir = join(sessionDir(home), PANE_JOURNAL_DIR)
    return Math.max(
      0,
      ...readdirSync(dir)
        .filter((f) => f.endsWith('.out'))
        .map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8').split('\n', 1)[0]!).seq as number)
    )
  } catch {
    return 0
  }
}

/**
 * The stream's line numbers in `text`, checking every line that carries one is whole but for the
 * last of a run (the stream was killed mid-line), which must then be on a line of its own.
 */
function streamNumbers(text: string): number[] {
  const numbers: number[] = []
  const lines = text.split('\n').map((line) => line.replace(/\r$/, '').trimEnd())
  lines.forEach((line, i) => {
    if (!/^\d{8} /.test(line)) return
    const match = LINE.exec(line)
    const lastOfRun = !/^\d{8} /.test(lines[i + 1] ?? '')
    if (!match && lastOfRun) return
    expect(match, `a whole streamed line, not ${JSON.stringify(line)}`).not.toBeNull()
    numbers.push(Number(match![1]))
  })
  return numbers
}

/** Numbers that do not follow the one before (a gap, a repeat or a step back). */
function breaks(numbers: number[]): string[] {
  const found: string[] = []
  for (let i = 1; i < numbers.length; i++)
    if (numbers[i] !== numbers[i - 1]! + 1) found.push(`${numbers[i - 1]} → ${numbers[i]}`)
  return found
}

let home: string
test.beforeEach(() => {
  home = realpathSync(mkdtempSync(join(tmpdir(), 'swarmdesk-e2e-restore-stream-')))
})
test.afterEach(() => rmSync(home, { recursive: true, force: true }))

test('kill -9 while a pane streams coloured CJK and emoji, twice: each restart shows the lines in order, whole, none doubled, and the last MiB is kept', async ({
  page,
  repo
}) => {
  test.setTimeout(300_000)
  writeFileSync(join(repo, 'stream.py'), STREAM)
  const runs: ServedWorkspace[] = []
  const start = async (): Promise<ServedWorkspace> => {
    const run = await startServe({ cwd: repo, scenario: STREAMING, permissionMode: 'bypassPermissions', home })
    runs.push(run)
    return run
  }
  try {
    const first = await start()
    await page.goto(first.url)
    await promptLeader(page, 'Stream the log, please.')
    await expect.poll(() => journalSeq(home), { timeout: 120_000 }).toBeGreaterThanOrEqual(3)
    await first.crash()
    const saved = readPaneJournal(join(sessionDir(home), PANE_JOURNAL_DIR))['team-lead']!
    expect(saved.length).toBeGreaterThan(PANE_RESTORE_MAX_CHARS - 200)
    expect(breaks(streamNumbers(saved))).toEqual([])

    const second = await start()
    await page.goto(second.url)
    await expectPaneToContain(page, 'interrupted — the workspace stopped')
    const shown = await paneText(page)
    expect(shown).not.toContain('\ufffd')
    const numbers = streamNumbers(shown)
    expect(numbers.length).toBeGreaterThan(100)
    expect(breaks(numbers)).toEqual([])
    // the notice is a line of its own after the last streamed line
    const lines = shown.split('\n').map((l) => l.trimEnd())
    expect(lines.some((l) => l.startsWith('‖ interrupted — the workspace stopped'))).toBe(true)

    // the second run streams again (numbers from 50,000,000) across more switches, and is killed too
    const seqBefore = journalSeq(home)
    await page.locator('section.pane[data-agent-id="team-lead"]').getByTestId('resume').click()
    await expect.poll(() => journalSeq(home), { timeout: 120_000 }).toBeGreaterThanOrEqual(seqBefore + 2)
    await second.crash()
    const savedAgain = readPaneJournal(join(sessionDir(home), PANE_JOURNAL_DIR))['team-lead']!
    expect(savedAgain.length).toBeGreaterThan(PANE_RESTORE_MAX_CHARS - 200)
    expect(breaks(streamNumbers(savedAgain))).toEqual([])

    const third = await start()
    await page.goto(third.url)
    await expectPaneToContain(page, 'interrupted — the workspace stopped')
    const shownAgain = await paneText(page)
    expect(shownAgain).not.toContain('\ufffd')
    const again = streamNumbers(shownAgain)
    expect(again[again.length - 1]).toBeGreaterThan(50_000_000)
    expect(breaks(again)).toEqual([])
    expect(await third.stop()).toBe(0)
  } finally {
    for (const run of runs) await run.crash()
  }
})
