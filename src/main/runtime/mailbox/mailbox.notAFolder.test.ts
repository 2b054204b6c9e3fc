import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createMailbox, InboxNotAFolderError } from '.'

let home: string
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'swarmdesk-not-a-folder-'))
})
afterEach(() => rmSync(home, { recursive: true, force: true }))

describe('an inbox with a file where a folder must be', () => {
  it('is refused by send, read, unreadCount and waitForMessage with the file named, and works once it is moved', async () => {
    const inboxes = join(home, 'teams', 'crew', 'inboxes')
    mkdirSync(inboxes, { recursive: true })
    const inTheWay = join(inboxes, 'alice')
    writeFileSync(inTheWay, 'not an inbox\n')
    const mailbox = createMailbox({ home })
    const refused = (p: Promise<unknown>) =>
      expect(p).rejects.toThrow(new InboxNotAFolderError('alice', inTheWay).message)
    await refused(mailbox.send('crew', 'alice', { from: 'team-lead', text: 'hi' }))
    await refused(mailbox.send('crew', 'alice', { from: 'team-lead', text: 'hi' }, { existingTeamOnly: true }))
    await refused(mailbox.read('crew', 'alice'))
    await refused(mailbox.waitForMessage('crew', 'alice'))
    expect(() => mailbox.unreadCount('crew', 'alice')).toThrow(/alice is a file, where a folder must be/)

    rmSync(inTheWay)
    await mailbox.send('crew', 'alice', { from: 'team-lead', text: 'hi' })
    expect((await mailbox.read('crew', 'alice')).messages.map((e) => e.message.text)).toEqual(['hi'])
  })

  it("names a file in place of the inbox's new/ folder", async () => {
    const root = join(home, 'teams', 'crew', 'inboxes', 'bob')
    mkdirSync(root, { recursive: true })
    writeFileSync(join(root, 'new'), '')
    const mailbox = createMailbox({ home })
    await expect(mailbox.send('crew', 'bob', { from: 'team-lead', text: 'hi' })).rejects.toBeInstanceOf(
      InboxNotAFolderError
    )
    await expect(mailbox.read('crew', 'bob')).rejects.toThrow(`${join(root, 'new')} is a file`)
  })
})
