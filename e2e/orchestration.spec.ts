import { expect, expectPaneToContain, snap, test } from './fixtures'

/**
 * The leader's one Agent call has no type: with forks on it would fork; in coordinator mode it
 * starts a background worker. The leader also tries a Write, which the coordinator does not have.
 */
const SCENARIO = {
  name: 'e2e-orchestration',
  agents: {
    'team-lead': [
      {
        text: 'Handing the numbers to a worker.',
        tools: [
          { name: 'Agent', input: { description: 'check numbers', prompt: 'Check the numbers in notes.txt.' } },
          { name: 'Write', input: { file_path: 'out.txt', content: 'x' } }
        ]
      },
      { text: 'Dispatched; waiting for the worker.' },
      { when: '<task-notification>', text: 'The worker reported: the numbers are fine.' }
    ],
    'check-numbers': [{ text: 'Scope: numbers. Result: fine.' }]
  }
}

test('the orchestration mode is chosen before the first prompt: coordinator mode turns forks off, starts a worker pane, and then locks', async ({
  page,
  serve
}, testInfo) => {
  const served = await serve(SCENARIO, { fork: true })
  await page.goto(served.url)
  const select = page.getByTestId('orchestration-select')
  await expect(select).toBeEnabled()
  await expect(select).toHaveValue('fork')
  await expect(page.getByTestId('forks-off-note')).toHaveCount(0)

  await select.selectOption('coordinator')
  await expect(select).toHaveValue('coordinator')
  await expect(page.getByTestId('forks-off-note')).toHaveText('forks off')
  await expectPaneToContain(page, 'Coordinator mode: the leader orchestrates background workers')
  await snap(page, testInfo, '01-coordinator-chosen')

  const input = page.getByRole('textbox', { name: 'Message to the leader' })
  await input.fill('Check the numbers, please.')
  await input.press('Enter')
  await expect(select).toBeDisabled()
  await expectPaneToContain(page, 'The worker reported: the numbers are fine.')
  const worker = page.locator('section.pane[aria-label="check-numbers pane"]')
  await expect(worker).toBeVisible()
  await expect(worker.locator('.pane-type')).toHaveText('worker')
  await expect(worker.locator('.pane-type-fork')).toHaveCount(0)
  // the coordinator has no Write: the call failed and nothing was written
  await expectPaneToContain(page, 'No such tool: Write')
  await expect(select).toBeDisabled()
  await expect(page.locator('label:has([data-testid="orchestration-select"])')).toHaveAttribute(
    'title',
    /before the first prompt/
  )
  await snap(page, testInfo, '02-worker-started-mode-locked')

  // a reload keeps the mode and the lock (they come from main's snapshot)
  await page.reload()
  await expect(page.getByTestId('orchestration-select')).toHaveValue('coordinator')
  await expect(page.getByTestId('orchestration-select')).toBeDisabled()
})
