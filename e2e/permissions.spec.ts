import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Page } from '@playwright/test'
import { expect, expectPaneToContain, snap, test } from './fixtures'

/** The permission bubble pinned to the leader's pane (the queue at the side shows the same request). */
const bubble = (page: Page, tool: string) => page.locator('section.perm-card[data-placement="pane"]', { hasText: tool })

test('a Write asks through a permission bubble; Allow once writes the file to disk', async ({
  page,
  serve,
  repo
}, testInfo) => {
  const served = await serve({
    name: 'e2e-allow-write',
    agents: {
      'team-lead': [
        {
          text: 'Writing the greeting file.',
          tools: [{ name: 'Write', input: { file_path: '{{cwd}}/greeting.txt', content: 'hello from the agent\n' } }]
        },
        { when: 'greeting.txt', text: 'Wrote greeting.txt as asked.' }
      ]
    }
  })
  await page.goto(served.url)
  const input = page.getByRole('textbox', { name: 'Message to the leader' })
  await input.fill('Create a greeting file.')
  await input.press('Enter')

  const card = bubble(page, 'Write')
  await expect(card).toBeVisible()
  await expect(card).toContainText('team-lead')
  await expect(card).toContainText('greeting.txt')
  // the pane's bar is one compact line; the diff opens large, in a dialog
  await card.getByRole('button', { name: 'Open diff' }).click()
  const diff = page.getByRole('dialog', { name: /^Diff of .*greeting\.txt$/ })
  await expect(diff.getByTestId('diff-dialog-body')).toContainText('+hello from the agent')
  await snap(page, testInfo, '00-diff-dialog')
  await page.keyboard.press('Escape')
  await expect(diff).toHaveCount(0)
  await expect(card.getByRole('button', { name: /Allow once/ })).toBeEnabled()
  expect(existsSync(join(repo, 'greeting.txt'))).toBe(false)
  await snap(page, testInfo, '01-write-bubble')

  await card.getByRole('button', { name: /Allow once/ }).click()
  await expect(page.locator('section.perm-card')).toHaveCount(0)
  await expectPaneToContain(page, 'Wrote greeting.txt as asked.')
  expect(readFileSync(join(repo, 'greeting.txt'), 'utf8')).toBe('hello from the agent\n')
  await snap(page, testInfo, '02-allowed-written')
})

test('Deny with a reason keeps the file unwritten and sends the reason to the model in the next request', async ({
  page,
  serve,
  repo
}, testInfo) => {
  const reason = 'keep the plan in the README instead'
  const served = await serve({
    name: 'e2e-deny-write',
    agents: {
      'team-lead': [
        {
          text: 'Writing the plan file.',
          tools: [{ name: 'Write', input: { file_path: '{{cwd}}/plan.txt', content: 'step 1\n' } }]
        },
        { when: 'Permission denied', text: 'Understood: I will not write plan.txt.' }
      ]
    }
  })
  await page.goto(served.url)
  const input = page.getByRole('textbox', { name: 'Message to the leader' })
  await input.fill('Write down a plan.')
  await input.press('Enter')

  const card = bubble(page, 'Write')
  await expect(card).toContainText('plan.txt')
  await card.getByRole('button', { name: /^Deny/ }).click()
  const reasonBox = card.getByRole('textbox', { name: 'Reason for denying' })
  await expect(reasonBox).toBeFocused()
  await reasonBox.fill(reason)
  await expect(reasonBox).toHaveValue(reason)
  await snap(page, testInfo, '01-deny-reason')

  await card.getByRole('button', { name: /Confirm deny/ }).click()
  await expect(page.locator('section.perm-card')).toHaveCount(0)
  await expectPaneToContain(page, 'Understood: I will not write plan.txt.')
  expect(existsSync(join(repo, 'plan.txt'))).toBe(false)

  const requests = await served.modelRequests()
  expect(requests).toHaveLength(2)
  const next = JSON.stringify(requests[1]!.body.messages.at(-1))
  expect(next).toContain('Permission denied')
  expect(next).toContain(reason)
  expect(JSON.stringify(requests[0]!.body)).not.toContain(reason)
  await snap(page, testInfo, '02-denied')
})
