import { z } from 'zod'
import { PROTOCOL_TYPES, type ProtocolType } from '../mailbox'

/** Most messages of one team the mailbox inspector's feed keeps in main; older ones are dropped and counted. */
export const MAILBOX_FEED_MAX = 20_000
/** Most messages one `mailbox.list` page returns. */
export const MAILBOX_PAGE_MAX = 5_000

/**
 * Protocol types only Claude Code's teams send (docs/claude-code-teams.md#its-protocol), and
 * `other_protocol`: a JSON document with any other `type` in a Claude Code message.
 */
export const CLAUDE_CODE_ONLY_KINDS = ['task_completed', 'teammate_terminated', 'other_protocol'] as const

/**
 * What a message is: `plain` text, or the `type` of its structured body (docs/teams.md#mailbox),
 * or one of {@link CLAUDE_CODE_ONLY_KINDS} for a Claude Code team's message.
 */
export const MailboxKindSchema = z.enum(['plain', ...PROTOCOL_TYPES, ...CLAUDE_CODE_ONLY_KINDS] as [
  'plain',
  ...Array<ProtocolType | (typeof CLAUDE_CODE_ONLY_KINDS)[number]>
])
export type MailboxKind = z.infer<typeof MailboxKindSchema>

/**
 * Whose team a message belongs to: Swarmdesk's own (the followed team's maildir inboxes) or one of
 * Claude Code's agent teams (its inbox arrays under its config folder, docs/claude-code-teams.md).
 */
export const MailboxSourceSchema = z.enum(['swarmdesk', 'claude-code'])
export type MailboxSource = z.infer<typeof MailboxSourceSchema>

/**
 * One message of the team's mailboxes as the inspector shows it (docs/teams.md#mailbox, docs/ui.md#the-workspace-ui). A broadcast
 * (`to: "*"`, docs/teams.md#sendmessage-between-teammates) is delivered as one message per recipient inbox, each with its own id and
 * read state; the inspector shows each copy as its own row and marks it with `broadcast` (every
 * recipient of that broadcast), so filtering by recipient and per-recipient read state stay exact.
 */
export const MailboxEntrySchema = z.object({
  /**
   * Unique in the inspector: `{to}/{id}` for Swarmdesk's, `claude-code:{team}/{to}/{msg_id or content hash}`
   * for a Claude Code team's (never the same: agent names and ids hold no `/`).
   */
  key: z.string(),
  /**
   * Sorts as send time: Swarmdesk's message id (`{13-digit ms}-…`); for a Claude Code message, made
   * the same way from its timestamp (`{13-digit ms}-cc-{key}`), so both teams interleave in time.
   */
  id: z.string(),
  source: MailboxSourceSchema,
  /** The team whose inbox holds it. */
  team: z.string(),
  from: z.string(),
  /** The inbox the message lies in. */
  to: z.string(),
  /** ISO 8601 (UTC), as the sender stamped it. */
  timestamp: z.string(),
  /** The sender's team colour (palette name or CSS colour), when it gave one. */
  color: z.string().optional(),
  kind: MailboxKindSchema,
  /** The sender's summary, else a one-line description of the body made in main; never JSON. */
  summary: z.string(),
  /** Read by its recipient (the maildir `cur/` folder; Claude Code's `read`, or removed on delivery). */
  read: z.boolean(),
  /** Claude Code's only: delivered, so Claude Code removed it from the inbox; the card stays. */
  delivered: z.boolean().optional(),
  /** The message's raw `text`: plain text or the structured body's JSON (shown only on request). */
  text: z.string(),
  /** Set when the body claims a protocol type but does not match its schema: why. */
  invalid: z.string().optional(),
  /** For a copy of a broadcast: every recipient of that broadcast, sorted. */
  broadcast: z.array(z.string()).optional(),
  /** Revision: grows with every change of this entry, so an older copy never overwrites a newer one. */
  rev: z.number().int().positive()
})
export type MailboxEntry = z.infer<typeof MailboxEntrySchema>

/** The team whose mailboxes the inspector follows; `deleted` once TeamDelete removed it (what was seen stays). */
export const MailboxTeamSchema = z.object({ team: z.string().nullable(), deleted: z.boolean() })
export type MailboxTeam = z.infer<typeof MailboxTeamSchema>

/** A page of `mailbox.list`. */
export const MailboxPageSchema = MailboxTeamSchema.extend({
  /** Messages `[offset, offset + entries.length)` of the feed, oldest first. */
  entries: z.array(MailboxEntrySchema),
  offset: z.number().int().nonnegative(),
  /** Messages the feed holds now. */
  total: z.number().int().nonnegative(),
  /** Older messages dropped past {@link MAILBOX_FEED_MAX}. */
  dropped: z.number().int().nonnegative()
})
export type MailboxPage = z.infer<typeof MailboxPageSchema>

/**
 * A change of the mailbox feed: `messages` — new messages and changed ones (read state, broadcast
 * marks) of Swarmdesk's team, to upsert by `key` keeping the higher `rev`; `team` — the feed
 * follows another team (TeamCreate: start empty and list again, keeping Claude Code's messages)
 * or its team was deleted (keep what was shown, marked); `claudeCode` — new and changed messages
 * of Claude Code's teams (each entry names its team), upserted the same way whatever Swarmdesk's
 * team is.
 */
export const MailboxChangeSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('messages'), team: z.string(), entries: z.array(MailboxEntrySchema) }),
  MailboxTeamSchema.extend({ type: z.literal('team') }),
  z.object({ type: z.literal('claudeCode'), entries: z.array(MailboxEntrySchema) })
])
export type MailboxChange = z.infer<typeof MailboxChangeSchema>

/** The mailbox inspector's request (docs/ui.md#the-workspace-ui). */
export const mailboxChannels = {
  /**
   * The current team's messages across every inbox, and every message of Claude Code's teams seen
   * (docs/ui.md#the-workspace-ui mailbox inspector), oldest first, a
   * page at a time: `offset` (default 0) and `limit` (1–5,000, default 5,000). Live changes come as
   * `mailbox.changed` pushes; a page reflects every change pushed before it was answered.
   */
  'mailbox.list': {
    request: z
      .object({
        offset: z.number().int().nonnegative().optional(),
        limit: z.number().int().min(1).max(MAILBOX_PAGE_MAX).optional()
      })
      .strict(),
    response: MailboxPageSchema
  }
} as const
