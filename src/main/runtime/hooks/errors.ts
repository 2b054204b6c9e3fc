/**
 * Errors of the hooks subsystem. One base; `name` survives IPC. A hook command that fails at run
 * time is not an error here: it is a warning or a block in the outcome (docs/hooks.md#hooks, Claude Code's
 * exit-code contract). Only a configuration that cannot be trusted to mean what it says throws.
 */
export class HooksError extends Error {
  override name = 'HooksError'
}

/**
 * A `hooks` block of a settings file that cannot be used: wrong shape, a command that is not a
 * string, a non-positive timeout, a matcher that is not a valid regular expression. Loading fails
 * closed, like settings (docs/permissions.md#permissions): the session does not start with some hooks silently dropped.
 * The message names the file and the field path (`hooks.SubagentStop[0].hooks[1].timeout`).
 */
export class HookConfigError extends HooksError {
  override name = 'HookConfigError'
  constructor(
    /** The settings file the block came from. */
    readonly file: string,
    /** Field path inside the file, starting at `hooks`. */
    readonly field: string,
    problem: string
  ) {
    super(`${file} (${field}): ${problem}`)
  }
}
