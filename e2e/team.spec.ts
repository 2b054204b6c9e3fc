import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { parse } from 'yaml'
import {
  allowEveryRequestUntil,
  expect,
  paneSize,
  paneText,
  processTeammateTerminalSize,
  snap,
  test,
  type ScenarioObject
} from './fixtures'

/** The scripted docs team of the demo (resources/demo/team.yaml): two worker teammates and a process teammate. */
const TEAM_SCENARIO = parse(
  readFileSync(join(__dirname, '..', 'resources', 'demo', 'team.yaml'), 'utf8')
) as ScenarioObject

test('a team of three works the task list in its own panes; a person grants the process teammate its writes; all shut down and the team is deleted', async ({
  page,
  serve,
  repo
}, testInfo) => {
  test.setTimeout(120_000)
  const served = await serve(TEAM_SCENARIO)
  await page.goto(served.url)
  const input = page.getByRole('textbox', { name: 'Message to the leader' })
  await input.fill('Document this project with a team.')
  await input.press('Enter')

  // handing alice and bob acceptEdits is more than the leader's own default mode: the person decides
  for (const name of ['alice', 'bob']) {
    const spawn = page.locator('section.perm-card[data-agent-id="team-lead"]').filter({ hasText: name }).first()
    await expect(spawn).toContainText('acceptEdits')
    if (name === 'alice') await snap(page, testInfo, '00-team-spawn-asks')
    await spawn.getByRole('button', { name: /Allow once/ }).click()
  }

  // one top-level pane per teammate, with its backend in the header
  for (const [name, backend] of [
    ['alice', 'worker'],
    ['bob', 'worker'],
    ['carol', 'process']
  ] as const) {
    const pane = page.locator(`section.pane[data-agent-id="${name}@docs"]`)
    await expect(pane).toBeVisible()
    await expect(pane.getByTestId('pane-backend')).toHaveText(backend)
  }

  // carol's Explore subagent runs inside her process: its pane nests under hers all the same, showing its own tool call, until it ends
  const explore = page.locator('section.pane.pane-sub[data-parent-id="carol@docs"]')
  await expect(explore).toHaveCount(1)
  await expect(explore).toHaveAttribute('aria-label', 'find-existing-docs pane')
  const exploreId = (await explore.getAttribute('data-agent-id'))!
  await expect.poll(() => paneText(page, exploreId), { timeout: 10_000 }).toContain('README.md')
  await expect(explore.getByTestId('pane-state')).toHaveAttribute('data-state', 'exited')

  // carol (default mode) asks before her first write: the bubble names her, and her pane says she waits
  const card = page.locator('section.perm-card[data-agent-id="carol@docs"]').first()
  await expect(card).toContainText('carol')
  await expect(card).toContainText('docs/README.md')
  await expect(page.locator('section.pane[data-agent-id="carol@docs"]').getByTestId('pane-state')).toHaveAttribute(
    'data-state',
    'awaiting_permission'
  )
  await snap(page, testInfo, '01-team-carol-asks')

  // carol's terminal is her pane's size (pane.resize), and follows it when the window grows
  const carolMatchesPane = async () => {
    const pane = await paneSize(page, 'carol@docs')
    const terminal = processTeammateTerminalSize(repo, 'carol')
    return pane !== undefined && JSON.stringify(terminal) === JSON.stringify(pane) ? pane : undefined
  }
  await expect
    .poll(carolMatchesPane, { message: "carol's terminal should be her pane's size", timeout: 10_000 })
    .toBeDefined()
  const before = (await carolMatchesPane())!
  const viewport = page.viewportSize()!
  await page.setViewportSize({ width: viewport.width + 320, height: viewport.height + 160 })
  await expect
    .poll(
      async () => {
        const now = await carolMatchesPane()
        return now !== undefined && now.cols > before.cols
      },
      { message: "carol's terminal should widen with her pane", timeout: 10_000 }
    )
    .toBe(true)
  await page.setViewportSize(viewport)

  // the person allows every write carol asks for, until the leader reports the team gone
  const done = 'The team is gone'
  await allowEveryRequestUntil(page, 'carol@docs', done)
  await expect.poll(() => paneText(page), { timeout: 10_000 }).toContain(done)
  expect(readFileSync(join(repo, 'docs', 'README.md'), 'utf8')).toContain('# wordfreq docs')
  for (const page_ of ['wordfreq.md', 'format.md', 'testing.md', 'CHANGELOG.md'])
    expect(existsSync(join(repo, 'docs', page_))).toBe(true)
  for (const name of ['alice', 'bob', 'carol']) {
    await expect(page.locator(`section.pane[data-agent-id="${name}@docs"]`).getByTestId('pane-state')).toHaveAttribute(
      'data-state',
      'exited'
    )
  }
  // carol's pane is her own terminal: her run printed there
  await expect.poll(() => paneText(page, 'carol@docs')).toContain('Write')
  await expect(page.locator('section.perm-card')).toHaveCount(0)
  await snap(page, testInfo, '02-team-done')

  // each teammate's turn ends telling the leader what it did (the idle notification's summary), not only "Done."
  await page.getByRole('tab', { name: /Mailbox/ }).click()
  const inspector = page.locator('section.mailbox-inspector')
  await inspector.getByLabel('Filter by kind').selectOption({ label: 'Idle' })
  const summaries = inspector
    .locator('article.mb-card .mb-field')
    .filter({ has: page.locator('.mb-label', { hasText: /^summary$/ }) })
    .locator('.mb-value')
  await expect.poll(() => summaries.count()).toBeGreaterThan(5)
  const said = (await summaries.allTextContents()).join('\n')
  for (const what of [
    'Wrote docs/README.md',
    'Wrote docs/wordfreq.md',
    'Wrote docs/format.md',
    'Wrote docs/testing.md',
    'Wrote docs/CHANGELOG.md',
    'Reviewed the five pages under docs/'
  ])
    expect(said).toContain(what)
  expect(await summaries.allTextContents()).not.toContain('Done.')
  await snap(page, testInfo, '03-team-said')
})
