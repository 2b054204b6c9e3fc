import type { Page } from '@playwright/test'
import { expect, expectPaneToContain, promptLeader, snap, test, type ScenarioObject } from './fixtures'

/**
 * Forms and confirmations a person meets early (issue 19 items 7 and 9): a refused form says in
 * words, beside each field, what is wrong with it — every field at once, never zod's JSON — in
 * Settings and in the task board's forms; and Stop all asks first, saying what it will stop.
 */

const QUIET: ScenarioObject = { name: 'forms', agents: { 'team-lead': [{ text: 'Ready.' }] } }

/** Text that only raw validation output has: zod's issue keys, a JSON array of objects. */
const RAW_JSON = /"code"|"path"|"origin"|\[\s*\{/

/** Creates a task from the board and waits for its card. */
async function createTask(page: Page, subject: string): Promise<void> {
  await page.getByRole('tab', { name: 'Tasks' }).click()
  await page.getByRole('textbox', { name: 'New task subject' }).fill(subject)
  await page.getByRole('form', { name: 'New task' }).getByRole('button', { name: 'Add task' }).click()
  await expect(page.locator('li[data-testid="task-card"]', { hasText: subject })).toBeVisible()
}

test('Settings refuses a form field by field, in words, all at once; nothing is sent until it is right', async ({
  page,
  serve
}, testInfo) => {
  const served = await serve(QUIET)
  await page.goto(served.url)
  await page.getByTestId('open-settings').click()
  const dialog = page.getByRole('dialog', { name: 'Settings' })
  await dialog.getByRole('textbox', { name: /Stuck after/ }).fill('0')
  await dialog.getByRole('textbox', { name: /Pane scrollback \(lines\)/ }).fill('50')
  await dialog.getByRole('textbox', { name: /Auto-background after/ }).fill('soon')
  await dialog.getByRole('textbox', { name: /Leader model/ }).fill('m'.repeat(201))
  await dialog.getByTestId('rules-deny').fill(`Read(./a)\n${'x'.repeat(1001)}`)
  await dialog.getByTestId('settings-save').click()

  await expect(dialog.getByTestId('field-error-stuckAfterMinutes')).toHaveText('stuckAfterMinutes must be more than 0')
  await expect(dialog.getByTestId('field-error-paneScrollbackLines')).toHaveText(
    'paneScrollbackLines must be at least 100 lines'
  )
  await expect(dialog.getByTestId('field-error-autoBackgroundSeconds')).toHaveText('"soon" is not a number.')
  await expect(dialog.getByTestId('field-error-model')).toHaveText('a model name is at most 200 characters long')
  await expect(dialog.getByTestId('field-error-deny')).toHaveText('a rule is at most 1000 characters long')
  await expect(dialog.getByTestId('settings-error')).toHaveText(
    'Nothing was saved: fix the 5 marked fields (Leader model, Auto-background after, Stuck after, Pane scrollback, deny rules).'
  )
  expect(await dialog.innerText()).not.toMatch(RAW_JSON)
  await snap(page, testInfo, '01-settings-fields')

  // fixed one by one, the form saves; a field's word goes when it is right
  await dialog.getByRole('textbox', { name: /Stuck after/ }).fill('3')
  await dialog.getByRole('textbox', { name: /Pane scrollback \(lines\)/ }).fill('5000')
  await dialog.getByRole('textbox', { name: /Auto-background after/ }).fill('')
  await dialog.getByRole('textbox', { name: /Leader model/ }).fill('')
  await dialog.getByTestId('rules-deny').fill('Read(./a)')
  await dialog.getByTestId('settings-save').click()
  await expect(dialog.getByTestId('settings-notice')).toContainText('Saved to')
  await expect(dialog.locator('.settings-field-error')).toHaveCount(0)
})

test('the task board’s forms say what is wrong under each field, all at once, in words', async ({
  page,
  serve
}, testInfo) => {
  const served = await serve(QUIET)
  await page.goto(served.url)
  await createTask(page, 'Write the notes')

  // a card's edit: an empty subject (spaces) and ids that are not ids, both at once
  const card = page.locator('li[data-testid="task-card"]', { hasText: 'Write the notes' })
  await card.getByRole('button', { name: 'Edit task #1' }).click()
  const form = card.getByRole('form', { name: 'Edit task #1' })
  await form.getByRole('textbox', { name: 'Subject' }).fill('   ')
  await form.getByRole('textbox', { name: 'Also waits for' }).fill('soon')
  await form.getByRole('button', { name: 'Save' }).click()
  await expect(form.getByTestId('task-problem-subject')).toHaveText('the subject is empty')
  await expect(form.getByTestId('task-problem-waitsFor')).toHaveText('task ids, such as 1, 3')
  expect(await card.innerText()).not.toMatch(RAW_JSON)
  await snap(page, testInfo, '01-task-edit-fields')

  // an over-long description alone (ids now right): that field says so
  await form.getByRole('textbox', { name: 'Subject' }).fill('Write the notes')
  await form.getByRole('textbox', { name: 'Also waits for' }).fill('')
  await form.getByRole('textbox', { name: 'Description' }).fill('d'.repeat(20_001))
  await form.getByRole('button', { name: 'Save' }).click()
  await expect(form.getByTestId('task-problem-description')).toHaveText(
    'a description is at most 20,000 characters long'
  )
  await expect(form.getByTestId('task-problem-subject')).toHaveCount(0)
  await expect(card.getByTestId('task-error')).toHaveCount(0)

  // the new-task form likewise
  const add = page.getByRole('form', { name: 'New task' })
  await add.getByRole('textbox', { name: 'New task subject' }).fill('s'.repeat(501))
  await add.getByRole('textbox', { name: 'New task waits for' }).fill('#x')
  await add.getByRole('button', { name: 'Add task' }).click()
  await expect(add.getByTestId('task-problem-subject')).toHaveText('a subject is at most 500 characters long')
  await expect(add.getByTestId('task-problem-waitsFor')).toHaveText('task ids, such as 1, 3')
  expect(await add.innerText()).not.toMatch(RAW_JSON)
})

test('Stop all asks first, naming what it will stop; Cancel keeps the team, confirming stops it', async ({
  page,
  serve
}, testInfo) => {
  test.setTimeout(120_000)
  const scenario: ScenarioObject = {
    name: 'stop-all',
    agents: {
      'team-lead': [
        { tools: [{ name: 'TeamCreate', input: { team_name: 'stoppers' } }] },
        {
          tools: [
            {
              name: 'Agent',
              input: { name: 'alice', backend: 'worker', description: 'helper', prompt: 'Wait for messages.' }
            },
            { name: 'Agent', input: { description: 'slow job', prompt: 'Sleep a while.', run_in_background: true } }
          ]
        },
        { text: 'alice and the slow job are on their way.' },
        ...Array.from({ length: 10 }, () => ({ text: 'Noted.' }))
      ],
      alice: [{ text: 'alice is waiting.' }, ...Array.from({ length: 5 }, () => ({ text: 'Noted.' }))],
      'slow-job': [{ tools: [{ name: 'Bash', input: { command: 'sleep 60' } }] }, { text: 'slept' }]
    }
  }
  const served = await serve(scenario, { permissionMode: 'bypassPermissions' })
  await page.goto(served.url)
  await promptLeader(page, 'Start alice and the slow job.')
  const alice = page.locator('section.pane[data-agent-id="alice@stoppers"]')
  await expect(alice).toBeVisible({ timeout: 60_000 })
  await expectPaneToContain(page, 'alice is waiting.', 'alice@stoppers')
  await expect(page.locator('section.pane.pane-sub[data-state="running"]')).toHaveCount(1, { timeout: 30_000 })

  const stopAll = page.getByRole('button', { name: 'Stop all' })
  await stopAll.click()
  const confirm = page.getByRole('alertdialog', { name: 'Stop all?' })
  await expect(confirm).toBeVisible()
  await expect(confirm.getByTestId('stop-all-list')).toContainText('Stops 1 subagent: slow-job.')
  await expect(confirm.getByTestId('stop-all-list')).toContainText('Kills 1 teammate at once, without asking: alice.')
  await snap(page, testInfo, '01-stop-all-confirm')

  // Cancel (and Esc) keep everything running
  await confirm.getByRole('button', { name: /Cancel/ }).click()
  await expect(confirm).toHaveCount(0)
  await stopAll.click()
  await page.keyboard.press('Escape')
  await expect(confirm).toHaveCount(0)
  await page.waitForTimeout(500)
  await expect(alice).not.toHaveAttribute('data-state', /exited|crashed/)

  // confirmed: the subagent stops and alice is killed
  await stopAll.click()
  await confirm.getByRole('button', { name: 'Stop all' }).click()
  await expect(alice).toHaveAttribute('data-state', /exited|crashed/, { timeout: 30_000 })
  await expect(page.locator('section.pane.pane-sub[data-state="running"]')).toHaveCount(0)
})
