import { readFileSync } from 'node:fs'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { expect, expectPaneToContain, promptLeader, snap, test, type ScenarioObject } from './fixtures'

/**
 * The Bash sandbox in the UI (docs/sandbox.md, docs/ui.md#the-workspace-ui) in Chromium against
 * the web host: Settings shows it off with what this machine has of what it needs and the rest of
 * the block as it applies, refuses a domain that is not one, turns it on with an
 * allowed domain (saved to the user settings file); the leader's pane then carries the
 * "sandboxed" mark, and its sandboxed curl to a domain not listed asks with a network card —
 * allowed once, the command gets through the proxy to a local HTTP server on 127.0.0.1. A second
 * host is always allowed from its card, which writes it into the workspace's local settings; a
 * command run outside (`dangerouslyDisableSandbox`, allowed once) is marked as such in the pane,
 * beside the sandboxed ones' `[sandboxed]` (docs/sandbox.md#the-pane-mark).
 */
test('Settings turns the sandbox on; the pane is marked; a new domain asks with a card', async ({
  page,
  serve
}, testInfo) => {
  test.setTimeout(120_000)
  const server = http.createServer((req, res) => res.end(`hello from ${req.url?.slice(1)}\n`))
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as AddressInfo).port
  try {
    const scenario: ScenarioObject = {
      name: 'sandbox',
      agents: {
        'team-lead': [
          {
            tools: [
              {
                name: 'Bash',
                input: {
                  command: `env -u NO_PROXY -u no_proxy curl -s --max-time 60 http://localhost:${port}/the-sandbox`
                }
              }
            ]
          },
          {
            tools: [
              {
                name: 'Bash',
                input: {
                  command: `env -u NO_PROXY -u no_proxy curl -s --max-time 60 http://127.0.0.1:${port}/for-good`
                }
              }
            ]
          },
          { tools: [{ name: 'Bash', input: { command: 'echo ran-outside', dangerouslyDisableSandbox: true } }] },
          { text: 'Fetched.' }
        ]
      }
    }
    const served = await serve(scenario)
    await page.goto(served.url)
    const leader = page.locator('section.pane[data-agent-id="team-lead"]')
    await expect(leader).toBeVisible()
    await expect(leader.getByTestId('pane-sandboxed')).toHaveCount(0)

    await page.getByTestId('open-settings').click()
    const dialog = page.getByRole('dialog', { name: 'Settings' })
    const section = dialog.getByTestId('settings-sandbox')
    await expect(section.getByTestId('sandbox-status')).toContainText('Off')
    // what this machine has of what the sandbox needs
    await expect(section.getByTestId('sandbox-req-bubblewrap')).toHaveAttribute('data-ok', 'true')
    await expect(section.getByTestId('sandbox-req-user-namespaces')).toContainText('usable')
    await expect(section.getByTestId('sandbox-req-socat')).toHaveAttribute('data-ok', 'true')
    // the rest of the block as it applies, read-only
    await expect(section.getByTestId('sandbox-applies-excludedCommands')).toHaveText('none')
    await expect(section.getByTestId('sandbox-applies-allowUnsandboxedCommands')).toHaveText('yes')
    await expect(section.getByTestId('sandbox-applies-failIfUnavailable')).toHaveText('no')
    await expect(section.getByTestId('sandbox-auto-allow')).toBeChecked()
    await section.getByTestId('sandbox-enabled').check()
    // not a domain: refused beside the field, nothing saved
    await section.getByTestId('sandbox-domains').fill('https://registry.npmjs.org/')
    await dialog.getByTestId('settings-save').click()
    await expect(section.getByTestId('field-error-allowedDomains')).toContainText('a domain is a host name')
    await section.getByTestId('sandbox-domains').fill('registry.npmjs.org\n*.example.com')
    await dialog.getByTestId('settings-save').click()
    await expect(section.getByTestId('sandbox-status')).toHaveAttribute('data-active', 'true')
    await expect(section.getByTestId('sandbox-status')).toContainText('registry.npmjs.org, *.example.com allowed')
    const saved = JSON.parse(readFileSync(join(served.home, 'settings.json'), 'utf8')) as Record<string, unknown>
    expect(saved.sandbox).toEqual({
      enabled: true,
      network: { allowedDomains: ['registry.npmjs.org', '*.example.com'] }
    })
    await snap(page, testInfo, '01-settings-sandbox')
    await dialog.getByRole('button', { name: 'Close settings' }).click()
    await expect(leader.getByTestId('pane-sandboxed')).toHaveText('sandboxed')

    // the leader's curl runs sandboxed without a question; its new domain asks
    await promptLeader(page, 'Fetch it.')
    const card = page.locator('section.perm-card', { hasText: 'localhost' }).first()
    await expect(card).toContainText('SandboxNetwork', { timeout: 30_000 })
    await snap(page, testInfo, '02-network-card')
    await card.getByRole('button', { name: /Allow once/ }).click()
    await expectPaneToContain(page, 'hello from the-sandbox')
    await expectPaneToContain(page, '[sandboxed]')

    // always allow: the card says where the host is kept, and it is written there
    const always = page.locator('section.perm-card', { hasText: '127.0.0.1' }).first()
    await expect(always).toContainText('SandboxNetwork', { timeout: 30_000 })
    await expect(always.getByTestId('perm-rule')).toHaveText('127.0.0.1')
    await expect(always.getByTestId('perm-scope')).toContainText('saved in .swarmdesk/settings.local.json')
    await snap(page, testInfo, '03-always-allow-card')
    await always.getByRole('button', { name: /Always allow/ }).click()
    await expectPaneToContain(page, 'hello from for-good')
    const local = JSON.parse(readFileSync(join(served.cwd, '.swarmdesk', 'settings.local.json'), 'utf8')) as unknown
    expect(local).toEqual({ sandbox: { network: { allowedDomains: ['127.0.0.1'] } } })

    // a command outside the sandbox asks first, and its result is marked as run outside
    const outside = page.locator('section.perm-card', { hasText: 'outside the sandbox' }).first()
    await expect(outside).toBeVisible({ timeout: 30_000 })
    await expect(outside.getByTestId('perm-sandbox')).toHaveText('runs outside the sandbox: dangerouslyDisableSandbox')
    await snap(page, testInfo, '04-outside-card')
    await outside.getByRole('button', { name: /Allow once/ }).click()
    await expectPaneToContain(page, 'ran-outside')
    await expectPaneToContain(page, '[outside the sandbox: dangerouslyDisableSandbox]')
    await expectPaneToContain(page, 'Fetched.')
    await snap(page, testInfo, '05-marked')
  } finally {
    await new Promise<void>((resolve) => server.close(() => resolve()))
  }
})
