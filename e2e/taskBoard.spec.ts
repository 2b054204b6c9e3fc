import type { Locator, Page } from '@playwright/test'
import { expect, snap, test, type ScenarioObject, keyboardDragReady } from './fixtures'

/**
 * The task board (docs/teams.md#shared-task-list, docs/ui.md#the-workspace-ui; issue 8) in Chromium against the web host: tasks created and
 * linked on the board, reordered within a column, moved between columns, a blocked task's
 * assignment refused on its card, and two tasks dragged onto teammates — one onto its dashboard
 * row, one onto its pane header — that the scripted teammates start and complete.
 *
 * The teammates run in default mode, so each Write asks a person: their first Write keeps them
 * busy (an idle teammate would claim an unowned task by itself, docs/teams.md#teammate-life-cycle) while the person builds
 * the board, and the Write of an assigned task holds the card in "In progress" long enough to see.
 */

const noted = Array.from({ length: 30 }, () => ({ text: 'Noted.' }))
const done = Array.from({ length: 12 }, () => ({ text: 'Done.' }))

/** A teammate's turns: write its notes (asks), then for an assigned task start it, write (asks), complete it. */
function teammateTurns(): Array<Record<string, unknown>> {
  return [
    {
      when: 'Write your notes first',
      tools: [{ name: 'Write', input: { file_path: 'notes/{{agent_name}}.md', content: '# notes\n' } }]
    },
    {
      when: 'type="task_assignment"',
      text: 'Starting task {{request_id}}.',
      tools: [
        { name: 'TaskUpdate', input: { taskId: '{{request_id}}', status: 'in_progress' } },
        { name: 'Write', input: { file_path: 'notes/task-{{request_id}}.md', content: 'done\n' } }
      ]
    },
    {
      when: 'notes/task-',
      text: 'Task {{request_id}} is done.',
      tools: [{ name: 'TaskUpdate', input: { taskId: '{{request_id}}', status: 'completed' } }]
    },
    { text: 'Notes written.' },
    ...done
  ]
}

const BOARD: ScenarioObject = {
  name: 'task-board',
  agents: {
    'team-lead': [
      {
        when: 'Start the board',
        text: 'Setting up the team.',
        tools: [{ name: 'TeamCreate', input: { team_name: 'board' } }]
      },
      {
        tools: [
          {
            name: 'Agent',
            input: {
              name: 'alice',
              backend: 'worker',
              description: 'writer',
              prompt: 'Write your notes first, then take what you are assigned.'
            }
          },
          {
            name: 'Agent',
            input: {
              name: 'bob',
              backend: 'worker',
              description: 'writer',
              prompt: 'Write your notes first, then take what you are assigned.'
            }
          }
        ]
      },
      { text: 'alice and bob are here.' },
      ...noted
    ],
    alice: teammateTurns(),
    bob: teammateTurns()
  }
}

const card = (page: Page, id: number) => page.locator(`li[data-testid="task-card"][data-task-id="${id}"]`)
const column = (page: Page, status: string) =>
  page.locator(`section[data-testid="task-column"][data-status="${status}"]`)
const row = (page: Page, agentId: string) => page.locator(`li.member-row[data-agent-id="${agentId}"]`)
const paneHead = (page: Page, agentId: string) =>
  page.locator(`section.pane[data-agent-id="${agentId}"]`).getByTestId('pane-head')
const paneState = (page: Page, agentId: string) =>
  page.locator(`section.pane[data-agent-id="${agentId}"]`).getByTestId('pane-state')

/** Task ids of a column's cards, top to bottom. */
const idsIn = (page: Page, status: string) =>
  column(page, status)
    .getByTestId('task-card')
    .evaluateAll((els) => els.map((e) => e.getAttribute('data-task-id')))

async function centre(locator: Locator): Promise<{ x: number; y: number }> {
  const box = await locator.boundingBox()
  if (!box) throw new Error('not on screen')
  return { x: box.x + box.width / 2, y: box.y + box.height / 2 }
}

/** Lifts task `id` by its card, moves the pointer onto `target` in steps (dnd-kit follows pointer events), and calls `over` before dropping. */
async function drag(page: Page, id: number, target: Locator, over?: () => Promise<void>): Promise<void> {
  const from = await centre(card(page, id).locator('.task-drag'))
  await page.mouse.move(from.x, from.y)
  await page.mouse.down()
  await page.mouse.move(from.x + 8, from.y + 8, { steps: 4 })
  const to = await centre(target)
  await page.mouse.move(to.x, to.y, { steps: 6 })
  await page.mouse.move(to.x + 2, to.y + 1, { steps: 2 })
  if (over) await over()
  await page.mouse.up()
}

/** Allows, from the permission queue, the next request of `agentId` (waits for its card and an enabled button). */
async function allowNext(page: Page, agentId: string): Promise<void> {
  await page.getByRole('tab', { name: /Permissions/ }).click()
  const allow = page
    .locator(`section.perm-card[data-agent-id="${agentId}"]`)
    .first()
    .getByRole('button', { name: /Allow once/ })
  await expect(allow).toBeEnabled()
  await allow.click()
  await page.getByRole('tab', { name: 'Tasks' }).click()
}

/** Waits until a dnd-kit live region (the screen reader's account of a keyboard drag) says `text`. */
async function announced(page: Page, text: string): Promise<void> {
  await expect(page.locator('[id^="DndLiveRegion"]').filter({ hasText: text })).toHaveCount(1)
}

async function newTask(page: Page, subject: string, waitsFor = ''): Promise<void> {
  await page.getByRole('textbox', { name: 'New task subject' }).fill(subject)
  await page.getByRole('textbox', { name: 'New task waits for' }).fill(waitsFor)
  await page.getByRole('button', { name: 'Add task' }).click()
}

test.use({ viewport: { width: 1600, height: 1000 } })

test("tasks dragged onto a teammate's dashboard row and onto a pane header are assigned and completed; the board creates, links, reorders, moves and refuses a blocked assignment", async ({
  page,
  serve
}, testInfo) => {
  test.setTimeout(300_000)
  const served = await serve(BOARD)
  await page.goto(served.url)
  const input = page.getByRole('textbox', { name: 'Message to the leader' })
  await input.fill('Start the board.')
  await input.press('Enter')

  // both teammates wait on their first Write: nobody claims a task meanwhile
  for (const id of ['alice@board', 'bob@board'])
    await expect(paneState(page, id)).toHaveAttribute('data-state', 'awaiting_permission')

  await page.getByRole('tab', { name: 'Tasks' }).click()
  await expect(page.getByTestId('task-board')).toHaveAttribute('data-list', 'board')
  await newTask(page, 'Fix the parser')
  await expect(card(page, 1)).toBeVisible()
  await newTask(page, 'Update the docs')
  await expect(card(page, 2)).toBeVisible()
  await newTask(page, 'Ship the release', '1')
  await expect(card(page, 3)).toBeVisible()
  await expect(card(page, 3).getByTestId('task-blocker')).toHaveText('#1')
  await expect(card(page, 3).getByTestId('task-blocker')).toHaveAttribute('data-open', 'true')
  await expect(card(page, 3)).toHaveClass(/blocked/)

  // within a column: #2 dropped on #1 goes before it
  await drag(page, 2, card(page, 1).locator('.task-drag'))
  await expect.poll(() => idsIn(page, 'pending')).toEqual(['2', '1', '3'])

  // a blocked task cannot be given away: the refusal shows on its card, and it stays unassigned
  await drag(page, 3, row(page, 'bob@board'))
  await expect(card(page, 3).getByTestId('task-error')).toContainText('Task #3 is blocked by #1')
  await expect(card(page, 3)).toHaveAttribute('data-owner', '')

  // between columns: #3 to "In progress" (an unowned task there is never claimed by an idle teammate)
  await drag(page, 3, column(page, 'in_progress').locator('.task-list'))
  await expect(card(page, 3)).toHaveAttribute('data-status', 'in_progress')
  await expect(column(page, 'in_progress').getByTestId('task-card')).toHaveCount(1)

  // #1 onto alice's dashboard row (lit while the card is over it), #2 onto bob's pane header
  await drag(page, 1, row(page, 'alice@board'), async () => {
    await expect(row(page, 'alice@board')).toHaveAttribute('data-task-drop-over', 'true')
    await snap(page, testInfo, '01-task-over-dashboard-row')
  })
  await expect(card(page, 1)).toHaveAttribute('data-owner', 'alice')
  await expect(row(page, 'alice@board')).toHaveAttribute('data-task-drop-over', 'false')
  await drag(page, 2, paneHead(page, 'bob@board'), async () => {
    await expect(paneHead(page, 'bob@board')).toHaveAttribute('data-task-drop-over', 'true')
  })
  await expect(card(page, 2)).toHaveAttribute('data-owner', 'bob')
  await expect(card(page, 1).getByTestId('task-owner')).toHaveText('alice')
  await expect(card(page, 2).getByTestId('task-owner')).toHaveText('bob')
  await expect(column(page, 'pending').getByTestId('task-card')).toHaveCount(2)
  await snap(page, testInfo, '02-tasks-assigned')

  // the assignments reached the inboxes as task_assignment messages from team-lead
  await page.getByRole('tab', { name: 'Mailbox' }).click()
  await expect(page.locator('.mailbox-inspector')).toContainText('Task #1 assigned: Fix the parser')
  await expect(page.locator('.mailbox-inspector')).toContainText('Task #2 assigned: Update the docs')
  await page.getByRole('tab', { name: 'Tasks' }).click()

  // the person lets alice write her notes; she takes her task: the card moves to "In progress"
  await allowNext(page, 'alice@board')
  await expect(card(page, 1)).toHaveAttribute('data-status', 'in_progress')
  await expect(paneHead(page, 'alice@board').getByTestId('pane-task')).toContainText('#1')
  await snap(page, testInfo, '03-task-started')
  await allowNext(page, 'alice@board')
  await expect(card(page, 1)).toHaveAttribute('data-status', 'completed')
  // #3's blocker is done: its chip says so, and the card is no longer marked blocked
  await expect(card(page, 3).getByTestId('task-blocker')).toHaveAttribute('data-open', 'false')
  await expect(card(page, 3)).not.toHaveClass(/blocked/)
  await expect(card(page, 3)).toContainText('waited for')

  await allowNext(page, 'bob@board')
  await expect(card(page, 2)).toHaveAttribute('data-status', 'in_progress')
  await allowNext(page, 'bob@board')
  await expect(card(page, 2)).toHaveAttribute('data-status', 'completed')

  // the person finishes #3 by dragging it to "Completed"
  await drag(page, 3, column(page, 'completed').locator('.task-list'))
  await expect(card(page, 3)).toHaveAttribute('data-status', 'completed')
  await expect(column(page, 'completed').getByTestId('task-card')).toHaveCount(3)
  await expect(card(page, 1)).toHaveAttribute('data-owner', 'alice')
  await expect(card(page, 2)).toHaveAttribute('data-owner', 'bob')
  await snap(page, testInfo, '04-board-done')

  // the order within a column survives a reload (kept per workspace in localStorage)
  const before = await idsIn(page, 'completed')
  await page.reload()
  await page.getByRole('tab', { name: 'Tasks' }).click()
  await expect(column(page, 'completed').getByTestId('task-card')).toHaveCount(3)
  expect(await idsIn(page, 'completed')).toEqual(before)
})

test('the board works from the keyboard: a card lifted with Space moves up its column, Esc puts one back; an edit main refuses shows on the card, then goes through', async ({
  page,
  serve
}, testInfo) => {
  test.setTimeout(180_000)
  const served = await serve({ name: 'task-board-keys', agents: { 'team-lead': [{ text: 'Nothing to do.' }] } })
  await page.goto(served.url)
  await page.getByRole('tab', { name: 'Tasks' }).click()
  await expect(page.getByTestId('task-board')).toHaveAttribute('data-list', /^session-/)
  for (const [i, subject] of ['Alpha', 'Beta', 'Gamma'].entries()) {
    await newTask(page, subject)
    await expect(card(page, i + 1)).toBeVisible()
  }

  // Space lifts, arrows move, Space drops (dnd-kit's keyboard sensor); each step waits for what the
  // board's live region announces, since a key pressed before the last move settled would be lost
  await card(page, 3).locator('.task-drag').focus()
  await page.keyboard.press('Space')
  await keyboardDragReady(page)
  await expect(card(page, 3)).toHaveClass(/dragging/)
  await page.keyboard.press('ArrowUp')
  await announced(page, 'task:3 was moved over droppable area task:2')
  await page.keyboard.press('ArrowUp')
  await announced(page, 'task:3 was moved over droppable area task:1')
  await page.keyboard.press('Space')
  await expect.poll(() => idsIn(page, 'pending')).toEqual(['3', '1', '2'])
  // Esc puts a lifted card back where it was
  await card(page, 1).locator('.task-drag').focus()
  await page.keyboard.press('Space')
  await keyboardDragReady(page)
  await expect(card(page, 1)).toHaveClass(/dragging/)
  await page.keyboard.press('ArrowDown')
  await announced(page, 'task:1 was moved over droppable area task:2')
  await page.keyboard.press('Escape')
  await expect(card(page, 1)).not.toHaveClass(/dragging/)
  expect(await idsIn(page, 'pending')).toEqual(['3', '1', '2'])

  // an edit main refuses (a link to a task that does not exist) shows on the card and changes nothing
  await page.getByRole('button', { name: 'Edit task #2' }).click()
  const form = page.getByRole('form', { name: 'Edit task #2' })
  await form.getByRole('textbox', { name: 'Subject' }).fill('Beta, reworded')
  await form.getByRole('textbox', { name: 'Also waits for' }).fill('9')
  await form.getByRole('button', { name: 'Save' }).click()
  await expect(card(page, 2).getByTestId('task-error')).toContainText('#9 does not exist')
  await expect(card(page, 2).locator('.task-subject')).toHaveText('Beta')
  await snap(page, testInfo, '05-edit-refused')
  await form.getByRole('textbox', { name: 'Also waits for' }).fill('3')
  await form.getByRole('button', { name: 'Save' }).click()
  await expect(card(page, 2).locator('.task-subject')).toHaveText('Beta, reworded')
  await expect(card(page, 2).getByTestId('task-blocker')).toHaveText('#3')
  await expect(card(page, 2).getByTestId('task-error')).toHaveCount(0)

  // #2 waits for #3, so #3 waiting for #2 would close a cycle: refused on #3's card, naming it
  await page.getByRole('button', { name: 'Edit task #3' }).click()
  const back = page.getByRole('form', { name: 'Edit task #3' })
  await back.getByRole('textbox', { name: 'Also waits for' }).fill('2')
  await back.getByRole('button', { name: 'Save' }).click()
  await expect(card(page, 3).getByTestId('task-error')).toContainText('would close the cycle #3 → #2 → #3')
  await expect(card(page, 3).getByTestId('task-blocker')).toHaveCount(0)
  await snap(page, testInfo, '06-cycle-refused')
})

test("the board opens as a full view in the pane grid's place; a refusal on a card reads in full and goes once it no longer holds", async ({
  page,
  serve
}, testInfo) => {
  test.setTimeout(180_000)
  const served = await serve(BOARD)
  await page.goto(served.url)
  await page.getByRole('textbox', { name: 'Message to the leader' }).fill('Start the board.')
  await page.getByRole('textbox', { name: 'Message to the leader' }).press('Enter')
  for (const id of ['alice@board', 'bob@board'])
    await expect(paneState(page, id)).toHaveAttribute('data-state', 'awaiting_permission')

  // the pane toolbar's "Task board" puts the board where the panes were; the drawer's tab points there
  const grid = page.getByTestId('pane-grid')
  const gridWidth = (await grid.boundingBox())!.width
  await page.getByRole('button', { name: 'Task board' }).click()
  await expect(grid).toHaveAttribute('data-layout', 'board')
  await expect(page.getByRole('button', { name: 'Task board' })).toHaveAttribute('aria-pressed', 'true')
  const board = grid.getByTestId('task-board')
  await expect(board).toHaveAttribute('data-view', 'full')
  expect((await board.boundingBox())!.width).toBeGreaterThan(gridWidth - 20)
  await page.getByRole('tab', { name: 'Tasks' }).click()
  await expect(page.getByTestId('task-board-elsewhere')).toContainText('open in the full view')
  await expect(page.getByTestId('task-board')).toHaveCount(1)

  await newTask(page, 'Write the parser')
  await newTask(page, 'Ship the parser', '1')
  await expect(card(page, 2).getByTestId('task-blocker')).toHaveAttribute('data-open', 'true')

  // giving away a blocked task is refused on its card, in full
  await card(page, 2).getByRole('button', { name: 'Edit task #2' }).click()
  await card(page, 2).getByRole('combobox', { name: 'Assign task #2 to' }).selectOption('bob')
  const refusal = card(page, 2).getByTestId('task-error')
  await expect(refusal).toContainText('Task #2 is blocked by #1: it can be assigned once that is completed.')
  const clipped = await refusal
    .locator('span')
    .evaluate((el) => el.scrollWidth > el.clientWidth || el.scrollHeight > el.clientHeight)
  expect(clipped, 'the refusal should not be cut off').toBe(false)
  await snap(page, testInfo, '05-board-full-refusal')

  // #1 is finished: the refusal no longer holds, and goes
  await drag(page, 1, column(page, 'completed').locator('.task-list'))
  await expect(card(page, 1)).toHaveAttribute('data-status', 'completed')
  await expect(refusal).toHaveCount(0)

  // the full view is remembered for the workspace, and the toolbar button goes back to the panes
  await page.reload()
  await expect(grid).toHaveAttribute('data-layout', 'board')
  await page.getByRole('button', { name: 'Task board' }).click()
  await expect(grid).not.toHaveAttribute('data-layout', 'board')
  await expect(page.locator('section.pane[data-agent-id="team-lead"]')).toBeVisible()
  await expect(page.locator('#drawer-panel-tasks').getByTestId('task-board')).toHaveAttribute('data-view', 'drawer')
})
