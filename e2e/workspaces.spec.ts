import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { basename, join } from 'node:path'
import { expect, expectPaneToContain, paneText, snap, test } from './fixtures'
import { createTempRepo } from './workspace'

/** Each workspace has its own scripted model server with this scenario; its leader answers once. */
const SCENARIO = {
  name: 'e2e-workspaces',
  agents: { 'team-lead': [{ text: 'Answer from this workspace’s scripted leader.' }] }
}
const REPLY = 'Answer from this workspace’s scripted leader.'

test('a second folder opens from the workspace menu in a new tab with its own leader; the recent list keeps it after a reload', async ({
  page,
  serve
}, testInfo) => {
  const served = await serve(SCENARIO)
  const second = createTempRepo()
  const gone = join(served.home, 'a-project-that-was-deleted')
  try {
    await page.goto(served.url)
    const input = page.getByRole('textbox', { name: 'Message to the leader' })
    await expect(input).toBeEnabled()

    // the menu: this folder's path, the recent list (this folder, opened at start), Open folder…
    const menuButton = page.getByRole('button', {
      name: `Workspace ${basename(served.cwd)}: open another folder or a recent one`
    })
    await menuButton.click()
    const menu = page.getByRole('menu', { name: 'Workspaces' })
    await expect(menu.getByTestId('workspace-menu-current')).toHaveText(served.cwd)
    await expect(menu.getByRole('menuitem', { name: new RegExp(`^${basename(served.cwd)} `) })).toHaveAttribute(
      'aria-current',
      'true'
    )

    // a path that is not a folder is refused with main's message; nothing opens
    await menu.getByRole('menuitem', { name: 'Open folder…' }).click()
    const pathBox = menu.getByRole('textbox', { name: /^Folder to open/ })
    await pathBox.fill(join(served.cwd, 'no-such-folder'))
    await pathBox.press('Enter')
    await expect(menu.getByRole('alert')).toHaveText(
      `${join(served.cwd, 'no-such-folder')} does not exist: check the path, or create the folder first.`
    )

    // the second folder opens in a new tab bound to its own workspace
    await pathBox.fill(second)
    const popup = page.waitForEvent('popup')
    await pathBox.press('Enter')
    const tab = await popup
    await expect(menu).toBeHidden()
    expect(new URL(tab.url()).searchParams.get('workspace')).toMatch(/^[0-9a-f]{16}$/)
    const tabInput = tab.getByRole('textbox', { name: 'Message to the leader' })
    await expect(tabInput).toBeEnabled()
    await expect(tab.getByText(second, { exact: true })).toBeVisible()
    await expect(tab).toHaveTitle(`${basename(second)} — Swarmdesk`)
    await expect(page).toHaveTitle(`${basename(served.cwd)} — Swarmdesk`)
    await expect(
      tab.getByRole('button', { name: `Workspace ${basename(second)}: open another folder or a recent one` })
    ).toBeVisible()

    // a prompt there runs against that workspace's scripted leader, and shows only in that tab
    await tabInput.fill('Hello, second folder.')
    await tabInput.press('Enter')
    await expectPaneToContain(tab, REPLY)
    await expect(tabInput).toBeEnabled()
    expect(await paneText(page)).not.toContain(REPLY)
    await expect(page.locator('[data-testid="topbar-usage"]')).toHaveText(/^0 tok/)
    await snap(tab, testInfo, '01-second-workspace-answered')

    // opening it again from the first tab reuses its workspace (same id, its run is there)
    await menuButton.click()
    await menu.getByRole('menuitem', { name: new RegExp(`^${basename(second)} `) }).click()
    const again = await page.waitForEvent('popup')
    expect(new URL(again.url()).searchParams.get('workspace')).toBe(new URL(tab.url()).searchParams.get('workspace'))
    await expectPaneToContain(again, REPLY)
    await again.close()

    // a folder of the list that no longer exists shows as missing (written as another run left it)
    const recentFile = join(served.home, 'recent.json')
    const recent = JSON.parse(readFileSync(recentFile, 'utf8')) as {
      schemaVersion: 1
      workspaces: Array<{ path: string; openedAt: string }>
    }
    writeFileSync(
      recentFile,
      JSON.stringify({
        ...recent,
        workspaces: [...recent.workspaces, { path: gone, openedAt: '2026-01-01T00:00:00.000Z' }]
      })
    )

    // after a reload, the recent list has the second folder first; the keyboard drives the menu
    await page.reload()
    await expect(input).toBeEnabled()
    await menuButton.focus()
    await page.keyboard.press('ArrowDown')
    await expect(menu).toBeVisible()
    const items = menu.getByRole('menuitem')
    await expect(items).toHaveText([
      new RegExp(`^${basename(second)} ${second}`),
      new RegExp(`^${basename(served.cwd)} ${served.cwd}`),
      /^Remove/,
      'Open folder…'
    ])
    await expect(items.first()).toBeFocused()
    await expect(menu.getByText('missing')).toBeVisible()
    await page.keyboard.press('ArrowDown')
    await expect(items.nth(1)).toBeFocused()
    await page.keyboard.press('End')
    await expect(menu.getByRole('menuitem', { name: 'Open folder…' })).toBeFocused()
    await page.keyboard.press('ArrowUp')
    await expect(
      menu.getByRole('menuitem', { name: `Remove ${basename(gone)} (missing) from the recent list` })
    ).toBeFocused()
    await page.setViewportSize({ width: 1280, height: 720 })
    const shot = await snap(page, testInfo, '02-workspace-menu')
    mkdirSync(join(__dirname, '..', 'docs', 'screenshots'), { recursive: true })
    copyFileSync(shot, join(__dirname, '..', 'docs', 'screenshots', 'workspaces.png'))

    // Remove forgets the missing folder; Escape closes the menu and gives the focus back
    await page.keyboard.press('Enter')
    await expect(menu.getByText('missing')).toBeHidden()
    await expect(items).toHaveCount(3)
    expect((JSON.parse(readFileSync(recentFile, 'utf8')) as typeof recent).workspaces.map((w) => w.path)).toEqual([
      second,
      served.cwd
    ])
    await page.keyboard.press('Escape')
    await expect(menu).toBeHidden()
    await expect(menuButton).toBeFocused()
    await tab.close()
  } finally {
    rmSync(second, { recursive: true, force: true })
  }
})
