import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Page } from '@playwright/test'
import { expect, expectPaneToContain, snap, test, type ScenarioObject } from './fixtures'

/**
 * The permission queue (docs/teams.md#permission-requests, docs/teams.md#plan-approval, docs/ui.md#the-workspace-ui; issue 7 item 5) with scripted teams: a worker
 * teammate's Bash requests answered from the keyboard, a plan-required teammate's plan rejected
 * with feedback then approved, and a teammate killed while it asks.
 */

/**
 * How long a teammate's first question may take to show: the leader's turns, a worker thread
 * starting and loading the runtime, then its own first turn (seconds on a loaded 2-core machine).
 */
const FIRST_QUESTION_MS = 60_000

const leaderNotes = Array.from({ length: 30 }, () => ({ text: 'Noted.' }))

/** A card of the global queue, or pinned to the agent's pane. */
const queueCard = (page: Page, agentId: string) =>
  page.locator(`aside.perm-queue section.perm-card[data-placement="queue"][data-agent-id="${agentId}"]`)
const paneCard = (page: Page, agentId: string) =>
  page.locator(`section.pane[data-agent-id="${agentId}"] section.perm-card[data-placement="pane"]`)

/** The count badge of the queue's title (the drawer's tab may show the same badge). */
const queueCount = (page: Page) => page.locator('aside.perm-queue').getByTestId('perm-count')

/** Shows the global queue: it may sit behind a drawer tab. */
async function openQueue(page: Page): Promise<void> {
  const tab = page.getByRole('tab', { name: /permission/i })
  if ((await tab.count()) > 0) await tab.first().click()
  await expect(page.locator('aside.perm-queue')).toBeVisible()
}

/** Sends the leader a prompt, then takes focus off the prompt box (keys typed there are text, not shortcuts). */
async function promptLeader(page: Page, text: string): Promise<void> {
  const input = page.getByRole('textbox', { name: 'Message to the leader' })
  await input.fill(text)
  await input.press('Enter')
  await input.blur()
}

test('a worker teammate’s Bash requests: shown with their directory in the queue and on its pane, answered with A, Shift+A and D', async ({
  page,
  serve,
  repo
}, testInfo) => {
  test.setTimeout(120_000)
  const scenario: ScenarioObject = {
    name: 'e2e-permission-keys',
    agents: {
      'team-lead': [
        { tools: [{ name: 'TeamCreate', input: { team_name: 'perms', description: 'Permission queue' } }] },
        {
          tools: [
            {
              name: 'Agent',
              input: {
                name: 'wendy',
                backend: 'worker',
                description: 'shell worker',
                prompt: 'Run the shell steps one by one.'
              }
            }
          ]
        },
        { text: 'wendy is at work.' },
        ...leaderNotes
      ],
      wendy: [
        {
          tools: [
            {
              name: 'Bash',
              input: { command: 'touch step-one.txt && echo step one done', description: 'Mark step one' }
            }
          ]
        },
        { when: 'step one done', tools: [{ name: 'Bash', input: { command: 'expr 4200 + 7' } }] },
        // allowed by the rule Shift+A added: no question this time
        { when: '4207', tools: [{ name: 'Bash', input: { command: 'expr 5600 + 8' } }] },
        { when: '5608', tools: [{ name: 'Bash', input: { command: 'hostname' } }] },
        { when: 'not on this machine', text: 'Understood: hostname was denied because it is not on this machine.' },
        { text: 'Done.' },
        { text: 'Done.' },
        { text: 'Done.' }
      ]
    }
  }
  const served = await serve(scenario)
  await page.goto(served.url)
  await openQueue(page)
  await promptLeader(page, 'Have wendy run the shell steps.')
  const wendy = 'wendy@perms'

  // the first request: in the queue and pinned to wendy's pane, with the command and where it runs
  const first = queueCard(page, wendy)
  await expect(first).toHaveCount(1, { timeout: FIRST_QUESTION_MS })
  await expect(paneCard(page, wendy)).toHaveCount(1)
  await expect(first.getByTestId('agent-badge')).toHaveText('wendy')
  await expect(first.locator('.perm-tool')).toHaveText('Bash')
  await expect(first.locator('.perm-command')).toHaveText('$ touch step-one.txt && echo step one done')
  await expect(first.getByTestId('perm-cwd')).toHaveText(`in ${repo}`)
  await expect(paneCard(page, wendy).locator('.perm-command')).toHaveText('$ touch step-one.txt && echo step one done')
  await expect(queueCount(page)).toHaveText('1')
  await expect(page.locator(`section.pane[data-agent-id="${wendy}"]`)).toHaveAttribute(
    'data-state',
    'awaiting_permission'
  )
  expect(existsSync(join(repo, 'step-one.txt'))).toBe(false)
  await snap(page, testInfo, '01-bash-card')

  // A: allow once — the command runs
  await page.keyboard.press('a')
  // (the call's own line names the command, so wait for the file, then for its output line)
  await expect.poll(() => existsSync(join(repo, 'step-one.txt')), { timeout: 20_000 }).toBe(true)
  await expectPaneToContain(page, /^step one done$/m, wendy)

  // the next request shows the rule Shift+A adds and where it is kept
  const second = queueCard(page, wendy)
  await expect(second.locator('.perm-command')).toHaveText('$ expr 4200 + 7')
  await expect(second.getByTestId('perm-rule')).toHaveText('Bash(expr:*)')
  await expect(second.getByTestId('perm-scope')).toHaveText('for this session, wendy only')
  await expect(queueCount(page)).toHaveText('1')
  await snap(page, testInfo, '02-always-allow-rule')
  await page.keyboard.press('Shift+A')
  await expectPaneToContain(page, '4207', wendy)
  // the rule covers the next expr: it runs with nobody answering
  await expectPaneToContain(page, '5608', wendy)

  // D opens the reason field on the queue's card; Enter sends the denial with the reason
  const third = queueCard(page, wendy)
  await expect(third.locator('.perm-command')).toHaveText('$ hostname')
  await page.keyboard.press('d')
  const reason = third.getByRole('textbox', { name: 'Reason for denying' })
  await expect(reason).toBeFocused()
  // Esc cancels the reason: the request still waits, with its buttons back
  await reason.press('Escape')
  await expect(reason).toHaveCount(0)
  await expect(third.getByRole('button', { name: /^Deny/ })).toBeVisible()
  await page.keyboard.press('d')
  await expect(reason).toBeFocused()
  await reason.pressSequentially('not on this machine')
  await snap(page, testInfo, '03-deny-reason')
  await reason.press('Enter')
  await expect(page.locator('section.perm-card')).toHaveCount(0)
  await expect(queueCount(page)).toHaveCount(0)
  await expectPaneToContain(page, 'Understood: hostname was denied because it is not on this machine.', wendy)
  await snap(page, testInfo, '04-denied')

  // what the model saw: the denial's reason came back to wendy as her tool result
  const wendyRequests = (await served.modelRequests()).filter((r) => r.headers['x-swarmdesk-agent-name'] === 'wendy')
  const lastResult = JSON.stringify(wendyRequests.at(-1)!.body.messages.at(-1))
  expect(lastResult).toContain('Permission denied')
  expect(lastResult).toContain('not on this machine')
})

test('a plan-required teammate’s plan, rejected with feedback from the queue, stays in plan mode; the second plan approved, it writes', async ({
  page,
  serve,
  repo
}, testInfo) => {
  test.setTimeout(120_000)
  const scenario: ScenarioObject = {
    name: 'e2e-plan-approval',
    agents: {
      'team-lead': [
        { tools: [{ name: 'TeamCreate', input: { team_name: 'planners' } }] },
        {
          tools: [
            {
              name: 'Agent',
              input: {
                name: 'pat',
                mode: 'plan',
                backend: 'worker',
                description: 'careful writer',
                prompt: 'Write plan-notes.txt once your plan is approved.'
              }
            }
          ]
        },
        { text: 'pat is planning.' },
        ...leaderNotes
      ],
      pat: [
        { tools: [{ name: 'ExitPlanMode', input: { plan: '## Notes\n1. Write plan-notes.txt' } }] },
        // still in plan mode after the rejection: the write is refused, then a better plan
        {
          when: 'Add a check step',
          tools: [
            { name: 'Write', input: { file_path: 'too-early.txt', content: 'too early\n' } },
            { name: 'ExitPlanMode', input: { plan: '## Notes\n1. Write plan-notes.txt\n2. Read it back to check it' } }
          ]
        },
        {
          when: 'approved your plan',
          tools: [{ name: 'Write', input: { file_path: 'plan-notes.txt', content: 'planned, then written\n' } }]
        },
        // the write's result matches no `when`: the next plain turn
        { text: 'plan-notes.txt is written.' },
        { text: 'Done.' },
        { text: 'Done.' },
        { text: 'Done.' }
      ]
    }
  }
  const served = await serve(scenario)
  await page.goto(served.url)
  await openQueue(page)
  await promptLeader(page, 'Have pat write the notes after planning.')
  const pat = 'pat@planners'

  const plan = queueCard(page, pat)
  await expect(plan).toHaveAttribute('data-kind', 'plan', { timeout: FIRST_QUESTION_MS })
  await expect(plan.getByTestId('perm-plan')).toContainText('1. Write plan-notes.txt')
  await expect(paneCard(page, pat)).toHaveAttribute('data-kind', 'plan')
  await expect(page.locator(`section.pane[data-agent-id="${pat}"]`)).toHaveAttribute(
    'data-state',
    'awaiting_plan_approval'
  )
  await snap(page, testInfo, '01-plan-card')

  // Reject with feedback, from the queue's card
  await plan.getByRole('button', { name: /^Reject/ }).click()
  const feedback = plan.getByRole('textbox', { name: 'Feedback on the plan' })
  await feedback.fill('Add a check step')
  await plan.getByRole('button', { name: /Confirm reject/ }).click()

  // the feedback reached pat, which stayed in plan mode (its write refused) and planned again
  const second = queueCard(page, pat)
  await expect(second.getByTestId('perm-plan')).toContainText('2. Read it back to check it')
  await expectPaneToContain(page, 'Add a check step', pat)
  await expectPaneToContain(page, /plan mode/i, pat)
  expect(existsSync(join(repo, 'too-early.txt'))).toBe(false)
  await snap(page, testInfo, '02-second-plan')

  // Approve: pat works in default mode, so its write asks like any other
  await second.getByRole('button', { name: /Approve plan/ }).click()
  const write = queueCard(page, pat)
  await expect(write).toHaveAttribute('data-kind', 'tool')
  await expect(write.locator('.perm-tool')).toHaveText('Write')
  await expect(write.locator('.perm-diff')).toContainText('+planned, then written')
  await write.getByRole('button', { name: /Allow once/ }).click()
  await expectPaneToContain(page, 'plan-notes.txt is written.', pat)
  expect(readFileSync(join(repo, 'plan-notes.txt'), 'utf8')).toBe('planned, then written\n')
  await expect(page.locator('section.perm-card')).toHaveCount(0)

  const patRequests = (await served.modelRequests()).filter((r) => r.headers['x-swarmdesk-agent-name'] === 'pat')
  const afterReject = JSON.stringify(patRequests[1]!.body.messages.at(-1))
  expect(afterReject).toContain('Add a check step')
  expect(afterReject).toContain('stay in plan mode')
  await snap(page, testInfo, '03-plan-written')
})

test('a teammate killed while its request waits: its cards vanish from the queue and its pane; the other’s stay', async ({
  page,
  serve,
  repo
}, testInfo) => {
  test.setTimeout(120_000)
  // the shutdown timeout: a teammate stuck on a question is killed a second after the request
  mkdirSync(join(repo, '.swarmdesk'), { recursive: true })
  writeFileSync(join(repo, '.swarmdesk', 'settings.json'), JSON.stringify({ teammateShutdownTimeoutSeconds: 1 }))
  const scenario: ScenarioObject = {
    name: 'e2e-permission-killed',
    agents: {
      'team-lead': [
        { tools: [{ name: 'TeamCreate', input: { team_name: 'crew' } }] },
        {
          tools: [
            {
              name: 'Agent',
              input: { name: 'kim', backend: 'worker', description: 'cleaner', prompt: 'Clean the build directory.' }
            },
            {
              name: 'Agent',
              input: { name: 'wendy', backend: 'worker', description: 'notes editor', prompt: 'Edit the notes.' }
            }
          ]
        },
        { text: 'kim and wendy are at work.' },
        {
          when: 'Stop kim',
          tools: [
            { name: 'SendMessage', input: { to: 'kim', message: { type: 'shutdown_request', reason: 'Stop now.' } } }
          ]
        },
        ...leaderNotes
      ],
      kim: [
        { tools: [{ name: 'Bash', input: { command: 'rm -rf build && echo cleaned' } }] },
        { text: 'Done.' },
        { text: 'Done.' }
      ],
      wendy: [
        {
          tools: [
            {
              name: 'Edit',
              input: { file_path: 'notes.txt', old_string: 'first line', new_string: 'first line, edited by wendy' }
            }
          ]
        },
        { text: 'Done.' },
        { text: 'Done.' }
      ]
    }
  }
  const served = await serve(scenario)
  await page.goto(served.url)
  await openQueue(page)
  await promptLeader(page, 'Have kim clean up and wendy edit the notes.')
  const kim = 'kim@crew'
  const wendy = 'wendy@crew'

  // both ask; the queue holds both, oldest first, each pinned to its own pane
  await expect(queueCard(page, kim).locator('.perm-command')).toHaveText('$ rm -rf build && echo cleaned', {
    timeout: FIRST_QUESTION_MS
  })
  // an Edit reads as the diff it would make to the file on disk
  const edit = queueCard(page, wendy)
  await expect(edit.locator('.perm-tool')).toHaveText('Edit', { timeout: FIRST_QUESTION_MS })
  await expect(edit.locator('.perm-diff .diff-del')).toHaveText('-first line')
  await expect(edit.locator('.perm-diff .diff-add')).toHaveText('+first line, edited by wendy')
  await expect(edit.getByTestId('perm-rule')).toHaveText('Edit(./notes.txt)')
  await expect(queueCount(page)).toHaveText('2')
  await expect(paneCard(page, kim)).toHaveCount(1)
  await expect(paneCard(page, wendy)).toHaveCount(1)
  const order = await page
    .locator('aside.perm-queue section.perm-card')
    .evaluateAll((cards) => cards.map((c) => (c as HTMLElement).dataset.agentId))
  expect(order.sort()).toEqual([kim, wendy])
  const snapPath = await snap(page, testInfo, '01-two-asking')
  mkdirSync(join(__dirname, '..', 'docs', 'screenshots'), { recursive: true })
  copyFileSync(snapPath, join(__dirname, '..', 'docs', 'screenshots', 'permissions.png'))

  // the leader shuts kim down; kim cannot answer while it waits, so the timeout kills it
  await promptLeader(page, 'Stop kim.')
  await expect(page.locator(`section.pane[data-agent-id="${kim}"]`)).toHaveAttribute('data-state', /exited|crashed/)
  await expect(queueCard(page, kim)).toHaveCount(0)
  await expect(paneCard(page, kim)).toHaveCount(0)
  // wendy's request is untouched
  await expect(queueCard(page, wendy)).toHaveCount(1)
  await expect(queueCount(page)).toHaveText('1')
  await snap(page, testInfo, '02-killed-card-gone')
})
