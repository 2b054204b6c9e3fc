import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import {
  inboxMessage,
  member,
  scratchConfig,
  writeConfig,
  writeInbox,
  writeSession,
  writeTask
} from '../src/main/app/claudeCode/ccFiles.testkit'
import { expect, test } from './fixtures'

/**
 * Claude Code's team in the drawer's "Claude Code" tab, in Chromium against the web host: a config
 * folder in Claude Code 2.1.197's formats (docs/claude-code-teams.md) shows its members, board,
 * cards and an unreadable file; dragging a task onto a teammate and approving a plan write Claude
 * Code's own files.
 */
const SESSION = '0f1e2d3c-0000-4000-8000-000000000004'
const TEAM = 'session-0f1e2d3c'

test('the Claude Code tab shows the team and writes back a drag-to-assign and a plan approval', async ({
  page,
  serve
}) => {
  test.setTimeout(120_000)
  const { root, cleanup } = scratchConfig()
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
    process.env.CLAUDE_CONFIG_DIR = root
    const served = await serve({ name: 'cc-teams', agents: {} })
    await page.goto(served.url)
    await page.getByRole('tab', { name: 'Claude Code' }).click()
    const team = page.getByRole('region', { name: `Claude Code team ${TEAM}` })
    await expect(team).toBeVisible({ timeout: 30_000 })
    await expect(team.getByText('live', { exact: true })).toBeVisible()
    await expect(team.getByRole('list', { name: 'Members' })).toContainText('alice')
    await expect(team.getByRole('list', { name: 'Members' })).toContainText('plan mode')
    await expect(team.getByRole('list', { name: 'Messages' })).toContainText('Plan for approval: Read the parser first')
    await expect(team.getByRole('status').filter({ hasText: '2.json' })).toContainText('not JSON')

    await team.getByText('#1 Write the parser').dragTo(team.locator('[data-member="alice"]'))
    await expect(team.locator('.cc-board')).toContainText('· alice')
    const taskFile = JSON.parse(readFileSync(join(root, 'tasks', TEAM, '1.json'), 'utf8')) as { owner?: string }
    expect(taskFile.owner).toBe('alice')
    const aliceInbox = JSON.parse(readFileSync(join(root, 'teams', TEAM, 'inboxes', 'alice.json'), 'utf8')) as Array<{
      text: string
    }>
    expect(JSON.parse(aliceInbox[0]!.text)).toMatchObject({ type: 'task_assignment', taskId: '1' })

    await team.getByRole('button', { name: 'Approve' }).click()
    await expect(team.getByRole('list', { name: 'Messages' })).toContainText('Plan approved (default)')
    const bobInbox = JSON.parse(readFileSync(join(root, 'teams', TEAM, 'inboxes', 'bob.json'), 'utf8')) as Array<{
      text: string
    }>
    expect(JSON.parse(bobInbox[0]!.text)).toMatchObject({ type: 'plan_approval_response', approved: true })
  } finally {
    delete process.env.CLAUDE_CONFIG_DIR
    cleanup()
  }
})
