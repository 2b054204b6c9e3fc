import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, snap, test, type ScenarioObject } from './fixtures'

/**
 * The team dashboard (docs/ui.md#the-workspace-ui) in Chromium against the web host: a row per member with backend,
 * state, task and tokens; a person's message to a teammate answered; a teammate spawned from the
 * form; the stuck marker on a teammate silent in `sleep 30`; kill and shut down from the rows.
 */

const silent = Array.from({ length: 10 }, () => ({ text: '' }))
const noted = Array.from({ length: 20 }, () => ({ text: 'Noted.' }))

/** The leader makes team "crew" with one task and spawns alice, who takes the task and reports in. */
const CREW: ScenarioObject = {
  name: 'dashboard-crew',
  agents: {
    'team-lead': [
      {
        when: 'Start the crew',
        text: 'Setting up the crew.',
        tools: [{ name: 'TeamCreate', input: { team_name: 'crew' } }]
      },
      {
        tools: [
          {
            name: 'TaskCreate',
            input: { subject: 'Write the release notes', description: 'Summarise the changes in NOTES.md.' }
          }
        ]
      },
      {
        text: 'Spawning alice for the notes.',
        tools: [
          {
            name: 'Agent',
            input: {
              name: 'alice',
              backend: 'worker',
              description: 'notes writer',
              prompt: 'Report in, then take task 1.'
            }
          }
        ]
      },
      { text: 'The crew is at work.' },
      ...noted
    ],
    alice: [
      {
        when: 'Report in',
        text: 'Taking the release notes.',
        tools: [
          { name: 'TaskUpdate', input: { taskId: '1', owner: 'alice', status: 'in_progress' } },
          {
            name: 'SendMessage',
            input: { to: 'team-lead', message: 'I am on the release notes.', summary: 'alice reports in' }
          }
        ]
      },
      {
        when: 'ping from the person',
        tools: [{ name: 'SendMessage', input: { to: 'team-lead', message: 'pong', summary: 'alice answers the ping' } }]
      },
      ...silent
    ],
    bob: [
      {
        when: 'Take a nap',
        text: 'Napping.',
        tools: [{ name: 'Bash', input: { command: 'sleep 30', timeout: 120000 } }]
      },
      ...silent
    ]
  }
}

const row = (page: import('@playwright/test').Page, agentId: string) =>
  page.locator(`li.member-row[data-agent-id="${agentId}"]`)

test('the dashboard lists the team, messages a teammate, spawns one, marks it stuck, and kills and shuts them down', async ({
  page,
  serve,
  repo
}, testInfo) => {
  test.setTimeout(120_000)
  // a tiny stuck threshold (1.2 s) from the project's own settings file
  mkdirSync(join(repo, '.swarmdesk'), { recursive: true })
  writeFileSync(join(repo, '.swarmdesk', 'settings.json'), JSON.stringify({ stuckAfterMinutes: 0.02 }))
  const served = await serve(CREW)
  await page.goto(served.url)
  const input = page.getByRole('textbox', { name: 'Message to the leader' })
  await input.fill('Start the crew.')
  await input.press('Enter')

  // a row per member: the leader, then alice with her backend, state, task and tokens
  const alice = row(page, 'alice@crew')
  await expect(row(page, 'team-lead')).toBeVisible()
  await expect(row(page, 'team-lead').getByTestId('member-backend')).toHaveText('leader')
  await expect(alice.getByTestId('member-backend')).toHaveText('worker')
  await expect(alice.getByTestId('member-task')).toContainText('#1 Write the release notes')
  await expect(alice.getByTestId('member-last')).toContainText('alice reports in')
  await expect(alice.getByTestId('member-state')).toHaveAttribute('data-state', 'idle')
  await expect(alice.getByTestId('member-tokens')).toHaveText(/^[1-9][\d.]*k? tok$/)
  await expect(alice.getByTestId('member-context')).toHaveText(/^\d+%$/)
  await expect(page.getByTestId('topbar-team')).toHaveText('team crew')
  await expect(page.locator('ul.member-list > li')).toHaveCount(2)
  await snap(page, testInfo, '01-dashboard-team')

  // the person messages alice from her row; her answer shows as her last message
  await alice.getByRole('button', { name: 'Message' }).click()
  const box = alice.getByRole('textbox', { name: 'Message to alice' })
  await box.fill('ping from the person')
  await box.press('Enter')
  await expect(alice.locator('.member-note')).toContainText('message sent')
  await expect(alice.getByTestId('member-last')).toContainText('alice answers the ping')
  await snap(page, testInfo, '02-dashboard-message-answered')

  // spawn bob from the form: he appears as a row and as a pane
  await page.getByRole('button', { name: 'Spawn teammate' }).click()
  await page.getByRole('textbox', { name: 'Teammate name' }).fill('bob')
  await expect(page.getByRole('combobox', { name: 'Agent type' })).toHaveValue('general-purpose')
  await page.getByRole('combobox', { name: 'Backend' }).selectOption('worker')
  await page.getByRole('combobox', { name: 'Permission mode of the teammate' }).selectOption('bypassPermissions')
  await page.getByRole('textbox', { name: 'Teammate prompt' }).fill('Take a nap.')
  await snap(page, testInfo, '03-dashboard-spawn-form')
  await page.getByRole('button', { name: 'Spawn into crew' }).click()
  const bob = row(page, 'bob@crew')
  await expect(bob).toBeVisible()
  await expect(bob.getByTestId('member-backend')).toHaveText('worker')
  await expect(page.locator('section.pane[data-agent-id="bob@crew"]')).toBeVisible()
  await expect(page.getByRole('form', { name: 'Spawn a teammate' })).toHaveCount(0)

  // bob runs `sleep 30` and produces nothing: past 1.2 s of silence he is marked stuck
  await expect(bob.getByTestId('member-state')).toHaveAttribute('data-state', 'running')
  await expect(bob.getByTestId('member-stuck')).toBeVisible()
  await expect(bob).toHaveClass(/\bstuck\b/)
  await expect(alice.getByTestId('member-stuck')).toHaveCount(0)
  await snap(page, testInfo, '04-dashboard-stuck')
  const shots = join(__dirname, '..', 'docs', 'screenshots')
  mkdirSync(shots, { recursive: true })
  await page.screenshot({ path: join(shots, 'workspace.png') })
  // the dashboard alone, down to its last row: the picture the README shows
  const panel = (await page.locator('aside.dashboard').boundingBox())!
  const last = (await page.locator('ul.member-list > li').last().boundingBox())!
  await page.screenshot({
    path: join(shots, 'dashboard.png'),
    clip: { x: panel.x, y: panel.y, width: panel.width, height: last.y + last.height + 8 - panel.y }
  })

  // kill bob (a confirmation first), then ask alice to shut down
  await bob.getByRole('button', { name: 'Kill', exact: true }).click()
  await bob.getByRole('button', { name: 'Kill bob' }).click()
  await expect(bob.getByTestId('member-state')).toHaveAttribute('data-state', 'exited')
  await expect(bob.getByTestId('member-state')).toHaveText('killed')
  await expect(bob.getByTestId('member-stuck')).toHaveCount(0)
  await alice.getByRole('button', { name: 'Shut down' }).click()
  await expect(alice.getByTestId('member-state')).toHaveAttribute('data-state', 'exited')
  await expect(alice.getByRole('button', { name: 'Message' })).toHaveCount(0)
  await expect(alice.getByRole('button', { name: 'Focus' })).toBeVisible()
  await expect(alice.getByTestId('member-task')).toHaveText('no task')
  await snap(page, testInfo, '05-dashboard-ended')

  // the theme follows the OS: dark, then light again
  const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor)
  await page.emulateMedia({ colorScheme: 'dark' })
  await expect.poll(background).toBe('rgb(11, 13, 17)')
  await snap(page, testInfo, '06-dashboard-dark')
  await page.emulateMedia({ colorScheme: 'light' })
  await expect.poll(background).toBe('rgb(244, 245, 247)')

  // the drawer closed from the top bar stays closed after a reload (remembered per workspace)
  await page.getByRole('button', { name: 'Hide the side drawer' }).click()
  await expect(page.getByRole('tablist', { name: 'Side drawer' })).not.toBeVisible()
  await page.reload()
  await expect(row(page, 'bob@crew').getByTestId('member-state')).toHaveText('killed')
  await expect(page.getByRole('button', { name: 'Show the side drawer' })).toBeVisible()
  await expect(page.getByRole('tablist', { name: 'Side drawer' })).not.toBeVisible()
  await page.getByRole('button', { name: 'Show the side drawer' }).click()
  await expect(page.getByRole('tab', { name: 'Permissions' })).toBeVisible()
})
