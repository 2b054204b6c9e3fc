/**
 * Errors of the mailbox subsystem: one base, subclassed by blame; `name` survives IPC. Every
 * message says what to fix.
 */
export class MailboxError extends Error {
  override name = 'MailboxError'
}

/**
 * A team or agent name that cannot name a folder under `<home>/teams/` (docs/teams.md#spawning-a-teammate: `[a-z0-9-]`).
 * The caller's fault; `field` is `team`, `agent` or `to`, `value` what was given.
 */
export class InvalidNameError extends MailboxError {
  override name = 'InvalidNameError'
  constructor(
    readonly field: string,
    readonly value: string,
    problem: string
  ) {
    super(`${field} '${value}' ${problem}`)
  }
}

/** A message that does not match the message schema (docs/teams.md#mailbox); `issues` name the fields. */
export class InvalidMessageError extends MailboxError {
  override name = 'InvalidMessageError'
  constructor(readonly issues: string) {
    super(`invalid message: ${issues}`)
  }
}

/** `waitForMessage` was aborted through its signal; `cause` is the signal's reason. */
export class MailboxAbortError extends MailboxError {
  override name = 'AbortError'
  constructor(cause?: unknown) {
    super('waiting for a message was aborted', { cause })
  }
}

/** A send asked to go only to a team that still exists found the team's folder gone (deleted). Nothing was written. */
export class TeamGoneError extends MailboxError {
  override name = 'TeamGoneError'
  constructor(team: string) {
    super(`team '${team}' no longer exists (it was deleted): the message was not delivered`)
  }
}

/**
 * An inbox that cannot be used because a file stands where one of its folders must be (say
 * `teams/{team}/inboxes/{agent}` is a file, put there by hand or by another tool). `path` is the
 * file in the way. The person's to fix; nothing was written or read.
 */
export class InboxNotAFolderError extends MailboxError {
  override name = 'InboxNotAFolderError'
  constructor(
    readonly agent: string,
    readonly path: string
  ) {
    super(
      `the inbox of '${agent}' cannot be used: ${path} is a file, where a folder must be. Move it away or delete it, then try again`
    )
  }
}
