import { describe, expect, it } from 'vitest'
import { readClaudeCodeBody } from './claudeCodeMessages'

// Each document as Claude Code 2.1.197's own code builds it (its field names and values), read as
// the body of Swarmdesk's card for that type (docs/claude-code-teams.md#its-protocol).
const t = '2026-01-01T00:00:00.000Z'

describe('readClaudeCodeBody', () => {
  it('reads every protocol document Swarmdesk also has under Swarmdesk’s field names', () => {
    const cases: Array<[Record<string, unknown>, Record<string, unknown>]> = [
      [
        {
          type: 'task_assignment',
          taskId: '1',
          subject: 'Parse',
          description: 'd',
          assignedBy: 'team-lead',
          timestamp: t
        },
        { type: 'task_assignment', taskId: '1', subject: 'Parse', description: 'd', assignedBy: 'team-lead' }
      ],
      [
        { type: 'idle_notification', from: 'alice', timestamp: t, idleReason: 'available', completedTaskId: '1' },
        { type: 'idle_notification', from: 'alice', idleReason: 'available', completedTaskId: '1' }
      ],
      [
        {
          type: 'plan_approval_request',
          from: 'bob',
          timestamp: t,
          planFilePath: '/p.md',
          planContent: '# Plan',
          requestId: 'plan_approval-3@bob'
        },
        { type: 'plan_approval_request', plan: '# Plan', planFilePath: '/p.md', requestId: 'plan_approval-3@bob' }
      ],
      [
        { type: 'plan_approval_response', requestId: 'r', approved: true, timestamp: t, permissionMode: 'default' },
        { type: 'plan_approval_response', requestId: 'r', approve: true, permissionMode: 'default' }
      ],
      [
        { type: 'plan_approval_response', requestId: 'r', approved: false, feedback: 'Tests first', timestamp: t },
        { type: 'plan_approval_response', requestId: 'r', approve: false, feedback: 'Tests first' }
      ],
      [
        { type: 'shutdown_request', requestId: 'shutdown-1@bob', from: 'team-lead', reason: 'done', timestamp: t },
        { type: 'shutdown_request', requestId: 'shutdown-1@bob', reason: 'done' }
      ],
      [
        {
          type: 'shutdown_approved',
          requestId: 'shutdown-1@bob',
          from: 'bob',
          timestamp: t,
          backendType: 'in-process'
        },
        { type: 'shutdown_approved', requestId: 'shutdown-1@bob', from: 'bob' }
      ],
      [
        { type: 'shutdown_rejected', requestId: 'shutdown-1@bob', from: 'bob', reason: 'busy', timestamp: t },
        { type: 'shutdown_rejected', requestId: 'shutdown-1@bob', reason: 'busy' }
      ],
      [
        {
          type: 'permission_request',
          request_id: 'perm-1',
          agent_id: 'alice@team',
          tool_name: 'Bash',
          tool_use_id: 'toolu_1',
          description: 'List files',
          input: { command: 'ls' },
          permission_suggestions: []
        },
        {
          type: 'permission_request',
          requestId: 'perm-1',
          agentId: 'alice@team',
          toolName: 'Bash',
          toolUseId: 'toolu_1',
          description: 'List files',
          input: { command: 'ls' }
        }
      ],
      [
        {
          type: 'permission_response',
          request_id: 'perm-1',
          subtype: 'success',
          response: { updated_input: { command: 'ls -a' } }
        },
        { type: 'permission_response', requestId: 'perm-1', decision: 'allow', updatedInput: { command: 'ls -a' } }
      ],
      [
        { type: 'permission_response', request_id: 'perm-1', subtype: 'error', error: 'Permission denied' },
        { type: 'permission_response', requestId: 'perm-1', decision: 'deny', reason: 'Permission denied' }
      ],
      [
        { type: 'permission_response', request_id: 'perm-2', allowed: true },
        { type: 'permission_response', requestId: 'perm-2', decision: 'allow' }
      ]
    ]
    for (const [doc, body] of cases) {
      const read = readClaudeCodeBody(JSON.stringify(doc))
      expect(read.kind, JSON.stringify(doc)).toBe('structured')
      expect(read.kind === 'structured' && read.body).toMatchObject(body)
    }
    // Claude Code's names are not left beside Swarmdesk's
    const plan = readClaudeCodeBody(JSON.stringify(cases[2]![0]))
    expect(plan.kind === 'structured' && 'planContent' in plan.body).toBe(false)
  })

  it('reads plain text as plain, and a type Swarmdesk has no card for, or fields that do not fit it, as its fields', () => {
    expect(readClaudeCodeBody('Start with the lexer')).toEqual({ kind: 'plain', text: 'Start with the lexer' })
    expect(readClaudeCodeBody('{"not": "a protocol document"}').kind).toBe('plain')
    expect(readClaudeCodeBody('[1, 2]').kind).toBe('plain')
    expect(
      readClaudeCodeBody(JSON.stringify({ type: 'teammate_terminated', message: 'alice has shut down.' }))
    ).toEqual({ kind: 'other', type: 'teammate_terminated', fields: { message: 'alice has shut down.' } })
    // a task_assignment without its subject does not fit Swarmdesk's card
    expect(readClaudeCodeBody(JSON.stringify({ type: 'task_assignment', taskId: '1' }))).toEqual({
      kind: 'other',
      type: 'task_assignment',
      fields: { taskId: '1' }
    })
  })
})
