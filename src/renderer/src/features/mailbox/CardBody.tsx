import type { MailboxEntry } from '../../../../shared/ipc'
import { readClaudeCodeBody } from '../../../../shared/claudeCodeMessages'
import { parseMessageBody, type ProtocolBody } from '../../../../shared/mailbox'
import { planLines, readableInput } from '../permissions/readableInput'

/** Most lines of a diff or plan a card shows before "… N more lines" (the Raw view has all). */
const MAX_LINES = 12

/**
 * The readable body of a message card (docs/ui.md#the-workspace-ui: structured messages as readable cards, never raw
 * JSON): plain text as written; each protocol type as its own fields (tool and input, decision,
 * plan, reason, task…). A body that claims a type but is malformed says why. A Claude Code team's
 * message is read under Swarmdesk's field names (shared/claudeCodeMessages.ts), so it shows the
 * same card; a type Swarmdesk has no card for shows its fields one by one.
 */
export function CardBody({ entry }: { entry: MailboxEntry }) {
  if (entry.source === 'claude-code') return <ClaudeCodeCardBody entry={entry} />
  const body = parseMessageBody(entry.text)
  if (body.kind === 'plain') return <p className="mb-text">{body.text}</p>
  if (body.kind === 'invalid')
    return (
      <p className="mb-invalid">
        This {body.type} is malformed: {body.error}
      </p>
    )
  return <Structured body={body.body} />
}

function ClaudeCodeCardBody({ entry }: { entry: MailboxEntry }) {
  if (entry.invalid)
    return (
      <p className="mb-invalid">
        This {entry.kind} is malformed: {entry.invalid}
      </p>
    )
  const body = readClaudeCodeBody(entry.text)
  if (body.kind === 'plain') return <p className="mb-text">{body.text}</p>
  if (body.kind === 'structured') return <Structured body={body.body} />
  const { timestamp: _t, ...fields } = body.fields
  return (
    <div className="mb-structured">
      <InputFields input={fields} />
    </div>
  )
}

function Field({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="mb-field">
      <span className="mb-label">{label}</span>
      <span className="mb-value">{children}</span>
    </div>
  )
}

function Lines({ lines, className }: { lines: Array<{ kind: string; text: string }>; className: string }) {
  const shown = lines.slice(0, MAX_LINES)
  return (
    <pre className={className}>
      {shown.map((l, i) => (
        <div key={i} className={`${className}-${l.kind}`}>
          {l.text || ' '}
        </div>
      ))}
      {lines.length > MAX_LINES ? (
        <div className="mb-more">… {lines.length - MAX_LINES} more lines (Raw shows all)</div>
      ) : null}
    </pre>
  )
}

function Structured({ body }: { body: ProtocolBody }) {
  switch (body.type) {
    case 'permission_request': {
      const view = readableInput({ tool: body.toolName, input: body.input })
      return (
        <div className="mb-structured" data-testid="mb-permission">
          <Field label="tool">
            <code className="mb-tool">{body.toolName}</code>
          </Field>
          {body.description ? <Field label="why">{body.description}</Field> : null}
          {view.kind === 'command' ? (
            <Field label="command">
              <code>$ {view.command}</code>
            </Field>
          ) : view.kind === 'diff' ? (
            <>
              {view.path ? (
                <Field label="path">
                  <code className="mb-path">{view.path}</code>
                </Field>
              ) : null}
              <Lines lines={view.lines} className="mb-diff" />
            </>
          ) : view.kind === 'path' ? (
            <Field label={view.label}>
              <code className="mb-path">{view.value}</code> {view.extra}
            </Field>
          ) : view.kind === 'plan' ? (
            <Lines lines={view.lines} className="mb-plan" />
          ) : (
            <InputFields input={body.input} />
          )}
        </div>
      )
    }
    case 'permission_response':
      return (
        <div className="mb-structured">
          <Field label="decision">
            <span className={`mb-verdict mb-verdict-${body.decision === 'allow' ? 'yes' : 'no'}`}>
              {body.decision === 'allow' ? 'Allowed' : 'Denied'}
            </span>
          </Field>
          {body.reason ? <Field label="reason">{body.reason}</Field> : null}
          <Field label="request">
            <code>{body.requestId}</code>
          </Field>
        </div>
      )
    case 'sandbox_permission_request':
      return (
        <div className="mb-structured">
          <Field label="network">
            <code>{body.hostPattern.host}</code>
          </Field>
        </div>
      )
    case 'sandbox_permission_response':
      return (
        <div className="mb-structured">
          <Field label="network">
            <code>{body.host}</code>
          </Field>
          <Field label="decision">
            <span className={`mb-verdict mb-verdict-${body.allow ? 'yes' : 'no'}`}>
              {body.allow ? 'Allowed' : 'Refused'}
            </span>
          </Field>
          {body.reason ? <Field label="reason">{body.reason}</Field> : null}
        </div>
      )
    case 'plan_approval_request':
      return (
        <div className="mb-structured">
          {body.planFilePath ? (
            <Field label="file">
              <code className="mb-path">{body.planFilePath}</code>
            </Field>
          ) : null}
          <Lines lines={planLines(body.plan)} className="mb-plan" />
        </div>
      )
    case 'plan_approval_response':
      return (
        <div className="mb-structured">
          <Field label="verdict">
            <span className={`mb-verdict mb-verdict-${body.approve ? 'yes' : 'no'}`}>
              {body.approve ? 'Approved' : 'Rejected'}
            </span>
            {body.approve && body.permissionMode ? <> — continues in {body.permissionMode} mode</> : null}
          </Field>
          {body.feedback ? <Field label="feedback">{body.feedback}</Field> : null}
        </div>
      )
    case 'idle_notification':
      return (
        <div className="mb-structured">
          <Field label="reason">{idleReason(body.idleReason)}</Field>
          {body.summary ? <Field label="summary">{body.summary}</Field> : null}
          {body.completedTaskId ? <Field label="completed">task #{body.completedTaskId}</Field> : null}
        </div>
      )
    case 'shutdown_request':
      return (
        <div className="mb-structured">
          <Field label="reason">{body.reason ?? 'none given'}</Field>
        </div>
      )
    case 'shutdown_approved':
      return (
        <div className="mb-structured">
          <Field label="verdict">
            <span className="mb-verdict mb-verdict-yes">Approved</span> — {body.from ?? 'the teammate'} is leaving
          </Field>
        </div>
      )
    case 'shutdown_rejected':
      return (
        <div className="mb-structured">
          <Field label="verdict">
            <span className="mb-verdict mb-verdict-no">Rejected</span> — keeps working
          </Field>
          <Field label="reason">{body.reason}</Field>
        </div>
      )
    case 'task_assignment':
      return (
        <div className="mb-structured">
          <Field label="task">
            <strong>
              #{body.taskId} {body.subject}
            </strong>
          </Field>
          {body.description ? <Field label="details">{body.description}</Field> : null}
          <Field label="by">{body.assignedBy}</Field>
        </div>
      )
    case 'mode_set_request':
      return (
        <div className="mb-structured">
          <Field label="mode">
            <code>{body.mode}</code>
          </Field>
        </div>
      )
  }
}

function idleReason(reason: string | undefined): string {
  if (reason === 'interrupted') return 'Interrupted'
  if (reason === 'failed') return 'Failed'
  return 'Available (turn done)'
}

/** A tool input with no dedicated view: one field per key, strings as they are, the rest compact. */
function InputFields({ input }: { input: Record<string, unknown> }) {
  return (
    <>
      {Object.entries(input).map(([k, v]) => (
        <Field key={k} label={k}>
          <code>{typeof v === 'string' ? v : JSON.stringify(v)}</code>
        </Field>
      ))}
    </>
  )
}
