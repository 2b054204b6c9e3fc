/**
 * Errors of the permissions subsystem. One base, subclassed by blame; `name` survives IPC.
 * Every message names the file (and field) and says how to fix it.
 */
export class PermissionsError extends Error {
  override name = 'PermissionsError'
}

/**
 * A settings file that cannot be used (bad JSON, wrong type, a rule that does not parse, an
 * unknown mode). Loading fails closed: the whole load throws rather than run with a weaker policy.
 */
export class SettingsError extends PermissionsError {
  override name = 'SettingsError'
  constructor(
    readonly file: string,
    readonly field: string | undefined,
    problem: string
  ) {
    super(`${file}${field ? ` (${field})` : ''}: ${problem}`)
  }
}

/** `<home>/trusted.json` exists but is not a trust file; it is not overwritten. */
export class TrustFileError extends PermissionsError {
  override name = 'TrustFileError'
}
