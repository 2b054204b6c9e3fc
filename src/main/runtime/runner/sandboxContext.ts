import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { EventBus } from '../events'
import { effectiveSandbox, type LoadedSettings, type PermissionPrompter } from '../permissions'
import { agentProxySocket, networkPromptRequest, verdictOf, type NetworkAsker } from '../sandbox'
import type { PermissionRecord } from './permissionGate'
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

/**
 * A network asker that puts each question to `prompter` as {@link promptNetworkAsker} does and
 * shows and records it like any permission request (docs/sandbox.md#network): a
 * `permission_request` event (tool `SandboxNetwork`, input `{host}`) and its `permission_decided`
 * on `bus` as the asking agent's, and the decision in the session's permission log (`record`). A
 * headless `run` thus shows the question and who answered it (`--approve`) in its event stream.
 */
export function recordedNetworkAsker(
  prompter: PermissionPrompter,
  bus: Pick<EventBus, 'emit'>,
  record: (entry: PermissionRecord) => void
): NetworkAsker {
  return async (question, signal) => {
    const request = networkPromptRequest(question)
    const who = { agentId: question.agentId, agentName: question.agentName }
    const { requestId, tool, input, reason } = request
    bus.emit({ type: 'permission_request', requestId, tool, input, reason, ...who })
    const answer = await prompter.prompt(request, signal)
    const refusal = answer.decision === 'deny' ? answer.reason : undefined
    // "always allow": the host, kept in the local settings (keepAlwaysAllowedDomains)
    const rule = answer.decision === 'allow' ? answer.alwaysAllowRule : undefined
    bus.emit({
      type: 'permission_decided',
      requestId,
      decision: answer.decision,
      by: answer.by,
      ...(refusal ? { reason: refusal } : {}),
      ...(rule ? { rule } : {}),
      ...who
    })
    record({
      time: new Date().toISOString(),
      ...who,
      tool,
      input,
      decision: answer.decision,
      by: answer.by,
      reason: refusal ?? reason,
      ...(rule ? { rule } : {})
    })
    return verdictOf(answer)
  }
}
