import { protocolBody } from '../../shared/mailbox'
import { createTeamContext } from '../runtime/teamStore'
import { existsSync, mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { MailboxChange, MailboxEntry } from '../../shared/ipc'
import { EventBus } from '../runtime/events/bus'
import { createMailbox } from '../runtime/mailbox'
import { tempHome } from '../runtime/mailbox/fixtures.testkit'

import { describeBody } from './mailboxEntry'
import { followTeamMailboxes, MailboxFeed } from './mailboxFeed'
import { activeFeedWatches } from './mailboxWatch'

/** Resolves with the first change `pick` accepts (no timers: the test's own timeout bounds it). */
function nextChange(feed: MailboxFeed, pick: (c: MailboxChange) => boolean): Promise<MailboxChange> {
  return new Promise((resolve) => {
    const sub = feed.onDidChange((c) => {
      if (!pick(c)) return
      sub.dispose()
      resolve(c)
    })
  })
}

/** Resolves once the feed's list satisfies `ok`, checked after every change. */
async function until(feed: MailboxFeed, ok: (entries: MailboxEntry[]) => boolean): Promise<MailboxEntry[]> {
  for (;;) {
    const entries = feed.list().entries
    if (ok(entries)) return entries
    await nextChange(feed, () => true)
  }
}

const lead = { name: 'team-lead', agentType: 'team-lead', model: 'm', backendType: 'main' as const, cwd: '/tmp' }

describe('the mailbox inspector feed', () => {
  it('lists every inbox of the team oldest first, with kind, a readable summary and read state', async () => {
    const { home, cleanup } = tempHome()
    const mailbox = createMailbox({ home })
    await mailbox.send('docs', 'carol', {
      from: 'team-lead',
      text: 'Start with the docs index.',
      summary: 'initial prompt'
    })
    await mailbox.send('docs', 'carol', {
      from: 'team-lead',
      body: protocolBody('task_assignment', { taskId: '4', subject: 'Write the changelog', assignedBy: 'team-lead' })
    })
    const req = await mailbox.send('docs', 'team-lead', {
      from: 'carol',
      body: protocolBody('permission_request', {
        requestId: 'r1',
        agentName: 'carol',
        toolName: 'Write',
        input: { file_path: 'docs/README.md', content: '# docs' }
      })
    })
    await mailbox.markRead('docs', 'team-lead', [req.id])
    const feed = new MailboxFeed({ home })
    feed.follow('docs')
    const entries = await until(feed, (e) => e.length === 3)
    expect(entries.map((e) => [e.from, e.to, e.kind, e.summary, e.read])).toEqual([
      ['team-lead', 'carol', 'plain', 'initial prompt', false],
      ['team-lead', 'carol', 'task_assignment', 'Task #4 assigned: Write the changelog', false],
      ['carol', 'team-lead', 'permission_request', 'Asks to use Write on docs/README.md', true]
    ])
    expect(feed.list(1, 1)).toMatchObject({
      team: 'docs',
      deleted: false,
      offset: 1,
      total: 3,
      entries: [{ kind: 'task_assignment' }]
    })
    feed.dispose()
    cleanup()
  })

  it('pushes new messages and read-state changes live, the newer revision last', async () => {
    const { home, cleanup } = tempHome()
    const mailbox = createMailbox({ home })
    mkdirSync(join(home, 'teams', 'docs'), { recursive: true }) // as TeamCreate leaves it
    const feed = new MailboxFeed({ home })
    feed.follow('docs')
    const added = nextChange(feed, (c) => c.type === 'messages')
    const { id } = await mailbox.send('docs', 'alice', { from: 'team-lead', text: 'hello' })
    const first = await added
    expect(first).toMatchObject({
      type: 'messages',
      team: 'docs',
      entries: [{ key: `alice/${id}`, read: false, text: 'hello', summary: 'hello' }]
    })
    const read = nextChange(feed, (c) => c.type === 'messages' && c.entries.some((e) => e.read))
    await mailbox.markRead('docs', 'alice', [id])
    const second = await read
    if (second.type !== 'messages' || first.type !== 'messages') throw new Error('unreachable')
    expect(second.entries[0]).toMatchObject({ key: `alice/${id}`, read: true })
    expect(second.entries[0]!.rev).toBeGreaterThan(first.entries[0]!.rev)
    feed.dispose()
    cleanup()
  })

  it('marks every copy of a broadcast with all its recipients, one entry per inbox', async () => {
    const { home, cleanup } = tempHome()
    const mailbox = createMailbox({ home })
    mkdirSync(join(home, 'teams', 'docs'), { recursive: true }) // as TeamCreate leaves it
    const feed = new MailboxFeed({ home })
    feed.follow('docs')
    await mailbox.broadcast('docs', ['team-lead', 'alice', 'bob', 'carol'], {
      from: 'alice',
      text: 'docs/wordfreq.md is written.',
      summary: 'wordfreq page done'
    })
    // the same words sent one by one, with no broadcast reported: separate messages
    await mailbox.send('docs', 'bob', { from: 'team-lead', text: 'same prompt' })
    await mailbox.send('docs', 'carol', { from: 'team-lead', text: 'same prompt' })
    await mailbox.send('docs', 'bob', { from: 'alice', text: 'a direct note' })
    // the runtime's message_sent {to: "*"} comes once the copies are delivered
    feed.noteBroadcast('alice', Date.now())
    const entries = await until(feed, (e) => e.length === 6 && e.filter((x) => x.broadcast).length === 3)
    const copies = entries.filter((e) => e.broadcast)
    expect(copies.map((e) => e.to).sort()).toEqual(['bob', 'carol', 'team-lead'])
    for (const c of copies) expect(c.broadcast).toEqual(['bob', 'carol', 'team-lead'])
    expect(entries.find((e) => e.text === 'a direct note')?.broadcast).toBeUndefined()
    expect(entries.filter((e) => e.text === 'same prompt' && e.broadcast)).toEqual([])
    feed.dispose()
    cleanup()
  })

  it('keeps a deleted team’s messages marked deleted, and starts empty for the next team', async () => {
    const { home, cleanup } = tempHome()
    const ctx = createTeamContext({ home, sessionId: 's1', bus: new EventBus(), leaderName: 'team-lead' })
    const feed = followTeamMailboxes(ctx, { home })
    expect(feed.list()).toMatchObject({ team: null, total: 0 })
    await ctx.files!.teams.create({ name: 'docs', lead })
    ctx.setTeam('docs')
    await ctx.files!.mailbox.send('docs', 'team-lead', {
      from: 'alice',
      body: protocolBody('idle_notification', {
        from: 'alice',
        idleReason: 'available',
        summary: 'wrote docs/wordfreq.md'
      })
    })
    await until(feed, (e) => e.length === 1)
    await ctx.files!.teams.delete('docs')
    ctx.setTeam(undefined)
    expect(feed.list()).toMatchObject({
      team: 'docs',
      deleted: true,
      total: 1,
      entries: [{ kind: 'idle_notification', summary: 'Idle (available): wrote docs/wordfreq.md' }]
    })
    await ctx.files!.teams.create({ name: 'next', lead })
    ctx.setTeam('next')
    expect(feed.list()).toMatchObject({ team: 'next', deleted: false, total: 0 })
    await ctx.files!.mailbox.send('next', 'bob', { from: 'team-lead', text: 'hi' })
    expect((await until(feed, (e) => e.length === 1))[0]).toMatchObject({ to: 'bob', text: 'hi' })
    feed.dispose()
    cleanup()
  })

  it('drops the oldest messages past its cap and counts them', async () => {
    const { home, cleanup } = tempHome()
    const mailbox = createMailbox({ home })
    for (let i = 0; i < 5; i++) await mailbox.send('docs', 'bob', { from: 'team-lead', text: `m${i}` })
    const feed = new MailboxFeed({ home, maxEntries: 3 })
    feed.follow('docs')
    await until(feed, (e) => e.some((x) => x.text === 'm4'))
    await feed.settled()
    expect(feed.list()).toMatchObject({ total: 3, dropped: 2 })
    expect(feed.list().entries.map((e) => e.text)).toEqual(['m2', 'm3', 'm4'])
    feed.dispose()
    cleanup()
  })

  it('releases every watch when disposed or following another team, and leaves the disk untouched', async () => {
    const { home, cleanup } = tempHome()
    const mailbox = createMailbox({ home })
    await mailbox.send('docs', 'bob', { from: 'team-lead', text: 'hi' })
    const before = activeFeedWatches()
    const feed = new MailboxFeed({ home })
    feed.follow('docs')
    await until(feed, (e) => e.length === 1)
    // the team folder, inboxes/, and bob's inbox with its new/ and cur/
    expect(activeFeedWatches() - before).toBe(5)
    feed.follow('ghost')
    await feed.settled()
    expect(activeFeedWatches() - before).toBe(1)
    feed.dispose()
    expect(activeFeedWatches()).toBe(before)
    expect(existsSync(join(home, 'teams', 'ghost'))).toBe(false)
    cleanup()
  })

  it('describes every structured body in words, never JSON', () => {
    expect(describeBody({ type: 'permission_response', requestId: 'r', decision: 'deny', reason: 'not now' })).toBe(
      'Permission denied: not now'
    )
    expect(describeBody({ type: 'plan_approval_request', requestId: 'r', plan: '1. Read\n2. Write' })).toBe(
      'Plan for approval: 1. Read'
    )
    expect(
      describeBody({ type: 'plan_approval_response', requestId: 'r', approve: false, feedback: 'add tests' })
    ).toBe('Plan rejected: add tests')
    expect(describeBody({ type: 'shutdown_request', requestId: 'r', reason: 'done' })).toBe('Shutdown requested: done')
    expect(describeBody({ type: 'shutdown_approved', requestId: 'r' })).toBe('Shutdown approved')
    expect(describeBody({ type: 'shutdown_rejected', requestId: 'r', reason: 'busy' })).toBe('Shutdown rejected: busy')
    expect(describeBody({ type: 'mode_set_request', mode: 'plan' })).toBe('Permission mode set to plan')
  })
})
