import { protocolBody } from '../../../shared/mailbox'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { parseMessageBody } from '../../../shared/mailbox'
import type { PermissionPromptRequest } from '../../../shared/permissions'
import { createMailbox } from '../mailbox'
import { createFileTeamStore } from '../teamStore'
import { createMailboxPrompter } from './mailboxPrompter'

const homes: string[] = []
afterEach(() => {
  for (const h of homes.splice(0)) rmSync(h, { recursive: true, force: true })
})

function setup() {
  const home = mkdtempSync(join(tmpdir(), 'swarmdesk-prompter-'))
  homes.push(home)
  const mailbox = createMailbox({ home, pollMs: 100 })
  const prompter = createMailboxPrompter({
    mailbox: createFileTeamStore(home, { mailbox }).mailbox,
    team: 't',
    name: 'alice',
    leader: 'team-lead'
  })
  const request = (requestId: string): PermissionPromptRequest => ({
    requestId,
    agentId: 'alice@t',
    agentName: 'alice',
    tool: 'Bash',
    input: { command: 'ls' },
    reason: 'needs approval',
    suggestions: []
  })
  /** Waits for the request to reach the lead's inbox and returns its body. */
  const received = async (): Promise<Record<string, unknown>> => {
    const entry = await mailbox.waitForMessage('t', 'team-lead')
    await mailbox.markRead('t', 'team-lead', [entry.message.id])
    const body = parseMessageBody(entry.message.text)
    if (body.kind !== 'structured') throw new Error('not a structured message')
    return body.body as Record<string, unknown>
  }
  const answer = (requestId: string, decision: 'allow' | 'deny', reason?: string) =>
    mailbox.send('t', 'alice', {
      from: 'team-lead',
      body: protocolBody('permission_response', { requestId, decision, ...(reason ? { reason } : {}) })
    })
  return { mailbox, prompter, request, received, answer }
}

describe('mailbox permission prompter (docs/teams.md#permission-requests)', () => {
  it('sends a permission_request to the lead and resolves with the first matching answer only', async () => {
    const { mailbox, prompter, request, received, answer } = setup()
    const pending = prompter.prompt(request('r1'), new AbortController().signal)
    expect(await received()).toMatchObject({
      type: 'permission_request',
      requestId: 'r1',
      agentName: 'alice',
      toolName: 'Bash',
      input: { command: 'ls' },
      description: 'needs approval'
    })
    await answer('other', 'allow') // another request's answer is not taken
    await answer('r1', 'deny', 'not now')
    await answer('r1', 'allow') // a second answer to the same request loses
    expect(await pending).toEqual({ decision: 'deny', by: 'user', reason: 'not now' })
    const unread = (await mailbox.read('t', 'alice', { unreadOnly: true })).messages.map(
      (e) => JSON.parse(e.message.text) as { requestId: string; decision: string }
    )
    expect(unread.map((b) => [b.requestId, b.decision])).toEqual([
      ['other', 'allow'],
      ['r1', 'allow']
    ])
  })

  it('resolves as a cancelled denial when the agent stops while waiting', async () => {
    const { prompter, request, received } = setup()
    const controller = new AbortController()
    const pending = prompter.prompt(request('r2'), controller.signal)
    await received()
    controller.abort()
    expect(await pending).toEqual({ decision: 'deny', by: 'cancelled' })
  })

  it('allows on an allow answer', async () => {
    const { prompter, request, received, answer } = setup()
    const pending = prompter.prompt(request('r3'), new AbortController().signal)
    await received()
    await answer('r3', 'allow')
    expect(await pending).toEqual({ decision: 'allow', by: 'user' })
  })

  it("keeps who decided: an answer of the leader's --approve flag is not reported as a person's", async () => {
    const { mailbox, prompter, request, received } = setup()
    const pending = prompter.prompt(request('r4'), new AbortController().signal)
    await received()
    await mailbox.send('t', 'alice', {
      from: 'team-lead',
      body: protocolBody('permission_response', { requestId: 'r4', decision: 'allow', by: 'approve-flag' })
    })
    expect(await pending).toEqual({ decision: 'allow', by: 'approve-flag' })
  })
})
