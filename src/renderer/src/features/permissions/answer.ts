import type { PendingPermission } from '../../../../shared/ipc'
import { SANDBOX_NETWORK_TOOL } from '../../../../shared/permissions'
import { alwaysAllowRule, commands, connectedApi } from '../../store/commands'
import { actions } from '../../store/store'
import type { CardPlacement } from '../../store/permissionsSlice'
import { isPlanApproval } from './readableInput'
import type { AnswerAction } from './shortcuts'

/**
 * Carries out a card's button or shortcut: allow once and always allow answer at once; deny opens
 * the reason field on the card at `origin` (the answer goes with {@link confirmDeny}). A plan
 * approval is approved (allow once) or rejected with feedback (deny), never always allowed: each
 * plan needs its own verdict (docs/teams.md#plan-approval). Always allow where no rule can be suggested leaves a
 * notice on the card saying so ({@link noRuleNotice}) instead of doing nothing.
 */
export function runAction(p: PendingPermission, action: AnswerAction, origin: CardPlacement): void {
  switch (action) {
    case 'allow-once':
      void commands.respond(p.requestId, { kind: 'allow-once' })
      return
    case 'always-allow': {
      const rule = isPlanApproval(p) ? undefined : alwaysAllowRule(p)
      if (rule) void commands.respond(p.requestId, { kind: 'always-allow', rule })
      else actions.setPermissionNotice(p.requestId, noRuleNotice(p))
      return
    }
    case 'deny':
      actions.beginDeny(p.requestId, origin)
      return
  }
}

/**
 * What Shift+A says on a card that offers no "Always allow": a plan needs its own verdict each
 * time (docs/teams.md#plan-approval); a request without a suggested rule (a process teammate's, whose own gate keeps
 * its rules) can only be answered once.
 */
export function noRuleNotice(p: PendingPermission): string {
  return isPlanApproval(p)
    ? 'A plan cannot be always allowed: approve it (A) or reject it (D).'
    : `No rule can be suggested for this request, so it cannot be always allowed: allow it once (A) or deny it (D).`
}

/** Sends the denial with the reason written so far. */
export function confirmDeny(requestId: string, reason: string): void {
  void commands.respond(requestId, { kind: 'deny', reason })
}

/**
 * Where an "Always allow" rule is kept, in the words the card shows: the session's memory, for
 * the asking agent only (docs/permissions.md#permissions session approvals are not inherited by its children, and main
 * writes no settings file for them — `permission.respond` hands the rule to the agent's gate). A
 * sandbox network question's (tool `SandboxNetwork`, docs/sandbox.md#network) is the exception:
 * its host is written into the workspace's local settings, for every agent and later sessions.
 */
export function alwaysAllowScope(agentName: string, tool?: string): string {
  return tool === SANDBOX_NETWORK_TOOL
    ? 'saved in .swarmdesk/settings.local.json: no session asks again'
    : `for this session, ${agentName} only`
}

/** What the "Always allow" button's title says it does, by the same rule as {@link alwaysAllowScope}. */
export function alwaysAllowTitle(rule: string, agentName: string, tool: string): string {
  return tool === SANDBOX_NETWORK_TOOL
    ? `Adds ${rule} to sandbox.network.allowedDomains in this workspace's .swarmdesk/settings.local.json; the sandbox then lets every agent reach it, in this session and the next`
    : `Adds the allow rule ${rule} to ${agentName}'s rules until the workspace closes; no settings file is changed`
}

/**
 * "Allow for the team in <dir>" (docs/teams.md#allowed-paths): main adds the folder of the file
 * the teammate asks for to the team's allowed paths and allows the request once
 * (`permission.allowForTeam`). A refusal shows in full on the card; the request then still waits.
 */
export async function allowForTeam(requestId: string): Promise<void> {
  actions.setResponding(requestId, true)
  try {
    const { allowedPaths } = await connectedApi().request('permission.allowForTeam', { requestId })
    actions.setAllowedPaths(allowedPaths)
  } catch (err) {
    actions.setPermissionNotice(requestId, err instanceof Error ? err.message : String(err))
  } finally {
    actions.setResponding(requestId, false)
  }
}
