import { spawn } from 'node:child_process'
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { createInterface } from 'node:readline'
import { installClaudeCode } from '../src/main/runtime/scripted/claudeCode.testkit'
import { INTERACTIVE_API_KEY, seedClaudeConfig } from '../src/main/runtime/scripted/claudeInteractive.testkit'
import { expect, expectPaneToContain, snap, test } from './fixtures'
import { startServe } from './serve'

/**
 * The person's own claude (the real, pinned Claude Code against a scripted model of its own) in a
 * pane of the served workspace (docs/claude-code.md#sessions-in-panes): `--claude-session` opens
 * one at start, keys typed in its terminal reach it, its state shows on the pane, and the top
 * bar's button opens another.
 */
test('a Claude Code session in a pane takes the keyboard and shows its state', async ({ page, repo }, testInfo) => {
  test.setTimeout(120_000)
  const install = await installClaudeCode()
  // only where the pinned Claude Code cannot be installed from npm (no registry): the reason is the skip's message
  test.skip(install.skip !== undefined, install.skip)
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'swarmdesk-e2e-cc-')))
  const scenario = join(dir, 'cc.yaml')
  writeFileSync(scenario, 'agents:\n  team-lead:\n    - text: "Hello in a pane."\n')
  const model = spawn(
    process.execPath,
    [resolve(__dirname, '..', 'bin', 'swarmdesk'), 'scripted-server', '--scenario', scenario],
    {
      stdio: ['ignore', 'pipe', 'inherit']
    }
  )
  try {
    let modelUrl = ''
    for await (const line of createInterface({ input: model.stdout! })) {
      const m = /^SCRIPTED_MODEL_URL (\S+)$/.exec(line)
      if (m) {
        modelUrl = m[1]!
        break
      }
    }
    model.stdout!.resume()
    const ccHome = join(dir, 'home')
    mkdirSync(ccHome)
    await seedClaudeConfig({ configDir: join(ccHome, '.claude'), trusted: [repo] })
    const served = await startServe({
      cwd: repo,
      scenario: { agents: { 'team-lead': [{ text: 'unused' }] } },
      extraArgs: ['--claude-session', '--claude-path', install.bin!],
      extraEnv: {
        HOME: ccHome,
        CLAUDE_CONFIG_DIR: join(ccHome, '.claude'),
        ANTHROPIC_BASE_URL: modelUrl,
        ANTHROPIC_API_KEY: INTERACTIVE_API_KEY,
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
        DISABLE_AUTOUPDATER: '1',
        IS_SANDBOX: '1'
      }
    })
    try {
      await page.goto(served.url)
      const pane = page.locator('section.pane[data-agent-id="claude-1"]')
      await expect(pane).toBeVisible()
      await expect(pane).toHaveAttribute('data-keys', 'terminal')
      await expectPaneToContain(page, /[>❯]\s/, 'claude-1')
      await expect(pane).toHaveAttribute('data-state', 'idle', { timeout: 20_000 })

      await pane.locator('.pane-term').click()
      await page.keyboard.type('say hello')
      await page.waitForTimeout(300)
      await page.keyboard.press('Enter')
      await expectPaneToContain(page, 'Hello in a pane.', 'claude-1')
      await expect(pane).toHaveAttribute('data-state', 'idle')
      // its dashboard row, after the team, with its state and a Stop of its own
      const row = page.locator('li.member-row[data-agent-id="claude-1"]')
      await expect(row).toHaveAttribute('data-state', 'idle')
      await expect(row.getByTestId('member-backend')).toHaveText('process')
      await expect(row.getByRole('button', { name: 'Stop' })).toBeVisible()
      await expect(row.getByRole('button', { name: 'Message' })).toHaveCount(0)
      await snap(page, testInfo, 'claude-session')

      await page.getByTestId('new-claude-session').click()
      await expect(page.locator('section.pane[data-agent-id="claude-2"]')).toBeVisible()
      await expectPaneToContain(page, /[>❯]\s/, 'claude-2')
    } finally {
      const code = await served.stop()
      expect(code, served.stderr()).toBe(0)
    }
  } finally {
    model.kill()
    rmSync(dir, { recursive: true, force: true })
  }
})
