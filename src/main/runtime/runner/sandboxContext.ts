import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { effectiveSandbox, type LoadedSettings } from '../permissions'
import { agentProxySocket, type NetworkAsker } from '../sandbox'
import type { ToolContext } from '../tools'

/**
 * The per-session temp folder of the Bash sandbox (docs/permissions.md#the-bash-sandbox): every
 * agent of one session — the leader, its subagents and forks, and its teammates of both backends,
 * which learn the session id from `SWARMDESK_SESSION_ID` — shares it, and `TMPDIR` points there.
 */
export function sandboxTempDir(sessionId: string): string {
  return join(tmpdir(), `swarmdesk-sandbox-${sessionId}`)
}

/**
 * The `sandbox` part of one agent's tool context (docs/permissions.md#the-bash-sandbox), from the
 * settings its permission engine holds now: nothing when the sandbox is off (or the engine has no
 * settings), otherwise the settings as they apply in `cwd` (`Edit(...)` and `Read(...)` rules
 * merged in) and the session's temp folder. Every host builds its tool context with this, so no
 * agent's Bash runs unconfined while `sandbox.enabled` is on. With `network` (the agent, and who
 * answers its network questions) the agent gets its network proxy (docs/sandbox.md#network);
 * without it, its sandboxed commands have no network.
 */
export function toolSandbox(
  settings: LoadedSettings | undefined,
  sessionId: string,
  cwd: string,
  network?: { agentId: string; agentName: string; ask: NetworkAsker | undefined }
): Pick<ToolContext, 'sandbox'> {
  if (!settings?.sandbox?.enabled) return {}
  const sandbox = effectiveSandbox(settings, cwd)
  const proxySocket = network
    ? agentProxySocket(
        { sessionId, agentId: network.agentId, agentName: network.agentName },
        sandbox.network,
        network.ask
      )
    : undefined
  return { sandbox: { settings: sandbox, tmpDir: sandboxTempDir(sessionId), ...(proxySocket ? { proxySocket } : {}) } }
}
