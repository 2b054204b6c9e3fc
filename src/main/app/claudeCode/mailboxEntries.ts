import {
  MailboxKindSchema,
  type ClaudeTeamMessage,
  type ClaudeTeams,
  type MailboxEntry,
  type MailboxKind
} from '../../../shared/ipc'

// Claude Code's recorded inbox messages as mailbox inspector entries (docs/claude-code-teams.md#in-the-workspace),
// beside Swarmdesk's own (mailboxEntry.ts).

/** The inspector's kind of a recorded message: its protocol `type` when the inspector knows it, else `other_protocol`. */
function kindOf(kind: string): MailboxKind {
  const parsed = MailboxKindSchema.safeParse(kind)
  return parsed.success ? parsed.data : 'other_protocol'
}

/** A sortable id from a timestamp, as Swarmdesk's message ids start (`{13-digit epoch ms}-`); 0 for a time that does not parse. */
function timeId(timestamp: string, key: string): string {
  const ms = Date.parse(timestamp)
  return `${String(Number.isFinite(ms) && ms >= 0 ? ms : 0).padStart(13, '0')}-cc-${key}`
}

/**
 * One recorded message of Claude Code team `team` as the inspector's entry: marked `claude-code`
 * with its team, keyed `claude-code:{team}/{to}/{key}`, read once Claude Code marked it read or
 * removed it on delivery, its revision the recorder's (which grows with every change).
 */
export function claudeMailboxEntry(team: string, m: ClaudeTeamMessage): MailboxEntry {
  return {
    key: `claude-code:${team}/${m.to}/${m.key}`,
    id: timeId(m.timestamp, m.key),
    source: 'claude-code',
    team,
    from: m.from,
    to: m.to,
    timestamp: m.timestamp,
    ...(m.color !== undefined ? { color: m.color } : {}),
    kind: kindOf(m.kind),
    summary: m.summary,
    read: m.read || m.delivered,
    ...(m.delivered ? { delivered: true } : {}),
    text: m.text,
    ...(m.invalid !== undefined ? { invalid: m.invalid } : {}),
    rev: m.rev
  }
}

/** Every message of every Claude Code team seen, live or ended, as inspector entries. */
export function claudeMailboxEntries(teams: ClaudeTeams): MailboxEntry[] {
  return teams.teams.flatMap((t) => t.messages.map((m) => claudeMailboxEntry(t.name, m)))
}
