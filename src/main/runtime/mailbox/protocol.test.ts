import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import {
  parseMessageBody,
  permissionAnswerOf,
  permissionPromptOf,
  permissionRequestBody,
  permissionResponseBody,
  protocolBody,
  ProtocolBodyError,
  protocolText,
  PROTOCOL_TYPES,
  type ProtocolBody
} from '../../../shared/mailbox'
import { createMailbox, InvalidMessageError, newRequestId } from '.'

/** One valid body per protocol type, with the field names stored on disk since schema version 1. */
const BODIES: Record<(typeof PROTOCOL_TYPES)[number], ProtocolBody> = {
  idle_notification: protocolBody('idle_notification', {
    from: 'alice',
    idleReason: 'failed',
    failureReason: 'overloaded',
    summary: 'stopped'
  }),
  permission_request: protocolBody('permission_request', {
    requestId: 'perm-1',
    agentName: 'alice',
    toolName: 'Bash',
    input: { command: 'ls' },
    description: 'asks'
  }),
  permission_response: protocolBody('permission_response', {
    requestId: 'perm-1',
    decision: 'deny',
    reason: 'no',
    by: 'user'
  }),
  sandbox_permission_request: protocolBody('sandbox_permission_request', {
    requestId: 'net-1',
    workerId: 'alice@t',
    workerName: 'alice',
    hostPattern: { host: 'example.com' },
    createdAt: 1
  }),
  sandbox_permission_response: protocolBody('sandbox_permission_response', {
    requestId: 'net-1',
    host: 'example.com',
    allow: false,
    timestamp: '2026-01-01T00:00:00.000Z'
  }),
  plan_approval_request: protocolBody('plan_approval_request', { requestId: 'plan-1', plan: '1. read' }),
  plan_approval_response: protocolBody('plan_approval_response', {
    requestId: 'plan-1',
    approve: true,
    permissionMode: 'acceptEdits'
  }),
  shutdown_request: protocolBody('shutdown_request', { requestId: 'shutdown-1', reason: 'done' }),
  shutdown_approved: protocolBody('shutdown_approved', { requestId: 'shutdown-1', from: 'alice' }),
  shutdown_rejected: protocolBody('shutdown_rejected', { requestId: 'shutdown-1', from: 'alice', reason: 'busy' }),
  task_assignment: protocolBody('task_assignment', { taskId: '3', subject: 'docs', assignedBy: 'team-lead' }),
  mode_set_request: protocolBody('mode_set_request', { mode: 'plan', from: 'team-lead' })
}

describe('the typed team protocol (docs/teams.md#mailbox)', () => {
  it.each(PROTOCOL_TYPES)(
    '%s round-trips through the mailbox: sent as a body, read back by its schema',
    async (type) => {
      const mailbox = createMailbox({ home: mkdtempSync(join(tmpdir(), 'proto-')) })
      await mailbox.send('t', 'bob', { from: 'alice', body: BODIES[type] })
      const [entry] = (await mailbox.read('t', 'bob')).messages
      expect(parseMessageBody(entry!.message.text)).toEqual({ kind: 'structured', body: BODIES[type] })
    }
  )

  it('refuses a body its schema refuses, and plain text passing for a body, so nothing unchecked reaches an inbox', async () => {
    const mailbox = createMailbox({ home: mkdtempSync(join(tmpdir(), 'proto-')) })
    expect(() => protocolBody('shutdown_request', { requestId: '' })).toThrow(ProtocolBodyError)
    await expect(
      mailbox.send('t', 'bob', { from: 'alice', body: { type: 'shutdown_request', requestId: '' } })
    ).rejects.toThrow(InvalidMessageError)
    await expect(
      mailbox.send('t', 'bob', {
        from: 'alice',
        text: JSON.stringify({ type: 'permission_response', requestId: 'r', decision: 'allow' })
      })
    ).rejects.toThrow(/send a structured message as body/)
    await expect(mailbox.send('t', 'bob', { from: 'alice', text: '{"type":"shutdown_request"}' })).rejects.toThrow(
      InvalidMessageError
    )
    await mailbox.send('t', 'bob', { from: 'alice', text: '{"type":"something else"}' })
    expect((await mailbox.read('t', 'bob')).messages).toHaveLength(1)
  })

  it('reads a message file written before the typed builders as before (same field names on disk)', async () => {
    const home = mkdtempSync(join(tmpdir(), 'proto-'))
    const dir = join(home, 'teams', 't', 'inboxes', 'team-lead', 'new')
    mkdirSync(dir, { recursive: true })
    const old = {
      schemaVersion: 1,
      id: '0001700000000000-000000-abc-0-deadbeef',
      from: 'alice',
      to: 'team-lead',
      timestamp: '2026-01-01T00:00:00.000Z',
      text: '{"type":"permission_request","requestId":"perm_6b1c2f0e-1111-4222-8333-944445555666","agentId":"alice@t","agentName":"alice","toolName":"Write","input":{"file_path":"a.txt"},"description":"writes a file"}'
    }
    writeFileSync(join(dir, `${old.id}.json`), JSON.stringify(old))
    const [entry] = (await createMailbox({ home }).read('t', 'team-lead')).messages
    const body = parseMessageBody(entry!.message.text)
    expect(body).toMatchObject({
      kind: 'structured',
      body: { type: 'permission_request', requestId: 'perm_6b1c2f0e-1111-4222-8333-944445555666', toolName: 'Write' }
    })
  })

  it('maps the one permission-request shape onto the mailbox body and back', () => {
    const request = {
      requestId: newRequestId('perm'),
      agentId: 'alice@t',
      agentName: 'alice',
      tool: 'Bash',
      input: { command: 'rm x' },
      reason: 'asks',
      suggestions: ['Bash(rm:*)']
    }
    const body = permissionRequestBody(request)
    expect(JSON.parse(protocolText(body))).toEqual({
      type: 'permission_request',
      requestId: request.requestId,
      agentId: 'alice@t',
      agentName: 'alice',
      toolName: 'Bash',
      input: { command: 'rm x' },
      description: 'asks'
    })
    expect(permissionPromptOf(body, { agentId: 'alice@t', agentName: 'alice' })).toEqual({
      ...request,
      suggestions: []
    })
    const answer = { decision: 'deny', by: 'approve-flag', reason: 'no' } as const
    expect(permissionAnswerOf(permissionResponseBody(request.requestId, answer))).toEqual(answer)
    expect(() => permissionResponseBody('r', { decision: 'deny', by: 'cancelled' })).toThrow(ProtocolBodyError)
  })

  it('makes every request id in one format: {kind}-{16 hex}', () => {
    for (const kind of ['perm', 'shutdown', 'plan'] as const)
      expect(newRequestId(kind)).toMatch(new RegExp(`^${kind}-[0-9a-f]{16}$`))
  })
})
