import { copyFileSync, mkdirSync } from 'node:fs'
import { join } from 'node:path'
import type { Page } from '@playwright/test'
import { expect, expectPaneToContain, paneText, promptLeader, snap, test, type ScenarioObject } from './fixtures'

/**
 * Issue 19 item 13: sessions can be browsed and reopened from the top bar. After New session the
 * previous session and its team were out of reach of the UI; the Sessions menu lists both, the
 * open one marked, and reopening the first brings back its leader's pane, its team and its
 * teammate's pane (shown interrupted, with Resume: its thread ended with the session).
 */

const noted = Array.from({ length: 12 }, () => ({ text: 'Noted.' }))
const RELEASE: ScenarioObject = {
  name: 'sessions-release',
  agents: {
    'team-lead': [
      {
        when: 'Plan the release',
        text: 'Making a release team.',
        tools: [{ name: 'TeamCreate', input: { team_name: 'release', description: 'the release' } }]
      },
      {
        when: "Team 'release' created",
        tools: [
          {
            name: 'Agent',
            input: { name: 'alice', backend: 'worker', description: 'changelog writer', prompt: 'Draft the changelog.' }
          }
        ]
      },
      { when: 'Spawned teammate alice', text: 'The release team is at work.' },
      { when: 'Say hello', text: 'Hello from the second session.' },
      ...noted
    ],
    alice: [{ text: 'alice drafted the changelog from the last ten commits.' }, ...noted]
  }
}

const pane = (page: Page, agentId: string) => page.locator(`section.pane[data-agent-id="${agentId}"]`)

/** Clicks `button`, then waits for the page's reload (the UI reloads once main has switched sessions). */
async function clickAndReload(page: Page, button: ReturnType<Page['locator']>): Promise<void> {
  const reloaded = page.waitForEvent('load', { timeout: 30_000 })
  await button.click()
  await reloaded
}

test('the Sessions menu lists the session New session left, and reopening it brings back its panes and its team', async ({
  page,
  serve
}, testInfo) => {
  test.setTimeout(120_000)
  const served = await serve(RELEASE, { permissionMode: 'bypassPermissions' })
  await page.goto(served.url)
  await promptLeader(page, 'Plan the release, please.')
  await expectPaneToContain(page, 'The release team is at work.')
  await expect(pane(page, 'alice@release')).toBeVisible()
  await expectPaneToContain(page, 'alice drafted the changelog from the last ten commits.', 'alice@release')
  await expect(page.getByTestId('topbar-team')).toContainText('release')

  // New session: the team and the panes are gone from the screen
  await page.getByTestId('new-session').click()
  await clickAndReload(
    page,
    page.getByRole('group', { name: 'Start a new session?' }).getByRole('button', { name: 'New session' })
  )
  await expect(page.getByRole('textbox', { name: 'Message to the leader' })).toBeEnabled()
  await expect(page.getByTestId('topbar-team')).toHaveCount(0)
  await expect(pane(page, 'alice@release')).toHaveCount(0)
  await promptLeader(page, 'Say hello, please.')
  await expectPaneToContain(page, 'Hello from the second session.')
  expect(await paneText(page)).not.toContain('The release team is at work.')

  // the Sessions menu lists both, newest first, the open one marked
  await page.getByTestId('sessions-menu').click()
  const menu = page.getByRole('menu', { name: 'Sessions' })
  const items = menu.getByTestId('session-item')
  await expect(items).toHaveCount(2)
  await expect(items.nth(0)).toHaveAttribute('aria-current', 'true')
  await expect(items.nth(0)).toContainText('Say hello, please.')
  await expect(items.nth(0)).toContainText('this session')
  const first = items.nth(1)
  await expect(first).toContainText('Plan the release, please.')
  await expect(first).toContainText('team release')
  await expect(first).not.toHaveAttribute('aria-current', 'true')
  await first.click()
  const confirm = menu.getByRole('group', { name: 'Open this session?' })
  await expect(confirm).toContainText('This session ends')
  const shot = await snap(page, testInfo, '01-sessions-menu')
  mkdirSync(join(__dirname, '..', 'docs', 'screenshots'), { recursive: true })
  copyFileSync(shot, join(__dirname, '..', 'docs', 'screenshots', 'sessions.png'))

  // reopened: its leader's pane, its team and its teammate's pane are back
  await clickAndReload(page, confirm.getByRole('button', { name: 'Open session' }))
  await expectPaneToContain(page, 'The release team is at work.')
  expect(await paneText(page)).not.toContain('Hello from the second session.')
  await expect(page.getByTestId('topbar-team')).toContainText('release')
  await expect(pane(page, 'alice@release')).toBeVisible()
  await expectPaneToContain(page, 'alice drafted the changelog from the last ten commits.', 'alice@release')
  await expect(pane(page, 'alice@release').getByTestId('pane-state')).toHaveAttribute('data-state', 'interrupted')
  // her pane reads as it did, from her start on: nothing of the session that came between leads it
  expect((await paneText(page, 'alice@release')).trimStart()).toMatch(/^▶ alice \(general-purpose\) started/)
  await expect(page.locator('li.member-row[data-agent-id="alice@release"]')).toBeVisible()
  await expect(page.getByTestId('first-screen')).toHaveCount(0)
  await snap(page, testInfo, '02-reopened')

  // the menu now marks the reopened one as open
  await page.getByTestId('sessions-menu').click()
  await expect(menu.locator('[data-testid="session-item"][aria-current="true"]')).toContainText(
    'Plan the release, please.'
  )
  await page.keyboard.press('Escape')
  await expect(menu).toHaveCount(0)
})
