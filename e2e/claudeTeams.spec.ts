import { copyFileSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import {
  agentCallLine,
  inboxMessage,
  member,
  scratchConfig,
  writeConfig,
  writeInbox,
  writeLeadTranscript,
  writeSession,
  writeSubagentTranscript,
  writeTask,
  writeTeammateTranscript
} from '../src/main/app/claudeCode/ccFiles.testkit'
import { createMailbox } from '../src/main/runtime/mailbox'
import { expect, snap, test } from './fixtures'

/**
 * Claude Code's teams in Chromium against the web host, over a config folder in Claude Code
 * 2.1.197's formats (docs/claude-code-teams.md): its members are rows of the team dashboard,
 * marked as Claude Code's, with their subagents nested under them and their panes read from the
 * transcripts; its tasks are a board under Swarmdesk's own, whose cards drag onto those rows;
 * Message and Shut down on a row, and Approve in the Claude Code tab, write Claude Code's own
 * files; an ended team is there read-only.
 */
const SESSION = '0f1e2d3c-0000-4000-8000-000000000004'
const TEAM = 'session-0f1e2d3c'
const ENDED = 'session-e0e0e0e0'

type Inbox = Array<{ text: string; from: string }>

test('Claude Code teams are dashboard rows with nested subagents, a board under Swarmdesk’s, and actions written in its protocol', async ({
  page,
  serve
}, testInfo) => {
  test.setTimeout(120_000)
  const { root, cleanup } = scratchConfig()
  // an inbox Swarmdesk has not created yet reads as empty (a poll then looks again)
  const inbox = (name: string) => {
    const path = join(root, 'teams', TEAM, 'inboxes', `${name}.json`)
    return existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as Inbox) : []
  }
  try {
    writeSession(root, SESSION)
    writeConfig(root, TEAM, SESSION, [member('alice'), member('bob', { planModeRequired: true })])
    writeTask(root, TEAM, { id: '1', subject: 'Write the parser' })
    const ask = {
      type: 'plan_approval_request',
      from: 'bob',
      timestamp: 't',
      planFilePath: '/p.md',
      planContent: 'Read the parser first',
      requestId: 'plan_approval-3@bob'
    }
    writeInbox(root, TEAM, 'team-lead', [inboxMessage('bob', JSON.stringify(ask))])
    writeFileSync(join(root, 'tasks', TEAM, '2.json'), '{"id": "2", "subj')
    // the lead and alice each started a subagent; alice's started one of its own
    writeLeadTranscript(root, SESSION, [agentCallLine('toolu_lead', 'survey the repo')])
    writeTeammateTranscript(root, SESSION, TEAM, 'alice', [
      { type: 'user', message: { role: 'user', content: 'Wait for a task assignment.' } },
      agentCallLine('toolu_alice', 'check the grammar')
    ])
    writeSubagentTranscript(root, SESSION, 'a1111111111111111', 'toolu_lead', 'survey the repo')
    writeSubagentTranscript(root, SESSION, 'a2222222222222222', 'toolu_alice', 'check the grammar', [
      { type: 'assistant', message: { role: 'assistant', content: [{ type: 'text', text: 'The grammar is fine.' }] } },
      agentCallLine('toolu_nested', 'list the tokens')
    ])
    writeSubagentTranscript(root, SESSION, 'a3333333333333333', 'toolu_nested', 'list the tokens')
    // a team whose session has ended: its tasks stay
    writeTask(root, ENDED, { id: '1', subject: 'Old work', status: 'completed', owner: 'carol' })

    process.env.CLAUDE_CONFIG_DIR = root
    const served = await serve({ name: 'cc-teams', agents: {} })
    await page.goto(served.url)
    const dashboard = page.getByRole('complementary', { name: 'Team dashboard' })
    const team = dashboard.getByRole('region', { name: `Claude Code team ${TEAM}` })
    await expect(team).toBeVisible({ timeout: 30_000 })
    await expect(team.getByText('live', { exact: true })).toBeVisible()
    const row = (name: string) => team.locator(`[data-cc-member="${name}"]`)
    await expect(row('alice')).toContainText('Claude Code')
    await expect(row('bob')).toContainText('plan mode')
    await expect(team.getByRole('status')).toContainText('1 file not in the format Claude Code 2.1.197 writes')
    // subagents nested under whoever started them
    await expect(row('team-lead').locator('[data-cc-subagent="a1111111111111111"]')).toContainText('survey the repo')
    const grammar = row('alice').locator('[data-cc-subagent="a2222222222222222"]')
    await expect(grammar).toContainText('check the grammar')
    await expect(grammar.locator('[data-cc-subagent="a3333333333333333"]')).toContainText('list the tokens')
    await grammar.getByRole('button', { name: 'Pane' }).first().click()
    await expect(grammar.getByRole('figure', { name: "check the grammar's transcript" })).toContainText(
      'The grammar is fine.'
    )
    await row('alice').getByRole('button', { name: 'Pane' }).first().click()
    await expect(row('alice').getByRole('figure', { name: "alice's transcript" })).toContainText(
      '● Agent(check the grammar)'
    )

    // the board under Swarmdesk's, in the Tasks tab; a card dragged onto alice's dashboard row
    await page.getByRole('tab', { name: 'Tasks' }).click()
    const board = page.getByRole('region', { name: `Claude Code tasks of ${TEAM}` })
    await expect(board).toContainText('#1 Write the parser')
    await board.locator('[data-cc-task="1"]').dragTo(row('alice'))
    await expect(board).toContainText('· alice')
    await expect(row('alice').locator('.member-task')).toContainText('#1 Write the parser')
    const taskFile = JSON.parse(readFileSync(join(root, 'tasks', TEAM, '1.json'), 'utf8')) as { owner?: string }
    expect(taskFile.owner).toBe('alice')
    expect(JSON.parse(inbox('alice')[0]!.text)).toMatchObject({ type: 'task_assignment', taskId: '1' })

    // Message and Shut down from the rows
    await row('alice').getByRole('button', { name: 'Message' }).click()
    await row('alice').getByRole('textbox', { name: 'Message to alice' }).fill('Start with the lexer')
    await row('alice').getByRole('button', { name: 'Send' }).click()
    await expect(row('alice').getByRole('textbox', { name: 'Message to alice' })).toHaveCount(0)
    expect(inbox('alice').map((m) => m.text)).toContain('Start with the lexer')
    await row('bob').getByRole('button', { name: 'Shut down' }).click()
    await expect
      .poll(() => inbox('bob').map((m) => JSON.parse(m.text) as { type: string })[0]?.type)
      .toBe('shutdown_request')

    // the ended team: folded under the live ones, read-only
    await dashboard.getByText('Ended Claude Code teams (1), read-only').click()
    const ended = dashboard.getByRole('region', { name: `Claude Code team ${ENDED}` })
    await expect(ended.locator('[data-cc-member="carol"]')).toContainText('shut down')
    await expect(ended.getByRole('button', { name: 'Message' })).toHaveCount(0)
    await expect(ended.getByRole('button', { name: 'Shut down' })).toHaveCount(0)
    await snap(page, testInfo, 'claude-code-dashboard')

    // the Claude Code tab: the whole team, its cards, the unreadable file named, a plan answered
    await page.getByRole('tab', { name: 'Claude Code' }).click()
    const tab = page
      .getByRole('tabpanel', { name: 'Claude Code' })
      .getByRole('region', { name: `Claude Code team ${TEAM}` })
    await expect(tab.getByRole('list', { name: 'Messages' })).toContainText('Plan for approval: Read the parser first')
    await expect(tab.getByRole('status').filter({ hasText: '2.json' })).toContainText('not JSON')
    await tab.getByRole('button', { name: 'Approve' }).click()
    await expect(tab.getByRole('list', { name: 'Messages' })).toContainText('Plan approved (default)')
    expect(inbox('bob').map((m) => (JSON.parse(m.text) as { type: string }).type)).toContain('plan_approval_response')
    await snap(page, testInfo, 'claude-code-tab')
  } finally {
    delete process.env.CLAUDE_CONFIG_DIR
    cleanup()
  }
})

test('Claude Code’s inbox messages are Mailbox inspector cards beside Swarmdesk’s, readable, filterable by team, live and ended', async ({
  page,
  serve
}, testInfo) => {
  test.setTimeout(120_000)
  const { root, cleanup } = scratchConfig()
  const inspector = page.locator('section.mailbox-inspector')
  const cards = (selector = '') => inspector.locator(`article.mb-card${selector}`)
  const doc = (d: Record<string, unknown>) => JSON.stringify({ ...d, timestamp: new Date().toISOString() })
  try {
    writeSession(root, SESSION)
    writeConfig(root, TEAM, SESSION, [member('alice'), member('bob', { planModeRequired: true })])
    const assignment = {
      type: 'task_assignment',
      taskId: '1',
      subject: 'Write the parser',
      description: 'The lexer first',
      assignedBy: 'team-lead'
    }
    writeInbox(root, TEAM, 'alice', [inboxMessage('team-lead', doc(assignment))])
    const plan = inboxMessage(
      'bob',
      doc({
        type: 'plan_approval_request',
        from: 'bob',
        planFilePath: '/p.md',
        planContent: 'Read the parser first\nThen write it',
        requestId: 'plan_approval-3@bob'
      })
    )
    const ask = inboxMessage(
      'alice',
      doc({
        type: 'permission_request',
        request_id: 'perm-1',
        agent_id: `alice@${TEAM}`,
        tool_name: 'Bash',
        tool_use_id: 'toolu_1',
        description: 'List the sources',
        input: { command: 'ls src' },
        permission_suggestions: []
      })
    )
    const idle = inboxMessage('alice', doc({ type: 'idle_notification', from: 'alice', idleReason: 'available' }))
    writeInbox(root, TEAM, 'team-lead', [plan, ask, idle])

    process.env.CLAUDE_CONFIG_DIR = root
    const served = await serve({
      name: 'cc-mailbox',
      agents: {
        'team-lead': [
          { text: 'Making a team.', tools: [{ name: 'TeamCreate', input: { team_name: 'docs' } }] },
          { text: 'The team exists.' }
        ]
      }
    })
    await page.goto(served.url)
    await page.getByRole('tab', { name: /Mailbox/ }).click()
    const input = page.getByRole('textbox', { name: 'Message to the leader' })
    await input.fill('Make a team.')
    await input.press('Enter')
    await expect(inspector).toHaveAttribute('data-team', 'docs')
    await createMailbox({ home: served.home }).send('docs', 'carol', {
      from: 'team-lead',
      text: 'Start with the docs index.'
    })

    // both teams' messages in one list, Claude Code's marked with its team
    await expect(inspector.getByTestId('mailbox-counts')).toHaveText('5 messages · 5 unread', { timeout: 30_000 })
    await expect(inspector.locator('.mb-title')).toContainText('Team docs · 1 Claude Code team')
    await expect(cards('[data-source="claude-code"]')).toHaveCount(4)
    await expect(cards('[data-source="claude-code"]').first().locator('.mb-team-cc')).toHaveText(
      `Claude Code · ${TEAM}`
    )

    // its protocol messages read as Swarmdesk's cards do, never as JSON
    const planCard = cards('[data-kind="plan_approval_request"]')
    await expect(planCard.locator('.mb-kind')).toHaveText('Plan for approval')
    await expect(planCard.locator('.mb-plan')).toContainText('Read the parser first')
    await expect(planCard.locator('.mb-path')).toHaveText('/p.md')
    const askCard = cards('[data-kind="permission_request"]')
    await expect(askCard.locator('.mb-tool')).toHaveText('Bash')
    await expect(askCard).toContainText('$ ls src')
    await expect(askCard).toContainText('List the sources')
    await expect(cards('[data-kind="task_assignment"]')).toContainText('#1 Write the parser')
    await expect(cards('[data-kind="idle_notification"]')).toContainText('Available (turn done)')
    await expect(inspector).not.toContainText('"type"')

    // filtered by team: Claude Code's, then Swarmdesk's
    const teamFilter = inspector.getByLabel('Filter by team')
    await teamFilter.selectOption({ label: `Claude Code · ${TEAM}` })
    await expect(cards()).toHaveCount(4)
    await expect(cards('[data-source="swarmdesk"]')).toHaveCount(0)
    await teamFilter.selectOption({ label: 'Swarmdesk · docs' })
    await expect(cards()).toHaveCount(1)
    await expect(cards()).toContainText('Start with the docs index.')
    await teamFilter.selectOption({ label: `Claude Code · ${TEAM}` })

    // live: a new message appears; one Claude Code delivered (and removed) stays, marked
    writeInbox(root, TEAM, 'bob', [
      inboxMessage('team-lead', doc({ type: 'shutdown_request', requestId: 'shutdown-1@bob', from: 'team-lead' }))
    ])
    await expect(cards('[data-kind="shutdown_request"]')).toContainText('Shutdown requested')
    writeInbox(root, TEAM, 'team-lead', [ask, idle])
    await expect(planCard.locator('.mb-read')).toHaveText('delivered')
    await expect(cards()).toHaveCount(5)
    const shot = await snap(page, testInfo, 'claude-code-mailbox-cards')
    copyFileSync(shot, join(__dirname, '..', 'docs', 'screenshots', 'claude-code-mailbox.png'))

    // the session ends and takes its team folder: the team is ended, its cards stay
    rmSync(join(root, 'teams', TEAM), { recursive: true })
    rmSync(join(root, 'sessions'), { recursive: true })
    await expect(teamFilter.locator('option:checked')).toHaveText(`Claude Code · ${TEAM} (ended)`, {
      timeout: 30_000
    })
    await expect(cards()).toHaveCount(5)
    await expect(planCard.locator('.mb-plan')).toContainText('Read the parser first')
    // the folder went with the session: what was never delivered is not marked delivered
    await expect(cards('[data-kind="idle_notification"]').locator('.mb-read')).toHaveText('unread')
    await expect(planCard.locator('.mb-read')).toHaveText('delivered')
    await snap(page, testInfo, 'claude-code-mailbox-ended')
  } finally {
    delete process.env.CLAUDE_CONFIG_DIR
    cleanup()
  }
})
