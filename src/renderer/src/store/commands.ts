import type { WorkspaceApi, PendingPermission } from '../../../shared/ipc'
import type { PermissionMode } from '../../../shared/permissions'
import type { AgentRequestKind } from './panesSlice'
import { actions } from './store'

/** The person's answer to a permission request, as the card's buttons produce it. */
export type PermissionAnswer =
  { kind: 'allow-once' } | { kind: 'always-allow'; rule: string } | { kind: 'deny'; reason: string }

let api: WorkspaceApi | undefined

/** Sets the API the commands use (wiring.ts does this once the client exists). */
export function setCommandApi(next: WorkspaceApi | undefined): void {
  api = next
}

function need(): WorkspaceApi {
  if (!api) throw new Error('Not connected to a workspace')
  return api
}

/**
 * The connected API, for a feature's own command module (features/dashboard/commands.ts) so its
 * requests go through the same client as these.
 * @throws Error "Not connected to a workspace" before wiring.ts set one.
 */
export function connectedApi(): WorkspaceApi {
  return need()
}

function report(err: unknown): void {
  actions.setError(err instanceof Error ? `${err.name}: ${err.message}` : String(err))
}

/**
 * A request made from an agent's pane. Its error goes to that pane's header, not the status bar:
 * it is about that agent, and "already runs in the background" is an expected answer.
 */
async function agentRequest(agentId: string, kind: AgentRequestKind): Promise<boolean> {
  actions.setAgentRequest(agentId, { pending: kind })
  try {
    await need().request(
      kind === 'stop' ? 'agent.stop' : kind === 'interrupt' ? 'agent.interrupt' : 'agent.background',
      { agentId }
    )
    actions.setAgentRequest(agentId, {})
    return true
  } catch (err) {
    actions.setAgentRequest(agentId, { error: err instanceof Error ? err.message : String(err) })
    return false
  }
}

/** The first rule "Always allow" would add for a request, if the engine suggested one. */
export function alwaysAllowRule(p: PendingPermission): string | undefined {
  return p.suggestions[0]
}

/**
 * What the person can ask of the runtime. Each command calls one request channel, records an error
 * for the status bar instead of throwing, and resolves to whether it succeeded.
 */
export const commands = {
  /** Sends a prompt to the leader. */
  async prompt(text: string): Promise<boolean> {
    actions.setPromptInFlight(true)
    try {
      await need().request('leader.prompt', { text })
      actions.setError(undefined)
      return true
    } catch (err) {
      report(err)
      return false
    } finally {
      actions.setPromptInFlight(false)
    }
  },

  /** Stops the leader's current turn. */
  async stop(): Promise<boolean> {
    try {
      await need().request('leader.stop', {})
      return true
    } catch (err) {
      report(err)
      return false
    }
  },

  /** Answers a permission request; `false` when it failed or someone answered first. */
  async respond(requestId: string, answer: PermissionAnswer): Promise<boolean> {
    actions.setResponding(requestId, true)
    try {
      const payload =
        answer.kind === 'allow-once'
          ? { requestId, decision: 'allow' as const }
          : answer.kind === 'always-allow'
            ? { requestId, decision: 'allow' as const, alwaysAllowRule: answer.rule }
            : {
                requestId,
                decision: 'deny' as const,
                ...(answer.reason.trim() ? { reason: answer.reason.trim() } : {})
              }
      const res = await need().request('permission.respond', payload)
      if (answer.kind === 'deny') actions.cancelDeny()
      return res.ok
    } catch (err) {
      report(err)
      return false
    } finally {
      actions.setResponding(requestId, false)
    }
  },

  /** Stops a running subagent and everything it owns (docs/agents.md#stopping-an-agent); a refusal is shown on its pane. */
  stopAgent(agentId: string): Promise<boolean> {
    return agentRequest(agentId, 'stop')
  },

  /**
   * Interrupts an agent's current turn (Esc or Ctrl+C in its pane, as in Claude Code): it stops
   * what it does, says so, and takes the next message. A refusal is shown on its pane.
   */
  interruptAgent(agentId: string): Promise<boolean> {
    return agentRequest(agentId, 'interrupt')
  },

  /** Moves a running sync subagent to the background (docs/agents.md#auto-background); "already in the background" is shown on its pane. */
  backgroundAgent(agentId: string): Promise<boolean> {
    return agentRequest(agentId, 'background')
  },

  /** Changes the permission mode. */
  /**
   * Switches fork and coordinator mode before the first prompt (docs/agents.md#coordinator-mode); main refuses it later,
   * and its answer is what the store keeps. False (and the error shown) when refused.
   */
  async setOrchestration(fork: boolean, coordinator: boolean): Promise<boolean> {
    try {
      actions.setOrchestration(await need().request('workspace.setOrchestration', { fork, coordinator }))
      return true
    } catch (err) {
      report(err)
      return false
    }
  },

  async setMode(mode: Exclude<PermissionMode, 'bubble'>): Promise<boolean> {
    try {
      await need().request('workspace.setMode', { mode })
      actions.setMode(mode)
      return true
    } catch (err) {
      report(err)
      return false
    }
  }
}
