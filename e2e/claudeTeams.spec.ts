import { readFileSync, writeFileSync } from 'node:fs'
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
  const inbox = (name: string) =>
    JSON.parse(readFileSync(join(root, 'teams', TEAM, 'inboxes', `${name}.json`), 'utf8')) as Inbox
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
