import { PROTOCOL_SCHEMAS, isProtocolType, type ProtocolBody } from './mailbox'

/**
 * Claude Code's team protocol documents (JSON inside a message's `text`, as 2.1.197 writes them;
 * docs/claude-code-teams.md#its-protocol) read as Swarmdesk's own protocol bodies, so the mailbox
 * inspector shows both teams' messages with the same cards. No Node imports: the renderer uses it.
 *
 * Claude Code names some fields differently from Swarmdesk's mailbox (docs/teams.md#mailbox):
 * `planContent` (Swarmdesk `plan`), `approved` (`approve`), and in its permission messages
 * `request_id`, `agent_id`, `tool_name`, `tool_use_id`, with the answer as `subtype: success|error`
 * (or `allowed`) rather than `decision`.
 */
export type ClaudeCodeBody =
  | { kind: 'plain'; text: string }
  /** A type Swarmdesk's protocol has, its fields under Swarmdesk's names. */
  | { kind: 'structured'; body: ProtocolBody }
  /** A protocol document Swarmdesk has no card for (`task_completed`, `teammate_terminated`, a new type), or one whose fields do not fit that card: shown field by field. */
  | { kind: 'other'; type: string; fields: Record<string, unknown> }

/** Renames `from` to `to` when present. */
function rename(doc: Record<string, unknown>, pairs: Array<[string, string]>): Record<string, unknown> {
  const out = { ...doc }
  for (const [from, to] of pairs) {
    if (out[from] === undefined) continue
    out[to] ??= out[from]
    delete out[from]
  }
  return out
}

/** A Claude Code document under Swarmdesk's field names (types it does not rename pass as they are). */
function swarmdeskFields(type: string, doc: Record<string, unknown>): Record<string, unknown> {
  switch (type) {
    case 'plan_approval_request':
      return rename(doc, [['planContent', 'plan']])
    case 'plan_approval_response':
      return rename(doc, [['approved', 'approve']])
    case 'permission_request':
      return rename(doc, [
        ['request_id', 'requestId'],
        ['agent_id', 'agentId'],
        ['tool_name', 'toolName'],
        ['tool_use_id', 'toolUseId']
      ])
    case 'permission_response': {
      const out = rename(doc, [['request_id', 'requestId']])
      const response = out.response as { updated_input?: unknown } | undefined
      if (out.decision === undefined) {
        if (out.subtype === 'success' || out.allowed === true) out.decision = 'allow'
        else if (out.subtype === 'error' || out.allowed === false) out.decision = 'deny'
      }
      if (out.reason === undefined && typeof out.error === 'string') out.reason = out.error
      if (out.updatedInput === undefined && typeof response?.updated_input === 'object' && response.updated_input)
        out.updatedInput = response.updated_input
      return out
    }
    default:
      return doc
  }
}

/**
 * Reads a Claude Code message's `text`: plain text; a protocol document of a type Swarmdesk's
 * protocol also has, under Swarmdesk's field names and checked by its schema; else (another type,
 * or fields that do not fit) the document's fields as they are. Never throws.
 */
export function readClaudeCodeBody(text: string): ClaudeCodeBody {
  if (!text.trimStart().startsWith('{')) return { kind: 'plain', text }
  let doc: unknown
  try {
    doc = JSON.parse(text)
  } catch {
    return { kind: 'plain', text }
  }
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) return { kind: 'plain', text }
  const { type, ...fields } = doc as Record<string, unknown>
  if (typeof type !== 'string') return { kind: 'plain', text }
  if (isProtocolType(type)) {
    const parsed = PROTOCOL_SCHEMAS[type].safeParse({ ...swarmdeskFields(type, fields), type })
    if (parsed.success) return { kind: 'structured', body: parsed.data as ProtocolBody }
  }
  return { kind: 'other', type, fields }
}
