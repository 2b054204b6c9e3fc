import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { expect, promptLeader, snap, test, type ScenarioObject } from './fixtures'

/**
 * A stale team in Chromium against the web host: the leader creates team `crew` with a task, a
 * person starts a new session, and the old team — its leader session gone — shows in the
 * dashboard as stale, with a Delete that removes its config, inboxes and task list.
 */
const SCENARIO: ScenarioObject = {
  name: 'stale-team',
  agents: {
    'team-lead': [
      {
        tools: [
          { name: 'TeamCreate', input: { team_name: 'crew', description: 'the old crew' } },
          { name: 'TaskCreate', input: { subject: 'Left behind', description: '' } }
        ]
      },
      { text: 'Team crew is ready.' }
    ]
  }
}

test('after New session the old team shows as stale in the dashboard, and Delete removes it with its task list', async ({
  page,
  serve
}, testInfo) => {
  test.setTimeout(180_000)
  const served = await serve(SCENARIO)
  await page.goto(served.url)
  await promptLeader(page, 'Make the team.')
  await expect(page.getByTestId('topbar-team')).toContainText('crew', { timeout: 30_000 })
  // the session's own team is alive: nothing is offered for removal
  await expect(page.getByRole('region', { name: 'Stale teams' })).toHaveCount(0)
  expect(existsSync(join(served.home, 'tasks', 'crew', '1.json'))).toBe(true)

  await page.getByTestId('new-session').click()
  const reloaded = page.waitForEvent('load', { timeout: 30_000 })
  await page.getByRole('group', { name: 'Start a new session?' }).getByRole('button', { name: 'New session' }).click()
  await reloaded
  const stale = page.getByRole('region', { name: 'Stale teams' })
  await expect(stale).toBeVisible({ timeout: 30_000 })
  const row = stale.getByTestId('stale-team')
  await expect(row).toHaveCount(1)
  await expect(row).toHaveAttribute('data-team', 'crew')
  await expect(row).toContainText('1 member')
  await expect(row).toContainText('the old crew — stale: no leader session holds it')
  await snap(page, testInfo, '01-stale-team-listed')

  await stale.getByRole('button', { name: 'Delete stale team crew' }).click()
  await expect(page.getByRole('region', { name: 'Stale teams' })).toHaveCount(0)
  expect(existsSync(join(served.home, 'teams', 'crew'))).toBe(false)
  expect(existsSync(join(served.home, 'tasks', 'crew'))).toBe(false)
  await snap(page, testInfo, '02-stale-team-deleted')
})
