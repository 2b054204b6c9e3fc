import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Page } from '@playwright/test'
import {
  expect,
  expectPaneToContain,
  paneSize,
  paneText,
  promptLeader,
  snap,
  test,
  type ScenarioObject
} from './fixtures'
import { lastSessionId, projectDir } from './sessionFiles'
import { startServe, type ServedWorkspace } from './serve'
import { PANE_JOURNAL_DIR, readPaneJournal } from '../src/main/app/restore/paneJournal'

/**
 * Restore after restart (issue 8) in Chromium against `swarmdesk serve`: a reload and a clean
 * restart bring back the panes with their scrollback and the task board; after a `kill -9` of
 * serve, a new serve on the same home and folder shows the previous panes and the leader
 * "interrupted" with Resume, has killed the command the dead run left behind, and Resume lets the
 * leader finish its work.
 */

const BOARD: ScenarioObject = {
  name: 'restore-board',
  agents: {
    'team-lead': [
      {
        when: 'Plan the release',
        text: 'Making a team for the release.',
        tools: [{ name: 'TeamCreate', input: { team_name: 'release', description: 'the release' } }]
      },
      {
        when: "Team 'release' created",
        tools: [{ name: 'TaskCreate', input: { subject: 'Write the changelog', description: 'from the commits' } }]
      },
      {
        when: 'Task #1 created',
        tools: [{ name: 'TaskCreate', input: { subject: 'Tag the release', description: 'after the changelog' } }]
      },
      { when: 'Task #2 created', text: 'Two tasks are on the board.' }
    ]
  }
}

const LONG_JOB: ScenarioObject = {
  name: 'restore-crash',
  agents: {
    'team-lead': [
      {
        when: 'Start the long job',
        tools: [{ name: 'TeamCreate', input: { team_name: 'ops', description: 'the long job' } }]
      },
      {
        when: "Team 'ops' created",
        tools: [{ name: 'TaskCreate', input: { subject: 'Ship the report', description: 'after the long job' } }]
      },
      // the command ignores SIGHUP, so it outlives a killed serve unless the next start cleans up
      {
        when: 'Task #1 created',
        text: 'Starting the long job.',
        tools: [{ name: 'Bash', input: { command: "trap '' HUP; echo long-job-started; sleep 600", timeout: 600000 } }]
      },
      // after the restart: the cut call's placeholder result reaches the model, which finishes the work
      {
        when: 'Interrupted:',
        text: 'The long job was cut short; writing the report directly.',
        tools: [{ name: 'Write', input: { file_path: 'report.txt', content: 'report finished after the restart\n' } }]
      },
      { when: 'report.txt', text: 'All done after the restart.' }
    ]
  }
}

/** The restored "interrupted" line, as a pane's text reads it (restore/startup.ts INTERRUPTED_PANE_LINE). */
const NOTICE = 'interrupted — the workspace stopped while this agent worked. Resume continues it from its transcript.'

const pane = (page: Page, agentId: string) => page.locator(`section.pane[data-agent-id="${agentId}"]`)
const card = (page: Page, subject: string) => page.locator('li[data-testid="task-card"]', { hasText: subject })

/** The workspace's restore files under `home` (docs/storage.md#layout layout): its only project folder. */
function readSessionFile(home: string, name: string): any {
  try {
    return JSON.parse(readFileSync(join(projectDir(home), lastSessionId(home)!, name), 'utf8'))
  } catch {
    return undefined
  }
}

/** What the last session's pane journal holds for `agentId`, as a restart would refill the pane with. */
function savedPane(home: string, agentId: string): string {
  const id = lastSessionId(home)
  return id ? (readPaneJournal(join(projectDir(home), id, PANE_JOURNAL_DIR))[agentId] ?? '') : ''
}

/** Pids of live processes whose environment carries `SWARMDESK_WORKSPACE_RUN=<tag>`: what one serve run started. */
function processesOfRun(tag: string): number[] {
  const needle = `\0SWARMDESK_WORKSPACE_RUN=${tag}\0`
  const found: number[] = []
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue
    try {
      if (/\) [ZX] /.test(readFileSync(`/proc/${name}/stat`, 'utf8'))) continue
      if (`\0${readFileSync(`/proc/${name}/environ`, 'latin1')}\0`.includes(needle)) found.push(Number(name))
    } catch {
      // gone, or not ours to read
    }
  }
  return found
}

async function openTasks(page: Page): Promise<void> {
  await page.getByRole('tab', { name: 'Tasks' }).click()
}

let home: string
test.beforeEach(() => {
  home = realpathSync(mkdtempSync(join(tmpdir(), 'swarmdesk-e2e-restore-home-')))
})
test.afterEach(() => {
  rmSync(home, { recursive: true, force: true })
})

test('a reload, and a restart of serve, bring back the panes with their scrollback and the task board', async ({
  page,
  repo
}, testInfo) => {
  const first = await startServe({ cwd: repo, scenario: BOARD, home })
  let second: ServedWorkspace | undefined
  try {
    await page.goto(first.url)
    await promptLeader(page, 'Plan the release, please.')
    await expectPaneToContain(page, 'Two tasks are on the board.')
    await openTasks(page)
    await expect(card(page, 'Write the changelog')).toBeVisible()
    await expect(card(page, 'Tag the release')).toBeVisible()

    await page.reload()
    await expectPaneToContain(page, 'Making a team for the release.')
    await expectPaneToContain(page, 'Two tasks are on the board.')
    await openTasks(page)
    await expect(card(page, 'Write the changelog')).toBeVisible()
    await expect(card(page, 'Tag the release')).toBeVisible()
    await snap(page, testInfo, '01-reloaded')

    // a clean restart on the same home and folder reopens the same session
    const sessionId = lastSessionId(home)
    expect(await first.stop()).toBe(0)
    second = await startServe({ cwd: repo, scenario: BOARD, home })
    await page.goto(second.url)
    await expectPaneToContain(page, 'Two tasks are on the board.')
    await expect(page.getByTestId('topbar-team')).toContainText('release')
    await expect(pane(page, 'team-lead').getByTestId('pane-state')).toHaveAttribute('data-state', 'idle')
    await openTasks(page)
    await expect(card(page, 'Write the changelog')).toBeVisible()
    await expect(card(page, 'Tag the release')).toBeVisible()
    expect(lastSessionId(home)).toBe(sessionId)
    await snap(page, testInfo, '02-restarted')
  } finally {
    await first.stop()
    if (second) expect(await second.stop()).toBe(0)
  }
})

test('after kill -9 of serve, the restarted workspace shows the leader interrupted with its pane; Resume finishes the work; nothing of the dead run keeps running', async ({
  page,
  repo
}, testInfo) => {
  test.setTimeout(120_000)
  const first = await startServe({ cwd: repo, scenario: LONG_JOB, permissionMode: 'bypassPermissions', home })
  let second: ServedWorkspace | undefined
  try {
    await page.goto(first.url)
    await promptLeader(page, 'Start the long job, then ship the report.')
    await expectPaneToContain(page, 'long-job-started')
    // the leader is mid-command; wait until the workspace has saved that (state and scrollback)
    await expect
      .poll(() => readSessionFile(home, 'workspace.json')?.agents?.find((a: any) => a.agentId === 'team-lead')?.state, {
        timeout: 20_000
      })
      .toBe('running')
    await expect.poll(() => savedPane(home, 'team-lead'), { timeout: 20_000 }).toContain('long-job-started')
    const runTag: string = readSessionFile(home, 'workspace.json').runTag
    const leftBehind = processesOfRun(runTag)
    expect(leftBehind.length).toBeGreaterThan(0)

    await first.crash()
    // the command ignored the hang-up: it is still running, orphaned
    expect(processesOfRun(runTag).length).toBeGreaterThan(0)

    second = await startServe({ cwd: repo, scenario: LONG_JOB, permissionMode: 'bypassPermissions', home })
    expect(processesOfRun(runTag)).toEqual([])
    await page.goto(second.url)
    const leader = pane(page, 'team-lead')
    await expect(leader.getByTestId('pane-state')).toHaveAttribute('data-state', 'interrupted')
    await expect(leader.getByTestId('pane-state')).toHaveText('interrupted')
    await expectPaneToContain(page, 'long-job-started')
    await expectPaneToContain(page, 'interrupted — the workspace stopped while this agent worked')
    await expect(leader.getByTestId('resume')).toBeVisible()
    await expect(page.locator('li.member-row[data-agent-id="team-lead"]').getByTestId('resume')).toBeVisible()
    await expect(page.getByTestId('topbar-team')).toContainText('ops')
    await openTasks(page)
    await expect(card(page, 'Ship the report')).toBeVisible()
    const shot = await snap(page, testInfo, '03-interrupted')
    mkdirSync(join(__dirname, '..', 'docs', 'screenshots'), { recursive: true })
    copyFileSync(shot, join(__dirname, '..', 'docs', 'screenshots', 'restore-interrupted.png'))

    // a narrow, short pane: the restored output fills its screen, the notice on its last rows;
    // the resumed output must start below the notice, not over its last row
    await page.setViewportSize({ width: 900, height: 480 })
    await expect.poll(async () => (await paneSize(page, 'team-lead'))?.cols ?? 999).toBeLessThan(80)
    await page.reload()
    await expectPaneToContain(page, NOTICE)
    await leader.getByTestId('resume').click()
    await expectPaneToContain(page, 'All done after the restart.')
    const resumed = await paneText(page)
    expect(resumed).toContain(NOTICE)
    expect(resumed.indexOf('The long job was cut short')).toBeGreaterThan(resumed.indexOf(NOTICE))
    await expect(leader.getByTestId('pane-state')).toHaveAttribute('data-state', 'idle')
    await expect(leader.getByTestId('resume')).toHaveCount(0)
    expect(readFileSync(join(repo, 'report.txt'), 'utf8')).toBe('report finished after the restart\n')
    expect(await paneText(page)).toContain('The long job was cut short')
    await snap(page, testInfo, '04-resumed')
    expect(processesOfRun(runTag)).toEqual([])
  } finally {
    await first.crash()
    if (second) expect(await second.stop()).toBe(0)
    // nothing of either run outlives the test
    const tag = readSessionFile(home, 'workspace.json')?.runTag
    if (tag) expect(processesOfRun(tag)).toEqual([])
  }
})

const BOARD_THEN_HELLO: ScenarioObject = {
  ...BOARD,
  agents: { 'team-lead': [...BOARD.agents['team-lead']!, { when: 'Say hello', text: 'Hello from the fresh session.' }] }
}

test('serve --new-session starts an empty session; New session in the top bar starts another', async ({
  page,
  repo
}) => {
  const first = await startServe({ cwd: repo, scenario: BOARD_THEN_HELLO, home })
  let second: ServedWorkspace | undefined
  try {
    await page.goto(first.url)
    await promptLeader(page, 'Plan the release, please.')
    await expectPaneToContain(page, 'Two tasks are on the board.')
    const firstSession = lastSessionId(home)
    expect(await first.stop()).toBe(0)
    second = await startServe({ cwd: repo, scenario: BOARD_THEN_HELLO, home, newSession: true })
    await page.goto(second.url)
    await expect(pane(page, 'team-lead').getByTestId('pane-state')).toHaveAttribute('data-state', 'idle')
    expect(await paneText(page)).not.toContain('Two tasks are on the board.')
    await expect(page.getByTestId('topbar-team')).toHaveCount(0)
    const fresh = lastSessionId(home)
    expect(fresh).not.toBe(firstSession)

    await promptLeader(page, 'Say hello, please.')
    await expectPaneToContain(page, 'Hello from the fresh session.')
    await page.getByTestId('new-session').click()
    // the page reloads once the new session is open: what follows reads the reloaded page, not the old one mid-navigation
    const reloaded = page.waitForEvent('load', { timeout: 20_000 })
    await page.getByRole('group', { name: 'Start a new session?' }).getByRole('button', { name: 'New session' }).click()
    await reloaded
    await expect.poll(() => lastSessionId(home), { timeout: 20_000 }).not.toBe(fresh)
    await expect(pane(page, 'team-lead').getByTestId('pane-state')).toHaveAttribute('data-state', 'idle')
    await expect.poll(() => paneText(page), { timeout: 20_000 }).not.toContain('Hello from the fresh session.')
    await expect(page.getByRole('textbox', { name: 'Message to the leader' })).toBeEnabled()
    expect(existsSync(join(projectDir(home), fresh!, 'transcript.jsonl'))).toBe(true)
  } finally {
    await first.stop()
    if (second) expect(await second.stop()).toBe(0)
  }
})
