export { IDENTITY_HEADERS, identityHeaders, type AgentIdentity } from '../../../shared/identityHeaders'

/** An identity header whose value is not percent-encoded UTF-8: the client that sent it is at fault. */
export class IdentityHeaderError extends Error {
  override readonly name = 'IdentityHeaderError'
  constructor(
    readonly header: string,
    readonly value: string
  ) {
    super(
      `${header} must be percent-encoded UTF-8 (encodeURIComponent of the value); got '${value.slice(0, 200)}', which does not decode.`
    )
  }
}

/**
 * Decodes one value written by {@link identityHeaders}. A value with no `%` escape decodes to
 * itself, so a hand-written ASCII header (`team-lead`, `/work/demo`) still works.
 * @throws IdentityHeaderError when the value holds a malformed escape or bytes that are not UTF-8.
 */
export function decodeIdentityHeader(header: string, value: string): string {
  try {
    return decodeURIComponent(value)
  } catch {
    throw new IdentityHeaderError(header, value)
  }
}
