import type { PendingPermission } from '../../../../shared/ipc'
import { alwaysAllowRule, commands } from '../../store/commands'
import { actions } from '../../store/store'
import type { CardPlacement } from '../../store/permissionsSlice'
import { isPlanApproval } from './readableInput'
import type { ShortcutAction } from './shortcuts'

/**
 * Carries out a card's button or shortcut: allow once and always allow answer at once; deny opens
 * the reason field on the card at `origin` (the answer goes with {@link confirmDeny}). A plan
 * approval is approved (allow once) or rejected with feedback (deny), never always allowed: each
 * plan needs its own verdict (SPEC §9.8).
 */
export function runAction(p: PendingPermission, action: Exclude<ShortcutAction, 'dismiss'>, origin: CardPlacement): void {
  switch (action) {
    case 'allow-once':
      void commands.respond(p.requestId, { kind: 'allow-once' })
      return
    case 'always-allow': {
      if (isPlanApproval(p)) return
      const rule = alwaysAllowRule(p)
      if (rule) void commands.respond(p.requestId, { kind: 'always-allow', rule })
      return
    }
    case 'deny':
      actions.beginDeny(p.requestId, origin)
      return
  }
}

/** Sends the denial with the reason written so far. */
export function confirmDeny(requestId: string, reason: string): void {
  void commands.respond(requestId, { kind: 'deny', reason })
}

/**
 * Where an "Always allow" rule is kept, in the words the card shows: the session's memory, for
 * the asking agent only (SPEC §4 session approvals are not inherited by its children, and main
 * writes no settings file for them — `permission.respond` hands the rule to the agent's gate).
 */
export function alwaysAllowScope(agentName: string): string {
  return `for this session, ${agentName} only`
}
