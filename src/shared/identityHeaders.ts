/**
 * The identity headers of a request to the scripted model (docs/scenarios.md#scripted-model-scenarios):
 * written by the model client, read by the scripted server. Here, below both, so a client loads
 * them without the server (a worker teammate holds every module it loads for its whole life).
 */
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
