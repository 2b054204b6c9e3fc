import type { PermissionPromptRequest } from '../../../shared/permissions'
import { isPlainHost, NETWORK_TOOL } from '../sandbox'

/**
 * A process teammate's subagent asks its network questions as a `permission_request` for
 * `SandboxNetwork` (docs/sandbox.md#network), which carries no suggestions: offer its host for
 * "always allow" as the leader's own network questions do.
 */
export function withNetworkSuggestion(request: PermissionPromptRequest): PermissionPromptRequest {
  if (request.tool !== NETWORK_TOOL) return request
  const host = (request.input as { host?: unknown } | null)?.host
  return typeof host === 'string' && isPlainHost(host) ? { ...request, suggestions: [host] } : request
}
