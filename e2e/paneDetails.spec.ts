import type { Locator, Page } from '@playwright/test'
import { expect, expectPaneToContain, promptLeader, snap, test, type ScenarioObject } from './fixtures'

/**
 * Pane details a person notices at once (issue 19 items 4 and 12): the search box says "N of M"
 * and when nothing matches; a narrow header keeps the agent's name whole, the task chip giving
 * way first; the Tiled layout leaves no empty cell with an odd number of tiles.
 */

const WRITER = 'release-writer@docs'
const SCENARIO: ScenarioObject = {
  name: 'pane-details',
  agents: {
    'team-lead': [
      {
        tools: [
          { name: 'TeamCreate', input: { team_name: 'docs' } },
          // the words split in the command, so that only its output holds them
          { name: 'Bash', input: { command: 'for i in 1 2 3 4 5 6 7; do echo "ap""ple $i"; done; echo "pe""ar 1"' } }
        ]
      },
      {
        tools: [
          {
            name: 'TaskCreate',
            input: { subject: 'Rewrite the installation guide for every supported platform', description: 'All of it.' }
          }
        ]
      },
      {
        tools: [
          {
            name: 'Agent',
            input: { name: 'release-writer', backend: 'worker', description: 'writer', prompt: 'Take task 1.' }
          },
          { name: 'Agent', input: { description: 'alpha job', prompt: 'Answer at once.', run_in_background: true } },
          { name: 'Agent', input: { description: 'beta job', prompt: 'Answer at once.', run_in_background: true } }
        ]
      },
      { text: 'Everyone is on their way.' },
      ...Array.from({ length: 10 }, () => ({ text: 'Noted.' }))
    ],
    'release-writer': [
      { tools: [{ name: 'TaskUpdate', input: { taskId: '1', owner: 'release-writer', status: 'in_progress' } }] },
      { text: 'On the guide.' },
      ...Array.from({ length: 5 }, () => ({ text: 'Noted.' }))
    ],
    'alpha-job': [{ text: 'alpha answered.' }],
    'beta-job': [{ text: 'beta answered.' }]
  }
}

const pane = (page: Page, agentId: string): Locator => page.locator(`section.pane[data-agent-id="${agentId}"]`)

/** Whether an element shows its whole text (nothing cut by its ellipsis). */
const whole = (l: Locator) => l.evaluate((el) => el.scrollWidth <= el.clientWidth)

/**
 * The cells of the pane grid that no pane covers, as `row:column` (1-based): each cell's centre,
 * from the grid's computed tracks and gaps, tested against every pane's box (scroll included).
 */
function emptyCells(page: Page): Promise<string[]> {
  return page.getByTestId('pane-grid').evaluate((grid) => {
    const style = getComputedStyle(grid)
    const px = (list: string) => list.trim().split(/\s+/).map(parseFloat)
    const cols = px(style.gridTemplateColumns)
    const rows = px(style.gridTemplateRows)
    const gapX = parseFloat(style.columnGap) || 0
    const gapY = parseFloat(style.rowGap) || 0
    const box = grid.getBoundingClientRect()
    const origin = {
      x: box.left + grid.clientLeft + parseFloat(style.paddingLeft) - grid.scrollLeft,
      y: box.top + grid.clientTop + parseFloat(style.paddingTop) - grid.scrollTop
    }
    const panes = Array.from(grid.querySelectorAll('section.pane')).map((p) => p.getBoundingClientRect())
    const empty: string[] = []
    let y = origin.y
    rows.forEach((h, r) => {
      let x = origin.x
      cols.forEach((w, c) => {
        const cx = x + w / 2
        const cy = y + h / 2
        if (!panes.some((p) => cx >= p.left && cx <= p.right && cy >= p.top && cy <= p.bottom))
          empty.push(`${r + 1}:${c + 1}`)
        x += w + gapX
      })
      y += h + gapY
    })
    return empty
  })
}

test('pane search counts its matches and says when none; a narrow header keeps the name and lets the task chip give way; Tiled leaves no empty cell', async ({
  page,
  serve
}, testInfo) => {
  test.setTimeout(150_000)
  const served = await serve(SCENARIO, { permissionMode: 'bypassPermissions' })
  await page.setViewportSize({ width: 1280, height: 800 })
  await page.goto(served.url)
  await promptLeader(page, 'Set up the docs team.')
  await expectPaneToContain(page, 'Everyone is on their way.')
  await expect(page.locator('section.pane')).toHaveCount(4, { timeout: 60_000 })
  await expectPaneToContain(page, 'On the guide.', WRITER)

  // search: "N of M" as Enter moves through the matches; "no match" for text that is not there
  const leader = pane(page, 'team-lead')
  await leader.getByTestId('pane-term').click()
  await page.keyboard.press('Control+f')
  const find = leader.getByRole('textbox', { name: 'Find in team-lead pane' })
  await find.fill('apple')
  const status = leader.getByTestId('pane-search-status')
  await expect(status).toHaveText(/^[1-7] of 7$/)
  const first = Number((await status.innerText()).split(' ')[0])
  await find.press('Enter')
  await expect(status).toHaveText(`${(first % 7) + 1} of 7`)
  await find.press('Shift+Enter')
  await expect(status).toHaveText(`${first} of 7`)
  await snap(page, testInfo, '01-search-count')
  await find.fill('pear')
  await expect(status).toHaveText('1 of 1')
  await find.fill('no-such-fruit')
  await expect(status).toHaveText('no match')
  await expect(status).toHaveAttribute('data-found', 'false')
  await snap(page, testInfo, '02-search-no-match')
  await find.press('Escape')

  // the writer's stacked tile is narrow: its name reads whole, the long task chip is the one cut
  const head = pane(page, WRITER).getByTestId('pane-head')
  await expect(head.getByTestId('pane-task')).toContainText('#1')
  const width = await pane(page, WRITER).evaluate((el) => el.getBoundingClientRect().width)
  expect(width).toBeLessThan(400)
  expect(await whole(head.locator('.pane-name'))).toBe(true)
  expect(await whole(head.getByTestId('pane-task'))).toBe(false)
  await snap(page, testInfo, '03-narrow-header')

  // Tiled with three tiles beside the leader's pane: no cell of the grid is left empty, at two columns and at four
  await page.getByRole('radio', { name: 'Tiled' }).click()
  await expect(page.getByTestId('pane-grid')).toHaveAttribute('data-layout', 'tiled')
  await expect.poll(() => emptyCells(page)).toEqual([])
  await snap(page, testInfo, '04-tiled-narrow')
  await page.getByRole('button', { name: 'Hide the team dashboard' }).click()
  await page.getByRole('button', { name: 'Hide the side drawer' }).click()
  await expect
    .poll(() =>
      page.getByTestId('pane-grid').evaluate((g) => getComputedStyle(g).gridTemplateColumns.trim().split(/\s+/).length)
    )
    .toBeGreaterThanOrEqual(3)
  await expect.poll(() => emptyCells(page)).toEqual([])
  await snap(page, testInfo, '05-tiled-wide')
})
