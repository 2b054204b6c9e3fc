import { describe, expect, it } from 'vitest'
import {
  MAILBOX_SCHEMA_VERSION,
  PROTOCOL_TYPES,
  messageKind,
  parseMessageBody,
  type MailboxMessage
} from '../../../shared/mailbox'
import { renderForModel } from './render'

function msg(text: string, extra: Partial<MailboxMessage> = {}): MailboxMessage {
  return {
    schemaVersion: MAILBOX_SCHEMA_VERSION,
    id: '0001764500000000-000000-a-0-deadbeef',
    from: 'team-lead',
    to: 'alice',
    text,
    timestamp: '2026-11-30T15:00:00.000Z',
    ...extra
  }
}

const bodies = {
  permission_request: {
    type: 'permission_request',
    requestId: 'p1',
    agentName: 'alice',
    toolName: 'Bash',
    input: { command: 'rm -rf build' },
    description: 'clean'
  },
  permission_response: { type: 'permission_response', requestId: 'p1', decision: 'allow' },
  mode_set_request: { type: 'mode_set_request', mode: 'acceptEdits' },
  shutdown_request: { type: 'shutdown_request', requestId: 'sd-1', reason: 'All tasks are done' },
  plan_approval_request: { type: 'plan_approval_request', requestId: 'plan-7', plan: '1. read\n2. edit' },
  plan_approval_response: { type: 'plan_approval_response', requestId: 'plan-7', approve: false, feedback: 'smaller' },
  idle_notification: {
    type: 'idle_notification',
    from: 'alice',
    summary: 'Finished the parser',
    idleReason: 'available'
  },
  task_assignment: {
    type: 'task_assignment',
    taskId: '3',
    subject: 'Write tests',
    description: 'for the lexer',
    assignedBy: 'team-lead'
  },
  shutdown_approved: { type: 'shutdown_approved', requestId: 'sd-1', from: 'alice' },
  shutdown_rejected: { type: 'shutdown_rejected', requestId: 'sd-1', from: 'alice', reason: 'still editing' },
  sandbox_permission_request: {
    type: 'sandbox_permission_request',
    requestId: 'sandbox-0123456789abcdef',
    workerId: 'alice@docs',
    workerName: 'alice',
    hostPattern: { host: 'example.com' },
    createdAt: 1764500000000
  },
  sandbox_permission_response: {
    type: 'sandbox_permission_response',
    requestId: 'sandbox-0123456789abcdef',
    host: 'example.com',
    allow: true
  }
} as const

describe('rendering messages for a model', () => {
  it('has a valid example body for every protocol type', () => {
    expect(Object.keys(bodies).sort()).toEqual([...PROTOCOL_TYPES].sort())
    for (const body of Object.values(bodies))
      expect(parseMessageBody(JSON.stringify(body))).toMatchObject({ kind: 'structured', body: { type: body.type } })
  })

  it('never renders a permission request or response (tool or sandbox network) or a mode change', () => {
    const hidden = [
      'permission_request',
      'permission_response',
      'sandbox_permission_request',
      'sandbox_permission_response',
      'mode_set_request'
    ] as const
    for (const type of hidden) expect(renderForModel(msg(JSON.stringify(bodies[type])))).toBeUndefined()
  })

  it('renders a shutdown request as a teammate-message element with its request_id and reason', () => {
    expect(renderForModel(msg(JSON.stringify(bodies.shutdown_request)))).toBe(
      '<teammate-message teammate_id="team-lead" type="shutdown_request" request_id="sd-1">All tasks are done</teammate-message>'
    )
  })

  it('renders a plan request with the plan, an idle notification with its summary, a task assignment with the task', () => {
    expect(renderForModel(msg(JSON.stringify(bodies.plan_approval_request), { from: 'alice' }))).toBe(
      '<teammate-message teammate_id="alice" type="plan_approval_request" request_id="plan-7">1. read\n2. edit</teammate-message>'
    )
    expect(renderForModel(msg(JSON.stringify(bodies.idle_notification), { from: 'alice' }))).toBe(
      `<teammate-message teammate_id="alice" type="idle_notification" request_id="${msg('').id}">Finished the parser</teammate-message>`
    )
    expect(renderForModel(msg(JSON.stringify(bodies.task_assignment)))).toBe(
      '<teammate-message teammate_id="team-lead" type="task_assignment" request_id="3">Task #3 assigned by team-lead: Write tests\n\nfor the lexer</teammate-message>'
    )
  })

  it('renders a plain message with an escaped summary attribute', () => {
    expect(renderForModel(msg('look at <b>this</b>', { summary: 'a "quick" <note> & more' }))).toBe(
      '<teammate-message teammate_id="team-lead" summary="a &quot;quick&quot; &lt;note&gt; &amp; more">look at <b>this</b></teammate-message>'
    )
    expect(renderForModel(msg('hi'))).toBe('<teammate-message teammate_id="team-lead">hi</teammate-message>')
  })

  it('never lets raw protocol JSON through: a body claiming a type but failing its schema is hidden', () => {
    const broken = JSON.stringify({ type: 'shutdown_request' })
    expect(parseMessageBody(broken)).toMatchObject({ kind: 'invalid', type: 'shutdown_request' })
    expect(renderForModel(msg(broken))).toBeUndefined()
    // JSON with no protocol type is just text
    expect(renderForModel(msg('{"type":"note"}'))).toBe(
      '<teammate-message teammate_id="team-lead">{"type":"note"}</teammate-message>'
    )
  })

  it('names the kind of a message for the message_sent event', () => {
    expect(messageKind('hello')).toBe('plain')
    expect(messageKind(JSON.stringify(bodies.task_assignment))).toBe('task_assignment')
  })
})
