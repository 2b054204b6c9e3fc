import { expect, expectPaneToContain, paneText, promptLeader, snap, test, type ScenarioObject } from './fixtures'

/**
 * Permission cards as a person reads and answers them (issue 19 items 5 and 11): the requests
 * pinned to a pane stack into one compact bar the terminal ends above, with a count and Show all;
 * a spawn reads as words (who, type, mode, backend, prompt), JSON only behind Raw; an
 * always-allow is shown with its rule in the pane. (The arrow keys and Shift+A without a rule:
 * keyboard.test.ts.)
 */

test('a pinned request is one compact bar above the terminal; an always-allow shows its rule', async ({
  page,
  serve
}, testInfo) => {
  test.setTimeout(120_000)
  const scenario: ScenarioObject = {
    name: 'perm-cards',
    agents: {
      'team-lead': [
        { tools: [{ name: 'Bash', input: { command: 'expr 40 + 2' } }] },
        {
          tools: [
            {
              name: 'Agent',
              input: {
                name: 'ivy',
                backend: 'process',
                mode: 'plan',
                description: 'reviewer',
                prompt: 'Review the parser and report.'
              }
            }
          ]
        },
        { text: 'All answered.' },
        ...Array.from({ length: 5 }, () => ({ text: 'Noted.' }))
      ]
    }
  }
  const served = await serve(scenario)
  await page.goto(served.url)
  await promptLeader(page, 'Ask for three things.')
  await page.getByRole('textbox', { name: 'Message to the leader' }).blur()
  const leader = page.locator('section.pane[data-agent-id="team-lead"]')
  const bar = leader.getByTestId('perm-pinned')
  await page
    .getByRole('tab', { name: /permission/i })
    .first()
    .click()

  // the Bash call: one compact card pinned, the terminal ending above it
  await expect(bar.locator('.perm-command')).toHaveText('$ expr 40 + 2', { timeout: 30_000 })
  const term = await leader.getByTestId('pane-term').boundingBox()
  const barBox = await bar.boundingBox()
  expect(term!.y + term!.height).toBeLessThanOrEqual(barBox!.y + 1)
  expect(barBox!.height).toBeLessThan(120)
  await snap(page, testInfo, '02-pinned-bar')
  // Shift+A always allows it, and the pane says with which rule
  await page.keyboard.press('Shift+A')
  await expectPaneToContain(page, /always allowed by user — rule Bash\(expr:\*\) added for this session/)

  await expectPaneToContain(page, 'All answered.')
  expect(await paneText(page)).not.toContain('denied by cancelled')
})
