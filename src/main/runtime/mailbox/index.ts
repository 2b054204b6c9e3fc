/**
 * Agent mailboxes (docs/teams.md#mailbox): maildir-style inboxes, lock-free and crash-safe, delivered by
 * directory watching. See README "Mailbox" for the on-disk layout and its guarantees.
 */
export { composeMessage, createMailbox, Mailbox, STALE_TMP_MS } from './mailbox'
export type { MailboxOptions, OutgoingMessage, ReadResult, SendResult, SentEvent } from './mailbox'
export {
  InboxNotAFolderError,
  InvalidMessageError,
  InvalidNameError,
  MailboxAbortError,
  MailboxError,
  TeamGoneError
} from './errors'
export { assertName, inboxPaths, newMessageId, newRequestId, sanitizeName } from './names'
export type { InboxPaths, RequestIdKind } from './names'
export type { InboxEntry, InboxProblem } from './store'
export { MODEL_VISIBILITY, escapeAttribute, renderForModel } from './render'
export { activeInboxWatchers, DEFAULT_POLL_MS } from './watch'
export { sendAndAwaitReply, type ReplyInbox } from './inboxReply'
export { isMessageFile } from './names'
