import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, snap, test } from './fixtures'

/**
 * The dashboard's "Allowed paths" (docs/teams.md#allowed-paths, docs/ui.md#team-dashboard): a person
 * creates a team, adds a folder relative to the workspace and one outside it, sees `/` refused in
 * full, and removes one with its ×; each change is in the team config file on disk.
 */
test('adding and removing allowed paths from the dashboard changes the team config', async ({
  page,
  serve,
  repo
}, testInfo) => {
  mkdirSync(join(repo, 'docs'))
  const shared = realpathSync(mkdtempSync(join(tmpdir(), 'swarmdesk-e2e-shared-')))
  try {
    const served = await serve({ name: 'allowed-paths', agents: { 'team-lead': [{ text: 'ok' }] } })
    const configPaths = (): string[] =>
      (
        JSON.parse(readFileSync(join(served.home, 'teams', 'crew', 'config.json'), 'utf8')) as {
          allowedPaths: string[]
        }
      ).allowedPaths
    await page.goto(served.url)
    const section = page.getByTestId('allowed-paths')
    await expect(section).toHaveCount(0)
    await page.getByRole('button', { name: 'Spawn teammate' }).click()
    await page.getByRole('textbox', { name: 'Team name' }).fill('crew')
    await page.getByRole('button', { name: 'Create team' }).click()
    await page.getByRole('button', { name: 'Cancel' }).click()
    await expect(section).toBeVisible()
    await expect(section.getByText('None yet.')).toBeVisible()

    const field = section.getByRole('textbox', { name: 'Directory to allow' })
    // relative: the workspace's folder
    await field.fill('docs')
    await section.getByRole('button', { name: 'Add' }).click()
    await expect(section.getByTestId('allowed-path')).toHaveText([join(repo, 'docs') + '×'])
    await expect(field).toHaveValue('')
    await field.fill(shared)
    await field.press('Enter')
    await expect(section.getByTestId('allowed-path')).toHaveCount(2)
    expect(configPaths()).toEqual([join(repo, 'docs'), shared])

    // refused in full, under the field; nothing changes
    await field.fill('/')
    await section.getByRole('button', { name: 'Add' }).click()
    await expect(section.getByTestId('allowed-path-error')).toHaveText(
      '/ would let every teammate edit every file on the machine: give a narrower directory'
    )
    await expect(field).toHaveValue('/')
    expect(configPaths()).toEqual([join(repo, 'docs'), shared])
    await field.fill('')
    await snap(page, testInfo, 'allowed-paths')
    await section.screenshot({ path: testInfo.outputPath('dashboard-allowed-paths.png') })
    const shots = join(__dirname, '..', 'docs', 'screenshots')
    mkdirSync(shots, { recursive: true })
    copyFileSync(testInfo.outputPath('dashboard-allowed-paths.png'), join(shots, 'dashboard-allowed-paths.png'))

    await section.getByRole('button', { name: `Remove allowed path ${join(repo, 'docs')}` }).click()
    await expect(section.getByTestId('allowed-path')).toHaveCount(1)
    await expect(section.getByTestId('allowed-path').first()).toHaveAttribute('data-path', shared)
    await expect(section.getByTestId('allowed-path-error')).toHaveCount(0)
    expect(configPaths()).toEqual([shared])
  } finally {
    rmSync(shared, { recursive: true, force: true })
  }
})

/**
 * "Allow for the team in <dir>" on a teammate's permission card (docs/teams.md#allowed-paths): a
 * worker and a process teammate each ask to Write outside the workspace; the answer adds the file's
 * folder to the team config and allows the write; the worker's next write there asks nothing.
 */
test('a teammate card allows a folder outside the workspace for the whole team', async ({ page, serve }, testInfo) => {
  test.setTimeout(120_000)
  const shared = realpathSync(mkdtempSync(join(tmpdir(), 'swarmdesk-e2e-shared-')))
  const other = realpathSync(mkdtempSync(join(tmpdir(), 'swarmdesk-e2e-other-')))
  const noted = Array.from({ length: 6 }, () => ({ text: 'Noted.' }))
  try {
    const served = await serve({
      name: 'allow-for-team',
      agents: {
        'team-lead': [
          { tools: [{ name: 'TeamCreate', input: { team_name: 'crew' } }] },
          {
            tools: [
              { name: 'Agent', input: { name: 'wally', backend: 'worker', description: 'w', prompt: 'Start.' } },
              { name: 'Agent', input: { name: 'pat', backend: 'process', description: 'p', prompt: 'Start.' } }
            ]
          },
          ...noted
        ],
        wally: [
          { tools: [{ name: 'Write', input: { file_path: join(shared, 'one.md'), content: 'one\n' } }] },
          // after the teammate's copy of the allowed paths is stale (it reads them again each second)
          {
            delayMs: 1_500,
            tools: [{ name: 'Write', input: { file_path: join(shared, 'two.md'), content: 'two\n' } }]
          },
          ...noted
        ],
        pat: [{ tools: [{ name: 'Write', input: { file_path: join(other, 'p.md'), content: 'p\n' } }] }, ...noted]
      }
    })
    const configPaths = (): string[] =>
      (
        JSON.parse(readFileSync(join(served.home, 'teams', 'crew', 'config.json'), 'utf8')) as {
          allowedPaths: string[]
        }
      ).allowedPaths
    await page.goto(served.url)
    const input = page.getByRole('textbox', { name: 'Message to the leader' })
    await input.fill('Start the crew.')
    await input.press('Enter')

    const card = (id: string) => page.locator(`section.perm-card[data-agent-id="${id}"]`).first()
    await expect(card('wally@crew').getByTestId('perm-team-dir')).toHaveText(shared)
    await expect(card('pat@crew').getByTestId('perm-team-dir')).toHaveText(other)
    await snap(page, testInfo, 'allow-for-team-card')
    await card('wally@crew')
      .getByRole('button', { name: /Allow for the team in/ })
      .click()
    await expect.poll(() => existsSync(join(shared, 'two.md')), { timeout: 60_000 }).toBe(true)
    expect(readFileSync(join(shared, 'one.md'), 'utf8')).toBe('one\n')
    expect(configPaths()).toEqual([shared])
    await expect(page.locator('section.perm-card[data-agent-id="wally@crew"]')).toHaveCount(0)

    await card('pat@crew')
      .getByRole('button', { name: /Allow for the team in/ })
      .click()
    await expect.poll(() => existsSync(join(other, 'p.md')), { timeout: 60_000 }).toBe(true)
    expect(configPaths()).toEqual([shared, other])
    await expect(page.getByTestId('allowed-path')).toHaveCount(2)
    await expect(page.locator('section.perm-card')).toHaveCount(0)
  } finally {
    rmSync(shared, { recursive: true, force: true })
    rmSync(other, { recursive: true, force: true })
  }
})
