import { afterEach, describe, expect, it } from 'vitest'
import { startTeamHarness, type TeamHarness } from './team.testkit'

let h: TeamHarness | undefined
afterEach(async () => {
  await h?.close()
  h = undefined
})

const call = (name: string, input: Record<string, unknown>) => ({ name, input })

/** A leader that creates team `crew`, then (after the test adds members) makes `calls`. */
async function leaderSends(calls: Array<Record<string, unknown>>, members = ['alice', 'bob']): Promise<TeamHarness> {
  const harness = await startTeamHarness([
    { tools: [call('TeamCreate', { team_name: 'crew' })] },
    { text: 'team made' },
    { tools: calls.map((input) => call('SendMessage', input)) },
    { text: 'sent' }
  ])
  await harness.prompt('make the team')
  await harness.addMembers('crew', members)
  await harness.prompt('send')
  return harness
}

describe('SendMessage to teammates', () => {
  it("delivers a message to a member's inbox and emits message_sent", async () => {
    h = await leaderSends([{ to: 'alice', message: 'please review the parser', summary: 'review request' }])
    expect(h.results()[1]).toEqual({ isError: false, output: 'Message sent to alice.' })
    const inbox = await h.inbox('crew', 'alice')
    expect(inbox).toEqual([
      expect.objectContaining({ from: 'team-lead', text: 'please review the parser', summary: 'review request' })
    ])
    expect(await h.inbox('crew', 'bob')).toEqual([])
    expect(h.ofType('message_sent')).toEqual([
      expect.objectContaining({
        from: 'team-lead',
        to: 'alice',
        kind: 'plain',
        agentId: 'team-lead',
        agentName: 'team-lead'
      })
    ])
  })

  it('a "*" broadcast reaches every member except the sender, with one message_sent to "*"', async () => {
    h = await leaderSends([{ to: '*', message: 'stand-up in 5' }], ['alice', 'bob', 'carol'])
    expect(h.results()[1]).toEqual({ isError: false, output: 'Message broadcast to 3 teammates: alice, bob, carol.' })
    for (const name of ['alice', 'bob', 'carol'])
      expect((await h.inbox('crew', name)).map((m) => m.text)).toEqual(['stand-up in 5'])
    expect(await h.inbox('crew', 'team-lead')).toEqual([])
    expect(h.ofType('message_sent')).toEqual([expect.objectContaining({ from: 'team-lead', to: '*', kind: 'plain' })])
  })

  it('refuses an unknown name, naming the members, and an empty `to`', async () => {
    h = await leaderSends([
      { to: 'mallory', message: 'hi' },
      { to: '  ', message: 'hi' }
    ])
    const [, unknown, empty] = h.results()
    expect(unknown).toEqual({
      isError: true,
      output: expect.stringContaining('"mallory" is not a member of team \'crew\'. Members: team-lead, alice, bob.')
    })
    expect(empty).toEqual({ isError: true, output: expect.stringContaining('`to` is empty') })
    expect(h.ofType('message_sent')).toEqual([])
  })

  it('a shutdown_response goes only to team-lead, and a structured message is never broadcast', async () => {
    h = await leaderSends([
      { to: 'alice', message: { type: 'shutdown_response', request_id: 'shutdown-1', approve: true } },
      { to: '*', message: { type: 'shutdown_request', reason: 'done' } }
    ])
    const [, response, broadcast] = h.results()
    expect(response).toEqual({
      isError: true,
      output: expect.stringContaining('A shutdown_response goes only to team-lead')
    })
    expect(broadcast).toEqual({ isError: true, output: expect.stringContaining('never to "*"') })
    expect(await h.inbox('crew', 'alice')).toEqual([])
  })

  it("the leader's shutdown_request reaches the member as a structured body with a request id", async () => {
    h = await leaderSends([{ to: 'bob', message: { type: 'shutdown_request', reason: 'all tasks done' } }])
    const result = h.results()[1]!
    expect(result.isError).toBe(false)
    const requestId = /request_id: (shutdown-[0-9a-f]{16})/.exec(result.output)?.[1]
    expect(requestId).toBeDefined()
    const [message] = await h.inbox('crew', 'bob')
    expect(JSON.parse(message!.text)).toEqual({ type: 'shutdown_request', requestId, reason: 'all tasks done' })
    expect(h.ofType('message_sent')).toEqual([expect.objectContaining({ to: 'bob', kind: 'shutdown_request' })])
  })

  it('without a team a name is refused, pointing to TeamCreate', async () => {
    h = await startTeamHarness([{ tools: [call('SendMessage', { to: 'alice', message: 'hi' })] }, { text: 'done' }])
    await h.prompt('go')
    expect(h.results()[0]).toEqual({ isError: true, output: expect.stringContaining('create one with TeamCreate') })
  })
})
