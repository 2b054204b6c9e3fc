import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, snap, test, type ScenarioObject } from './fixtures'

/**
 * A settings file edited by hand while the workspace runs (docs/permissions.md#reloading-while-it-runs)
 * in Chromium against the web host: the open Settings view shows the user file's new value, a
 * project file that does not validate is named in the view with what is wrong, and its fix clears it.
 */
test('the Settings view follows settings files edited by hand', async ({ page, serve, repo }, testInfo) => {
  test.setTimeout(90_000)
  const scenario: ScenarioObject = { name: 'settings-watch', agents: { 'team-lead': [{ text: 'Ready.' }] } }
  const served = await serve(scenario)
  await page.goto(served.url)
  await page.getByTestId('open-settings').click()
  const dialog = page.getByRole('dialog', { name: 'Settings' })
  const stuck = dialog.getByRole('textbox', { name: /Stuck after/ })
  await expect(stuck).toHaveValue('')

  writeFileSync(join(served.home, 'settings.json'), JSON.stringify({ stuckAfterMinutes: 9 }))
  await expect(stuck).toHaveValue('9')

  const project = join(repo, '.swarmdesk', 'settings.json')
  mkdirSync(join(repo, '.swarmdesk'), { recursive: true })
  writeFileSync(project, JSON.stringify({ stuckAfterMinutes: 'soon' }))
  const problem = dialog.getByTestId('settings-reload-problem')
  await expect(problem).toContainText(`${project} (stuckAfterMinutes)`)
  await expect(problem).toContainText('keeps its previous settings')
  await snap(page, testInfo, '01-settings-reload-problem')

  writeFileSync(project, JSON.stringify({ stuckAfterMinutes: 4 }))
  await expect(problem).toBeHidden()
  await expect(stuck).toHaveValue('9')
})
