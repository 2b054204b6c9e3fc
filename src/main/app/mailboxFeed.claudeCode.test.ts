import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { MailboxChangeSchema, type MailboxChange, type MailboxEntry } from '../../shared/ipc'
import { createMailbox } from '../runtime/mailbox'
import { tempHome } from '../runtime/mailbox/fixtures.testkit'
import { claudeMailboxEntries, ClaudeTeamsRecorder } from './claudeCode'
import {
  inboxMessage,
  member,
  scratchConfig,
  writeConfig,
  writeInbox,
  writeSession
} from './claudeCode/ccFiles.testkit'
import { MailboxFeed } from './mailboxFeed'

// Claude Code's agent teams' inbox messages in the mailbox inspector's feed, beside Swarmdesk's
// own (docs/claude-code-teams.md#in-the-workspace): the real recorder over files in Claude Code
// 2.1.197's formats, the real maildir mailbox, the real feed.

const SESSION = '5e5e5e5e-0000-4000-8000-000000000005'
const TEAM = 'session-5e5e5e5e'

/** Resolves once the feed's list satisfies `ok`, checked after every change. */
async function until(feed: MailboxFeed, ok: (entries: MailboxEntry[]) => boolean): Promise<MailboxEntry[]> {
  for (;;) {
    const entries = feed.list().entries
    if (ok(entries)) return entries
    await new Promise<void>((resolve) => {
      const sub = feed.onDidChange(() => {
        sub.dispose()
        resolve()
      })
    })
  }
}

const at = (offsetMs: number): string => new Date(Date.now() + offsetMs).toISOString()

describe('the mailbox feed with Claude Code’s teams', () => {
  it('merges their messages, marked with their team and readable, in time order with Swarmdesk’s; keeps them when delivered, across Swarmdesk’s team changes and after the team ends', async () => {
    const { home, cleanup } = tempHome()
    const { root, cleanup: cleanupConfig } = scratchConfig()
    const recorder = new ClaudeTeamsRecorder({ root, pollMs: 50 })
    const feed = new MailboxFeed({ home, pollMs: 50 })
    const changes: MailboxChange[] = []
    feed.onDidChange((c) => changes.push(c))
    recorder.onDidChange(() => feed.putClaudeCode(claudeMailboxEntries(recorder.list())))
    try {
      await createMailbox({ home }).send('docs', 'carol', { from: 'team-lead', text: 'Start with the docs index.' })
      writeSession(root, SESSION)
      writeConfig(root, TEAM, SESSION, [member('alice'), member('bob', { planModeRequired: true })])
      const assignment = inboxMessage(
        'team-lead',
        JSON.stringify({
          type: 'task_assignment',
          taskId: '1',
          subject: 'Write the parser',
          description: 'The lexer first',
          assignedBy: 'team-lead',
          timestamp: at(-3_600_000)
        }),
        { timestamp: at(-3_600_000) }
      )
      const plain = inboxMessage('team-lead', 'Start with the lexer', { timestamp: at(3_600_000) })
      writeInbox(root, TEAM, 'alice', [assignment, plain])
      const plan = {
        type: 'plan_approval_request',
        from: 'bob',
        timestamp: at(3_600_001),
        planFilePath: '/p.md',
        planContent: 'Read the parser first\nThen write it',
        requestId: 'plan_approval-3@bob'
      }
      const idle = { type: 'idle_notification', from: 'alice', timestamp: at(3_600_002), idleReason: 'available' }
      const strange = { type: 'teammate_terminated', message: 'alice has shut down.' }
      writeInbox(root, TEAM, 'team-lead', [
        inboxMessage('bob', JSON.stringify(plan), { timestamp: at(3_600_001) }),
        inboxMessage('alice', JSON.stringify(idle), { timestamp: at(3_600_002) }),
        inboxMessage('system', JSON.stringify(strange), { timestamp: at(3_600_003) })
      ])
      feed.follow('docs')
      await recorder.start()
      const entries = await until(feed, (e) => e.length === 6)
      expect(entries.map((e) => [e.source, e.team, e.from, e.to, e.kind, e.summary])).toEqual([
        [
          'claude-code',
          TEAM,
          'team-lead',
          'alice',
          'task_assignment',
          'Task #1 assigned: Write the parser (by team-lead)'
        ],
        ['swarmdesk', 'docs', 'team-lead', 'carol', 'plain', 'Start with the docs index.'],
        ['claude-code', TEAM, 'team-lead', 'alice', 'plain', 'Start with the lexer'],
        ['claude-code', TEAM, 'bob', 'team-lead', 'plan_approval_request', 'Plan for approval: Read the parser first'],
        ['claude-code', TEAM, 'alice', 'team-lead', 'idle_notification', 'Idle (available)'],
        ['claude-code', TEAM, 'system', 'team-lead', 'teammate_terminated', 'alice has shut down.']
      ])
      expect(entries[0]!.key).toBe(`claude-code:${TEAM}/alice/${String(assignment.msg_id)}`)
      expect(new Set(entries.map((e) => e.key)).size).toBe(6)
      // the pushes are the contract's, and Claude Code's came as `claudeCode` changes
      for (const c of changes) MailboxChangeSchema.parse(c)
      expect(changes.some((c) => c.type === 'claudeCode' && c.entries.length === 5)).toBe(true)

      // Claude Code delivers the assignment and removes it: the card stays, read and delivered
      writeInbox(root, TEAM, 'alice', [plain])
      const delivered = await until(feed, (e) => e[0]?.delivered === true)
      expect(delivered[0]).toMatchObject({ kind: 'task_assignment', read: true, delivered: true })
      expect(delivered).toHaveLength(6)
      const last = changes.at(-1)!
      expect(last.type === 'claudeCode' && last.entries.map((e) => e.key)).toEqual([delivered[0]!.key])

      // Swarmdesk follows another team: its old team's message goes, Claude Code's stay
      feed.follow('next')
      expect(feed.list().entries.map((e) => e.source)).toEqual(Array(5).fill('claude-code'))

      // the session ends and takes its team folder: the team is ended, its messages stay
      rmSync(join(root, 'teams', TEAM), { recursive: true })
      rmSync(join(root, 'sessions'), { recursive: true })
      // (the watches pick it up; a look already under way may have read the folder before)
      while (recorder.team(TEAM)!.status !== 'ended') await recorder.refresh()
      expect(feed.list().entries.map((e) => e.summary)).toContain('Plan for approval: Read the parser first')
      expect(feed.list().total).toBe(5)
    } finally {
      recorder.dispose()
      feed.dispose()
      cleanupConfig()
      cleanup()
    }
  })

  it('upserts by revision only, and never brings back a message dropped past the cap', () => {
    const { home, cleanup } = tempHome()
    const feed = new MailboxFeed({ home, maxEntries: 2 })
    const changes: MailboxChange[] = []
    feed.onDidChange((c) => changes.push(c))
    const cc = (n: number, rev: number): MailboxEntry => ({
      key: `claude-code:t/alice/m${n}`,
      id: `${String(n).padStart(13, '0')}-cc-m${n}`,
      source: 'claude-code',
      team: 't',
      from: 'team-lead',
      to: 'alice',
      timestamp: new Date(n).toISOString(),
      kind: 'plain',
      summary: `m${n}`,
      read: false,
      text: `m${n}`,
      rev
    })
    try {
      feed.putClaudeCode([cc(1, 1), cc(2, 2), cc(3, 3)])
      expect(feed.list()).toMatchObject({ total: 2, dropped: 1 })
      expect(feed.list().entries.map((e) => e.text)).toEqual(['m2', 'm3'])
      expect(changes).toHaveLength(1)
      // the same revisions again: nothing changes, nothing is pushed
      feed.putClaudeCode([cc(1, 1), cc(2, 2), cc(3, 3)])
      expect(changes).toHaveLength(1)
      // m1 read (a newer revision) stays dropped; m3 read is replaced in place
      feed.putClaudeCode([
        { ...cc(1, 4), read: true },
        { ...cc(3, 5), read: true }
      ])
      expect(feed.list().entries.map((e) => [e.text, e.read])).toEqual([
        ['m2', false],
        ['m3', true]
      ])
      expect(changes.at(-1)).toMatchObject({ type: 'claudeCode', entries: [{ text: 'm3', rev: 5 }] })
    } finally {
      feed.dispose()
      cleanup()
    }
  })
})
