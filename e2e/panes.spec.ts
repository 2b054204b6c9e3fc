import { copyFileSync, mkdirSync } from 'node:fs'
import { join } from 'node:path'
import type { Locator, Page } from '@playwright/test'
import { expect, expectPaneToContain, paneText, snap, test, type ScenarioObject, keyboardDragReady } from './fixtures'

/**
 * The pane grid (docs/ui.md#the-workspace-ui, issue 7 item 2) on a scripted team: the leader prints 200 numbered lines,
 * runs a subagent (nested under it) and spawns a worker teammate, alice, who answers a person's
 * message. Permissions are bypassed: this test is about the grid, not the permission queue.
 */
const SCENARIO: ScenarioObject = {
  name: 'pane-grid',
  agents: {
    'team-lead': [
      {
        text: 'Setting up the grid team.',
        tools: [
          { name: 'TeamCreate', input: { team_name: 'grid', description: 'A team to look at' } },
          {
            name: 'Bash',
            input: {
              command:
                'for i in $(seq 1 200); do printf "\\033[3$((i % 7 + 1))mline %d zebra-%d\\033[0m\\n" $i $i; done'
            }
          }
        ]
      },
      {
        tools: [
          {
            name: 'Agent',
            input: { subagent_type: 'general-purpose', description: 'count lines', prompt: 'Count the lines.' }
          },
          {
            name: 'Agent',
            input: {
              name: 'alice',
              backend: 'worker',
              mode: 'acceptEdits',
              description: 'helper',
              prompt: 'Wait for messages from the person.'
            }
          }
        ]
      },
      { text: 'The grid team is ready.' },
      ...Array.from({ length: 12 }, () => ({ text: 'Noted.' }))
    ],
    'type:general-purpose': [
      { tools: [{ name: 'Bash', input: { command: 'echo "unicorn subagent output"' } }] },
      { text: 'Counted: 200 lines.' }
    ],
    alice: [
      { text: 'alice is ready and waiting.' },
      { when: 'ping from a person', text: 'pong: alice got the message' },
      ...Array.from({ length: 8 }, () => ({ text: 'Noted.' }))
    ]
  }
}

const ALICE = 'alice@grid'
const pane = (page: Page, agentId: string): Locator => page.locator(`section.pane[data-agent-id="${agentId}"]`)
const box = async (l: Locator) => (await l.boundingBox())!

test('the pane grid: layouts, hide and restore with scrollback, maximise, search, reorder, and a message typed into a teammate pane', async ({
  page,
  serve
}, testInfo) => {
  test.setTimeout(120_000)
  const served = await serve(SCENARIO, { permissionMode: 'bypassPermissions' })
  await page.setViewportSize({ width: 1600, height: 1000 })
  await page.goto(served.url)
  const input = page.getByRole('textbox', { name: 'Message to the leader' })
  await input.fill('Set up the grid team.')
  await input.press('Enter')

  await expectPaneToContain(page, 'line 200 zebra-200')
  await expect(pane(page, ALICE)).toBeVisible({ timeout: 30_000 })
  await expectPaneToContain(page, 'alice is ready and waiting.', ALICE)
  const subagent = page.locator('section.pane.pane-sub[data-parent-id="team-lead"]').first()
  await expect(subagent).toBeVisible()
  const subagentId = (await subagent.getAttribute('data-agent-id'))!
  await expectPaneToContain(page, 'unicorn subagent output', subagentId)
  await expectPaneToContain(page, 'The grid team is ready.')
  const grid = page.getByTestId('pane-grid')

  // main + stack (the default): the leader on the left, full height; the tiles stacked to its right
  await expect(grid).toHaveAttribute('data-layout', 'main-vertical')
  const leader = pane(page, 'team-lead')
  let l = await box(leader)
  let a = await box(pane(page, ALICE))
  expect(a.x).toBeGreaterThanOrEqual(l.x + l.width)
  expect(l.height).toBeGreaterThan(a.height)

  // the leader's 200 lines overflow its pane: its scrollbar shows while the pointer is over the
  // terminal, not on every line of output
  const scrollbar = leader.locator('.xterm-scrollable-element > .scrollbar.vertical')
  await page.mouse.move(1, 1)
  await expect(scrollbar).toBeHidden()
  await leader.locator('.xterm-screen').hover()
  await expect(scrollbar).toBeVisible()
  await page.mouse.move(1, 1)

  // tiled: the leader's pane spans two columns and two rows of the grid
  await page.getByRole('radio', { name: 'Tiled' }).click()
  await expect(grid).toHaveAttribute('data-layout', 'tiled')
  await expect(page.getByRole('radio', { name: 'Tiled' })).toHaveAttribute('aria-checked', 'true')
  l = await box(leader)
  a = await box(pane(page, ALICE))
  expect(l.width).toBeGreaterThan(a.width * 1.8)
  expect(l.height).toBeGreaterThan(a.height * 1.8)
  await snap(page, testInfo, '01-tiled')

  // single: one pane at a time, picked in the toolbar
  await page.getByRole('radio', { name: 'Single' }).click()
  await expect(grid).toHaveAttribute('data-layout', 'single')
  await expect(page.locator('section.pane')).toHaveCount(1)
  await expect(leader).toBeVisible()
  await page.getByRole('combobox', { name: 'Pane to show' }).selectOption(ALICE)
  await expect(page.locator('section.pane')).toHaveCount(1)
  await expect(pane(page, ALICE)).toBeVisible()
  await expectPaneToContain(page, 'alice is ready and waiting.', ALICE)
  await snap(page, testInfo, '02-single')
  await page.getByRole('radio', { name: 'Tiled' }).click()

  // hide the subagent's pane and show it again: its scrollback comes back the same
  const before = await paneText(page, subagentId)
  expect(before).toContain('unicorn subagent output')
  await pane(page, subagentId)
    .getByRole('button', { name: /^Hide .*'s pane$/ })
    .click()
  await expect(pane(page, subagentId)).toHaveCount(0)
  const hiddenButton = page.getByRole('button', { name: 'Hidden (1) ▾' })
  await expect(hiddenButton).toBeEnabled()
  await hiddenButton.click()
  await page.getByRole('menuitem', { name: /^Show / }).click()
  await expect(pane(page, subagentId)).toBeVisible()
  await expect(page.getByRole('button', { name: 'Hidden (0) ▾' })).toBeDisabled()
  await expect.poll(() => paneText(page, subagentId)).toBe(before)

  // maximise alice's pane with a double-click on its header, and restore with another
  await pane(page, ALICE).getByTestId('pane-head').locator('.pane-name').dblclick()
  await expect(grid).toHaveAttribute('data-layout', 'maximised')
  await expect(page.locator('section.pane')).toHaveCount(1)
  const g = await box(grid)
  const m = await box(pane(page, ALICE))
  expect(m.width).toBeGreaterThan(g.width * 0.9)
  await snap(page, testInfo, '03-maximised')
  await pane(page, ALICE).getByTestId('pane-head').locator('.pane-name').dblclick()
  await expect(grid).toHaveAttribute('data-layout', 'tiled')
  await expect(leader).toBeVisible()

  // reorder with the keyboard: alice's handle, Space to lift, an arrow to move, Space to drop
  const heads = () =>
    page.locator('.pane-tiles > section.pane').evaluateAll((els) => els.map((e) => e.getAttribute('data-agent-id')))
  expect((await heads())[0]).toBe(subagentId)
  const handle = pane(page, ALICE).getByRole('button', { name: "Move alice's pane" })
  await handle.focus()
  // each step waits for the drag library's own announcement: on a loaded machine a key pressed
  // before the lift or the move was measured is lost
  // (the page has several drag areas, the task board's too, each with its live region: wait on the one that speaks)
  const announced = (text: string | RegExp) => page.locator('[id^="DndLiveRegion"]').filter({ hasText: text }).first()
  await page.keyboard.press('Space')
  await keyboardDragReady(page)
  await expect(
    announced(new RegExp(`Picked up draggable item ${ALICE}|moved over droppable area ${ALICE}\\.`))
  ).toBeAttached()
  await page.keyboard.press('ArrowLeft')
  await expect(announced(`moved over droppable area ${subagentId}`)).toBeAttached()
  await page.keyboard.press('Space')
  await expect.poll(heads).toEqual([ALICE, subagentId])

  // Ctrl+F in the leader's pane finds a word of its scrollback; Esc closes the box
  await leader.getByTestId('pane-term').click()
  await page.keyboard.press('Control+f')
  const find = leader.getByRole('textbox', { name: 'Find in team-lead pane' })
  await expect(find).toBeFocused()
  await find.fill('zebra-150')
  await expect(leader.getByTestId('pane-search-status')).toHaveAttribute('data-found', 'true')
  await snap(page, testInfo, '04-search')
  await find.fill('no-such-word-here')
  await expect(leader.getByTestId('pane-search-status')).toHaveText('no match')
  await find.press('Escape')
  await expect(leader.getByTestId('pane-search')).toHaveCount(0)

  // typing into alice's pane sends her a message; her scripted reply shows in her pane
  const line = pane(page, ALICE).getByRole('textbox', { name: 'Message to alice' })
  await line.fill('ping from a person')
  await line.press('Enter')
  await expect(line).toHaveValue('')
  await expectPaneToContain(page, 'pong: alice got the message', ALICE)

  // every visible pane renders (WebGL where the page offers it, else the DOM renderer)
  for (const id of ['team-lead', ALICE, subagentId])
    await expect(pane(page, id).getByTestId('pane-term')).toHaveAttribute('data-renderer', /^(webgl|dom)$/)
  const final = await snap(page, testInfo, '05-panes')
  mkdirSync(join(__dirname, '..', 'docs', 'screenshots'), { recursive: true })
  copyFileSync(final, join(__dirname, '..', 'docs', 'screenshots', 'panes.png'))
})
