import { expect, snap, test } from './fixtures'

/**
 * A team name typed into the dashboard that does not fit the rules (docs/teams.md#spawning-a-teammate: a–z, 0–9, "-") is
 * changed to one that does, and the form says so where it was typed (issue 19, item 10).
 */
test('a team created as "qa team!" says it became "qa-team"', async ({ page, serve }, testInfo) => {
  const served = await serve({ name: 'team-name', agents: { 'team-lead': [{ text: 'ok' }] } })
  await page.goto(served.url)
  await page.getByRole('button', { name: 'Spawn teammate' }).click()
  await page.getByRole('textbox', { name: 'Team name' }).fill('qa team!')
  await page.getByRole('button', { name: 'Create team' }).click()
  await expect(page.getByTestId('spawn-notice')).toHaveText(
    'Team names use a–z, 0–9 and "-": "qa team!" became "qa-team".'
  )
  await expect(page.getByRole('button', { name: 'Spawn into qa-team' })).toBeVisible()
  await expect(page.getByRole('heading', { name: 'Team qa-team' })).toBeVisible()
  await snap(page, testInfo, 'team-name-changed')
  // a name that fits says nothing more
  await page.getByRole('button', { name: 'Cancel' }).click()
  await page.getByRole('button', { name: 'Spawn teammate' }).click()
  await expect(page.getByTestId('spawn-notice')).toHaveCount(0)
})
