import { expect, expectPaneToContain, paneText, snap, test } from './fixtures'

/** The leader runs one shell command (read-only, so no permission is asked) and reports. */
const SCENARIO = {
  name: 'e2e-leader-bash',
  agents: {
    'team-lead': [
      {
        text: 'Checking the repository with a quick command.',
        tools: [
          {
            name: 'Bash',
            input: {
              command: "printf 'shell-%s\\n' output-ok && cat notes.txt",
              description: 'Print a marker and the notes'
            }
          }
        ]
      },
      { text: 'Finished: the shell printed its marker.' }
    ]
  }
}

test('a prompt typed in the UI reaches the leader; its text and Bash output appear in the leader pane, and survive a reload', async ({
  page,
  serve
}, testInfo) => {
  const served = await serve(SCENARIO)
  const response = await page.goto(served.url)
  expect(response?.status()).toBe(200)

  const input = page.getByRole('textbox', { name: 'Message to the leader' })
  await expect(input).toBeEnabled()
  await expect(page.getByText(served.cwd, { exact: true })).toBeVisible()
  await snap(page, testInfo, '01-ready')

  await input.fill('Look around the repository, please.')
  await expect(input).toHaveValue('Look around the repository, please.')
  await snap(page, testInfo, '02-prompt-typed')
  await input.press('Enter')

  await expectPaneToContain(page, 'Checking the repository with a quick command.')
  await expectPaneToContain(page, 'shell-output-ok')
  await expectPaneToContain(page, 'first line')
  await expectPaneToContain(page, 'Finished: the shell printed its marker.')
  await expect(input).toBeEnabled()
  await expect(input).toHaveValue('')
  await snap(page, testInfo, '03-leader-answered')

  const before = await paneText(page)
  await page.reload()
  await expect(page.getByRole('textbox', { name: 'Message to the leader' })).toBeEnabled()
  await expectPaneToContain(page, 'shell-output-ok')
  await expectPaneToContain(page, 'Finished: the shell printed its marker.')
  expect(await paneText(page)).toContain(before.split('\n').find((line) => line.includes('shell-output-ok')))
  await snap(page, testInfo, '04-after-reload')
})
