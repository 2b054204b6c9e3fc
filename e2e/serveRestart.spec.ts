import { mkdtempSync, realpathSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, expectPaneToContain, promptLeader, snap, test, type ScenarioObject } from './fixtures'
import { startServe, type ServedWorkspace } from './serve'

/**
 * A restart of `swarmdesk serve` does not break the open tab (issue 19, item 6): without `--port`
 * serve comes back on the port it used for the workspace, with the data directory's token, so the
 * tab reconnects by itself; while the host is down a banner says so, and once it is back nothing
 * says "reconnecting". The token leaves the address bar, and a reload afterwards (cookie only)
 * keeps what the page remembers for the workspace.
 */

const ANSWERS: ScenarioObject = {
  name: 'serve-restart',
  agents: {
    'team-lead': [
      { when: 'first question', text: 'first answer' },
      { when: 'second question', text: 'second answer' }
    ]
  }
}

test('an open tab rides out a restart of serve: banner while down, reconnected on the same port and token after', async ({
  page,
  repo
}, testInfo) => {
  test.setTimeout(120_000)
  const home = realpathSync(mkdtempSync(join(tmpdir(), 'swarmdesk-e2e-home-')))
  const running: ServedWorkspace[] = []
  const start = async () => {
    const served = await startServe({ cwd: repo, scenario: ANSWERS, home, rememberedPort: true })
    running.push(served)
    return served
  }
  try {
    const first = await start()
    await page.goto(first.url)
    await promptLeader(page, 'first question')
    await expectPaneToContain(page, 'first answer')
    // the token is not left in the address bar (history, bookmarks, screenshots)
    expect(page.url()).not.toContain('token=')
    expect(page.url()).not.toContain(first.token)
    // something remembered per workspace in the page's storage: the Single layout
    await page.getByRole('radio', { name: 'Single' }).click()
    await expect(page.getByTestId('pane-grid')).toHaveAttribute('data-layout', 'single')

    expect(await first.stop()).toBe(0)
    const banner = page.getByRole('alert').filter({ hasText: 'Connection to the workspace lost' })
    await expect(banner).toBeVisible({ timeout: 15_000 })
    await expect(banner).toContainText('start swarmdesk serve again in the same folder')
    await snap(page, testInfo, 'serve-down-banner')

    const second = await start()
    expect({ port: second.port, token: second.token }).toEqual({ port: first.port, token: first.token })
    await expect(banner).toHaveCount(0, { timeout: 20_000 })
    await expect(page.getByRole('status').filter({ hasText: 'connected' })).toBeVisible()
    await expect(page.locator('body')).not.toContainText(/reconnecting/i)
    await promptLeader(page, 'second question')
    await expectPaneToContain(page, 'second answer')
    await snap(page, testInfo, 'serve-reconnected')

    // a reload carries no token: the cookie of this port authenticates it, and the layout is still remembered
    await page.reload()
    await expect(page.getByTestId('pane-grid')).toHaveAttribute('data-layout', 'single')
    await expectPaneToContain(page, 'second answer')
    expect(await second.stop()).toBe(0)
  } finally {
    for (const served of running) await served.stop()
    rmSync(home, { recursive: true, force: true })
  }
})
