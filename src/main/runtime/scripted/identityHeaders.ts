/** Who is asking: sent to the scripted model as the `x-swarmdesk-*` headers of every request (docs/scenarios.md#scripted-model-scenarios, identityHeaders.ts). */
export interface AgentIdentity {
  /** `a` + 16 hex digits for subagents and forks, `name@team` for teammates, the session id for the main agent. */
  id: string
  /** `team-lead` for the session's main agent (docs/scenarios.md#scripted-model-scenarios). */
  name: string
  /** `main`, or the agent definition's name. */
  type: string
  /** The agent's root directory, absolute. */
  cwd: string
}

/**
 * The headers that tell the scripted model server who is asking (docs/scenarios.md#scripted-model-scenarios), one per field of
 * {@link AgentIdentity}. Only the scripted model receives them: they carry the workspace path and
 * agent names, which no other endpoint needs to see.
 */
export const IDENTITY_HEADERS = {
  name: 'x-swarmdesk-agent-name',
  type: 'x-swarmdesk-agent-type',
  id: 'x-swarmdesk-agent-id',
  cwd: 'x-swarmdesk-cwd'
} as const satisfies Record<keyof AgentIdentity, string>

/**
 * The identity headers of one request. Each value is its string's UTF-8 bytes percent-encoded
 * (`encodeURIComponent`): an HTTP header carries only visible ASCII (RFC 9110 §5.5; undici refuses
 * anything past Latin-1), while folder and agent names may hold any character — CJK, Cyrillic,
 * emoji, spaces.
 */
export function identityHeaders(agent: AgentIdentity): Record<string, string> {
  const out: Record<string, string> = {}
  for (const field of Object.keys(IDENTITY_HEADERS) as Array<keyof AgentIdentity>)
    out[IDENTITY_HEADERS[field]] = encodeURIComponent(agent[field])
  return out
}

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
