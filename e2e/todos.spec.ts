import { expect, snap, test, type ScenarioObject } from './fixtures'

/**
 * An agent's todo list in Chromium against the web host (docs/ui.md#pane-grid, docs/ui.md#team-dashboard):
 * after a scripted TodoWrite the leader's and a teammate's pane headers show the item in progress
 * and a done/total count, the whole list opens on a click, and the dashboard row of each shows the same.
 */

const noted = Array.from({ length: 20 }, () => ({ text: 'Noted.' }))

const todo = (content: string, status: string, activeForm: string) => ({ content, status, activeForm })

const PLAN: ScenarioObject = {
  name: 'todo-lists',
  agents: {
    'team-lead': [
      {
        when: 'Plan the release',
        text: 'Planning the release.',
        tools: [
          {
            name: 'TodoWrite',
            input: {
              todos: [
                todo('Survey the changes', 'completed', 'Surveying the changes'),
                todo('Write the release notes', 'in_progress', 'Writing the release notes'),
                todo('Tag the release', 'pending', 'Tagging the release')
              ]
            }
          }
        ]
      },
      { tools: [{ name: 'TeamCreate', input: { team_name: 'crew' } }] },
      {
        tools: [
          {
            name: 'Agent',
            input: { name: 'alice', backend: 'worker', description: 'checker', prompt: 'Plan your checks.' }
          }
        ]
      },
      { text: 'alice checks the build.' },
      ...noted
    ],
    alice: [
      {
        when: 'Plan your checks',
        tools: [
          {
            name: 'TodoWrite',
            input: {
              todos: [
                todo('Build the app', 'completed', 'Building the app'),
                todo('Run the tests', 'completed', 'Running the tests'),
                todo('Check the installer', 'in_progress', 'Checking the installer'),
                todo('Report back', 'pending', 'Reporting back')
              ]
            }
          }
        ]
      },
      { text: 'Checks planned.' },
      ...noted
    ]
  }
}

test("a TodoWrite shows the agent's list in its pane header and its dashboard row", async ({
  page,
  serve
}, testInfo) => {
  test.setTimeout(90_000)
  const served = await serve(PLAN)
  await page.goto(served.url)
  const input = page.getByRole('textbox', { name: 'Message to the leader' })
  await input.fill('Plan the release.')
  await input.press('Enter')

  const leaderPane = page.locator('section.pane[data-agent-id="team-lead"]')
  const leaderChip = leaderPane.getByTestId('pane-todos')
  await expect(leaderChip).toContainText('Writing the release notes')
  await expect(leaderChip).toContainText('1/3')
  await expect(leaderChip).toHaveAttribute(
    'title',
    /Survey the changes\n▶ Writing the release notes\n☐ Tag the release/
  )

  const alicePane = page.locator('section.pane[data-agent-id="alice@crew"]')
  await expect(alicePane.getByTestId('pane-todos')).toContainText('Checking the installer')
  await expect(alicePane.getByTestId('pane-todos')).toContainText('2/4')

  // the dashboard: a row per member with the same list
  const aliceRow = page.locator('li.member-row[data-agent-id="alice@crew"]')
  await expect(aliceRow.getByTestId('member-todos')).toContainText('Checking the installer')
  await expect(aliceRow.getByTestId('member-todos')).toContainText('2/4')
  await expect(page.locator('li.member-row[data-agent-id="team-lead"]').getByTestId('member-todos')).toContainText(
    '1/3'
  )

  // a click opens the whole list, each item marked; Esc closes it
  await alicePane.getByTestId('pane-todos').click()
  const popover = page.getByRole('dialog', { name: "alice's todo list" })
  await expect(popover).toBeVisible()
  await expect(popover.locator('li')).toHaveText([
    '☑Build the app',
    '☑Run the tests',
    '▶Checking the installer',
    '☐Report back'
  ])
  await expect(popover.locator('li[data-status="in_progress"]')).toHaveText('▶Checking the installer')
  await snap(page, testInfo, '01-todos-pane-header-and-dashboard')
  await page.keyboard.press('Escape')
  await expect(popover).toHaveCount(0)
})
