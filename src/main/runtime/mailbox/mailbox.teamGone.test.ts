import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createMailbox, TeamGoneError } from '.'

let home: string
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'swarmdesk-team-gone-'))
})
afterEach(() => rmSync(home, { recursive: true, force: true }))

describe('a send only to a team that still exists', () => {
  it('delivers into an existing team folder, creating the inbox', async () => {
    mkdirSync(join(home, 'teams', 'docs'), { recursive: true })
    const mailbox = createMailbox({ home })
    await mailbox.send('docs', 'team-lead', { from: 'alice', text: 'bye' }, { existingTeamOnly: true })
    expect((await mailbox.read('docs', 'team-lead')).messages.map((e) => e.message.text)).toEqual(['bye'])
  })

  it('refuses a deleted team without bringing its folder back, also after this process had made the inbox', async () => {
    const mailbox = createMailbox({ home })
    await expect(
      mailbox.send('gone', 'team-lead', { from: 'alice', text: 'late' }, { existingTeamOnly: true })
    ).rejects.toBeInstanceOf(TeamGoneError)
    expect(existsSync(join(home, 'teams', 'gone'))).toBe(false)
    // an inbox this process created, then the team deleted (TeamDelete): the cached inbox is not trusted
    mkdirSync(join(home, 'teams', 'docs'), { recursive: true })
    await mailbox.send('docs', 'team-lead', { from: 'alice', text: 'first' }, { existingTeamOnly: true })
    rmSync(join(home, 'teams', 'docs'), { recursive: true, force: true })
    await expect(
      mailbox.send('docs', 'team-lead', { from: 'alice', text: 'late' }, { existingTeamOnly: true })
    ).rejects.toThrow(/team 'docs' no longer exists/)
    expect(existsSync(join(home, 'teams', 'docs'))).toBe(false)
    // a plain send still creates what it needs
    await mailbox.send('docs', 'team-lead', { from: 'alice', text: 'plain' })
    expect(existsSync(join(home, 'teams', 'docs', 'inboxes', 'team-lead', 'new'))).toBe(true)
  })
})
