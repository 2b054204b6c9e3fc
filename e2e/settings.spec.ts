import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Page } from '@playwright/test'
import { expect, snap, test, type ScenarioObject } from './fixtures'

/**
 * The Settings view (docs/permissions.md#permissions, docs/ui.md#the-workspace-ui; issue 8) in Chromium against the web host: an invalid rule is
 * refused with main's message and the user settings file left as it was; a valid rule is saved to
 * `<home>/settings.json` with the file's other keys kept; the web host offers no keychain; and an
 * untrusted project's hooks are listed as ignored — and do not run — until a person trusts the
 * workspace, after which they are listed as active and the runtime runs them (a TaskCreated hook
 * writes a file when a task is created from the board).
 */

const QUIET: ScenarioObject = { name: 'settings', agents: { 'team-lead': [{ text: 'Ready.' }] } }

/** The project's own settings: a TaskCreated hook appending to `hook-ran.txt`, and an env (both need trust). */
function writeProjectSettings(repo: string): void {
  mkdirSync(join(repo, '.swarmdesk'), { recursive: true })
  writeFileSync(
    join(repo, '.swarmdesk', 'settings.json'),
    JSON.stringify({
      hooks: {
        TaskCreated: [
          { hooks: [{ type: 'command', command: 'echo "task created" >> "$SWARMDESK_PROJECT_DIR/hook-ran.txt"' }] }
        ]
      },
      env: { PROJECT_FLAG: '1' }
    })
  )
}

/** Creates a task from the board and waits for its card. */
async function createTask(page: Page, subject: string): Promise<void> {
  await page.getByRole('tab', { name: 'Tasks' }).click()
  await page.getByRole('textbox', { name: 'New task subject' }).fill(subject)
  await page.getByRole('form', { name: 'New task' }).getByRole('button').click()
  await expect(page.locator('li[data-testid="task-card"]', { hasText: subject })).toBeVisible()
}

test('Settings: rules validated in main, saved to the user settings file, project trust granted', async ({
  page,
  repo,
  serve
}, testInfo) => {
  writeProjectSettings(repo)
  const served = await serve(QUIET)
  const userFile = join(served.home, 'settings.json')
  const before = `${JSON.stringify({ keptKey: { from: 'another tool' }, permissions: { deny: ['Read(./secrets/**)'] } }, null, 2)}\n`
  writeFileSync(userFile, before)
  const hookFile = join(repo, 'hook-ran.txt')

  await page.goto(served.url)
  await expect(page.getByRole('tab', { name: 'Tasks' })).toBeVisible()
  // before trust: creating a task does not run the project's hook
  await createTask(page, 'Before trust')
  expect(existsSync(hookFile)).toBe(false)

  await page.getByTestId('open-settings').click()
  const dialog = page.getByRole('dialog', { name: 'Settings' })
  await expect(dialog).toBeVisible()
  await expect(dialog.getByTestId('rules-deny')).toHaveValue('Read(./secrets/**)')
  await expect(dialog.getByTestId('data-dir')).toHaveText(served.home)
  // the web host has no keychain: storing a key is not offered, only one kept in memory for this run
  await expect(dialog.getByTestId('api-key-source')).toHaveText('none')
  await expect(dialog.getByTestId('api-key-warning')).toContainText('web host has no keychain')
  await expect(dialog.getByRole('textbox', { name: 'API key', exact: true })).toHaveCount(0)
  await expect(dialog.getByRole('textbox', { name: 'API key for this run' })).toHaveCount(1)

  // an invalid rule: main's parser refuses it by name, and the file on disk is unchanged
  await dialog.getByTestId('rules-allow').fill('Bash(npm run test:*)\nbash(ls)')
  await dialog.getByTestId('settings-save').click()
  await expect(dialog.getByTestId('settings-error')).toContainText(
    'The allow rule "bash(ls)": tool names are case-sensitive'
  )
  await expect(dialog.getByTestId('settings-error')).toContainText('Nothing was saved')
  expect(readFileSync(userFile, 'utf8')).toBe(before)

  // a pane scrollback below 100 lines: main refuses it by name, and the file is unchanged
  await dialog.getByTestId('rules-allow').fill('Bash(npm run test:*)')
  await dialog.getByRole('textbox', { name: /Stuck after/ }).fill('3')
  const scrollback = dialog.getByRole('textbox', { name: /Pane scrollback \(lines\)/ })
  await expect(scrollback).toHaveAttribute('placeholder', '1000')
  await scrollback.fill('50')
  await dialog.getByTestId('settings-save').click()
  await expect(dialog.getByTestId('field-error-paneScrollbackLines')).toHaveText(
    'paneScrollbackLines must be at least 100 lines'
  )
  await expect(dialog.getByTestId('settings-error')).toHaveText(
    'Nothing was saved: fix the marked field (Pane scrollback).'
  )
  expect(readFileSync(userFile, 'utf8')).toBe(before)

  // the valid rule alone, with a stuck threshold and a pane scrollback: saved, the file's other keys kept
  await scrollback.fill('5000')
  await dialog.getByTestId('settings-save').click()
  await expect(dialog.getByTestId('settings-notice')).toHaveText(`Saved to ${userFile}.`)
  expect(JSON.parse(readFileSync(userFile, 'utf8'))).toEqual({
    keptKey: { from: 'another tool' },
    permissions: { deny: ['Read(./secrets/**)'], allow: ['Bash(npm run test:*)'], ask: [] },
    stuckAfterMinutes: 3,
    paneScrollbackLines: 5000
  })

  // project trust: the project's hook and env are listed as ignored until the workspace is trusted
  const trust = dialog.getByTestId('settings-trust')
  await expect(trust.getByTestId('trust-state')).toHaveText('not trusted')
  await expect(trust.getByTestId('ignored-keys')).toContainText('hooks')
  await expect(trust.getByTestId('ignored-keys')).toContainText('env')
  const hook = trust.getByTestId('hook-entry').filter({ hasText: 'TaskCreated' })
  await expect(hook).toHaveAttribute('data-active', 'false')
  await expect(hook).toContainText('ignored')
  await snap(page, testInfo, '01-settings-untrusted')

  await trust.getByRole('button', { name: 'Trust this workspace' }).click()
  await expect(trust.getByTestId('trust-state')).toHaveText('trusted')
  await expect(hook).toHaveAttribute('data-active', 'true')
  await expect(hook).toContainText('active')
  await expect(trust.getByTestId('ignored-keys')).toHaveCount(0)
  expect(
    JSON.parse(readFileSync(join(served.home, 'trusted.json'), 'utf8')).workspaces.map((w: { path: string }) => w.path)
  ).toEqual([repo])
  await expect(dialog.getByTestId('settings-notice')).toContainText('its hooks run from now on')
  await expect(dialog.getByTestId('rules-allow')).toHaveValue('Bash(npm run test:*)')
  await snap(page, testInfo, '02-settings-trusted')
  // the whole dialog for the README: a window tall enough that it does not scroll
  const viewport = page.viewportSize()!
  await page.setViewportSize({ width: viewport.width, height: 2000 })
  await dialog.evaluate((el) => el.scrollTo(0, 0))
  mkdirSync(join(__dirname, '..', 'docs', 'screenshots'), { recursive: true })
  await dialog.screenshot({ path: join(__dirname, '..', 'docs', 'screenshots', 'settings.png') })
  await page.setViewportSize(viewport)

  // the runtime now runs the project's hook: a task created from the board writes its file
  await dialog.getByRole('button', { name: 'Close settings' }).click()
  await expect(dialog).toHaveCount(0)
  await createTask(page, 'After trust')
  await expect.poll(() => (existsSync(hookFile) ? readFileSync(hookFile, 'utf8') : '')).toBe('task created\n')
})
