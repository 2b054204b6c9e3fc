import { mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, unlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, expectPaneToContain, paneText, promptLeader, test, type ScenarioObject } from './fixtures'
import { sessionDir } from './sessionFiles'
import { startServe, type ServedWorkspace } from './serve'
import { legacyJournalFile, PANE_JOURNAL_DIR } from '../src/main/app/restore/paneJournal'

/**
 * A session whose panes an earlier version saved (`<hash>.jsonl`, one `{a, d}` record a flush, the
 * last one torn by a crash) reopens with that output, goes on in the pane journal's segments, and
 * reopens again with both, in order, nothing doubled.
 */

const TWO_BATCHES: ScenarioObject = {
  name: 'restore-legacy',
  agents: {
    'team-lead': [
      {
        when: 'Print the old batch',
        tools: [
          {
            name: 'Bash',
            input: {
              command: 'for i in $(seq 1 300); do printf "\\033[3%dmold %03d 漢字😀\\033[0m\\n" $((i % 7)) $i; done'
            }
          }
        ]
      },
      { when: 'old 300', text: 'Old batch printed.' },
      {
        when: 'Print the new batch',
        tools: [
          {
            name: 'Bash',
            input: {
              command: 'for i in $(seq 1 300); do printf "\\033[3%dmnew %03d 漢字😀\\033[0m\\n" $((i % 7)) $i; done'
            }
          }
        ]
      },
      { when: 'new 300', text: 'New batch printed.' }
    ]
  }
}

/** The batch lines (`old 001`, `new 001`, …) in a pane's text, in order. */
function batchLines(text: string): string[] {
  return [...text.matchAll(/^(old|new) (\d{3}) 漢字😀$/gm)].map((m) => `${m[1]} ${m[2]}`)
}

let home: string
test.beforeEach(() => {
  home = realpathSync(mkdtempSync(join(tmpdir(), 'swarmdesk-e2e-restore-legacy-')))
})
test.afterEach(() => rmSync(home, { recursive: true, force: true }))

test('a session an earlier version saved as .jsonl reopens with its panes, goes on in segments, and reopens with both in order', async ({
  page,
  repo
}) => {
  test.setTimeout(120_000)
  const runs: ServedWorkspace[] = []
  const start = async (): Promise<ServedWorkspace> => {
    const run = await startServe({ cwd: repo, scenario: TWO_BATCHES, permissionMode: 'bypassPermissions', home })
    runs.push(run)
    return run
  }
  try {
    const first = await start()
    await page.goto(first.url)
    await promptLeader(page, 'Print the old batch, please.')
    await expectPaneToContain(page, 'Old batch printed.')
    expect(await first.stop()).toBe(0)
    // the earlier version's journal: the segments' output as {a, d} records, the last one torn
    const dir = join(sessionDir(home), PANE_JOURNAL_DIR)
    const segments = readdirSync(dir).filter((f) => f.endsWith('.out'))
    expect(segments).toHaveLength(1)
    const file = readFileSync(join(dir, segments[0]!), 'utf8')
    const newline = file.indexOf('\n')
    const agentId: string = JSON.parse(file.slice(0, newline)).a
    const body = file.slice(newline + 1).replace(/^\x18/, '')
    const third = Math.floor(body.length / 3)
    const records = [body.slice(0, third), body.slice(third, 2 * third), body.slice(2 * third)].map((d) =>
      JSON.stringify({ a: agentId, d })
    )
    writeFileSync(legacyJournalFile(dir, agentId), `${records.join('\n')}\n{"a":"${agentId}","d":"torn by a cr`)
    unlinkSync(join(dir, segments[0]!))

    const second = await start()
    await page.goto(second.url)
    await expectPaneToContain(page, 'Old batch printed.')
    expect(batchLines(await paneText(page, agentId))).toEqual(
      Array.from({ length: 300 }, (_, i) => `old ${String(i + 1).padStart(3, '0')}`)
    )
    await promptLeader(page, 'Print the new batch, please.')
    await expectPaneToContain(page, 'New batch printed.')
    expect(await second.stop()).toBe(0)

    const third3 = await start()
    await page.goto(third3.url)
    await expectPaneToContain(page, 'New batch printed.')
    const lines = batchLines(await paneText(page, agentId))
    const expected = ['old', 'new'].flatMap((batch) =>
      Array.from({ length: 300 }, (_, i) => `${batch} ${String(i + 1).padStart(3, '0')}`)
    )
    expect(lines).toEqual(expected)
    expect(await paneText(page, agentId)).not.toContain('torn by a cr')
    expect(await third3.stop()).toBe(0)
  } finally {
    for (const run of runs) await run.crash()
  }
})
