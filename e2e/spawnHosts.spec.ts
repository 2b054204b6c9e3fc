import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, test, type ScenarioObject } from './fixtures'

/**
 * The spawn form's Host list follows the `teammateHosts` setting (docs/hosts.md#in-the-ui) in
 * Chromium against the web host: it offers the project's hosts; after the settings file gains one
 * and a save in Settings reloads the settings, the open form offers it too, without a restart; and
 * a hand edit of the file alone reaches it.
 */
test('the spawn form offers the teammate hosts as the settings reload them', async ({ page, serve, repo }) => {
  test.setTimeout(90_000)
  const host = { destination: 'dev@box.invalid', workspace: '/srv/swarm', command: 'swarmdesk' }
  const settings = join(repo, '.swarmdesk', 'settings.json')
  mkdirSync(join(repo, '.swarmdesk'), { recursive: true })
  writeFileSync(settings, JSON.stringify({ teammateHosts: [{ name: 'box', ...host }] }))
  const scenario: ScenarioObject = { name: 'hosts', agents: { 'team-lead': [{ text: 'Hello.' }] } }
  const served = await serve(scenario)
  await page.goto(served.url)

  await page.getByRole('button', { name: 'Spawn teammate' }).click()
  // the session leads no team yet: the form makes one first
  await page.getByRole('textbox', { name: 'Team name' }).fill('crew')
  await page.getByRole('button', { name: 'Create team' }).click()
  const hostSelect = page.getByRole('combobox', { name: 'Host' })
  await expect(hostSelect.locator('option')).toHaveText(['here', 'box (over SSH)'])

  // a host added to the project's settings file, then a save in Settings reloads every source
  writeFileSync(
    settings,
    JSON.stringify({
      teammateHosts: [
        { name: 'box', ...host },
        { name: 'gpu', ...host }
      ]
    })
  )
  await page.getByTestId('open-settings').click()
  const dialog = page.getByRole('dialog', { name: 'Settings' })
  await dialog.getByRole('textbox', { name: /Stuck after/ }).fill('6')
  await dialog.getByTestId('settings-save').click()
  await dialog.getByRole('button', { name: 'Close settings' }).click()
  await expect(hostSelect.locator('option')).toHaveText(['here', 'box (over SSH)', 'gpu (over SSH)'])

  // a hand edit alone reaches the open form: the workspace watches its settings files
  // (docs/permissions.md#reloading-while-it-runs)
  writeFileSync(settings, JSON.stringify({ teammateHosts: [{ name: 'tpu', ...host }] }))
  await expect(hostSelect.locator('option')).toHaveText(['here', 'tpu (over SSH)'])
})
