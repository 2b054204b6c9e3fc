import { z } from 'zod'
import { PermissionModeSchema, type PermissionMode } from '../../../../shared/permissions'
import { protocolBody } from '../../../../shared/mailbox'
import { newRequestId, sendAndAwaitReply } from '../../mailbox'
import type { MailboxPort } from '../../teamStore'
import { ToolError, type Tool } from '../types'

/** ExitPlanMode input (Claude Code's shape): the plan, in Markdown. */
export const ExitPlanModeInputSchema = z.object({
  plan: z
    .string()
    .min(1)
    .describe('The plan you want to carry out, in Markdown: steps, files to change, how you will check it')
})

/** What the plan-approval tool needs of its teammate. */
export interface PlanApprovalOptions {
  mailbox: MailboxPort
  team: string
  /** The teammate's name: its inbox receives the verdict. */
  name: string
  /** Who approves: the leader, whose inbox gets the request. */
  leader: string
  color?: string
  /** The teammate's current mode; the tool refuses outside `plan`. */
  mode: () => PermissionMode
  /** Sets the mode granted on approval. */
  setMode: (mode: PermissionMode) => void
  /** Told while the request waits (the `awaiting_plan_approval` liveness state, docs/teams.md#teammate-life-cycle). */
  onWaiting?: (waiting: boolean) => void
}

/** The mode a plan approval grants when the verdict names none (or one a teammate may not get). */
export const DEFAULT_APPROVED_MODE: PermissionMode = 'default'

/**
 * ExitPlanMode of a plan-required teammate (docs/teams.md#plan-approval): sends the plan as a
 * `plan_approval_request` to the leader and blocks until a `plan_approval_response` with its
 * request id arrives — never approved automatically. The first verdict wins (from the leader's
 * SendMessage or from a person in the UI, both written to this inbox). Approval switches to the
 * granted mode (`default` unless the verdict names another; `bubble` is never granted);
 * rejection keeps plan mode and returns the feedback; an interrupted wait is a rejection.
 */
export function createExitPlanModeTool(options: PlanApprovalOptions): Tool<z.infer<typeof ExitPlanModeInputSchema>> {
  return {
    name: 'ExitPlanMode',
    description:
      'You work in plan mode: read and explore, then call this with your plan. The team lead must approve it before you may change anything; if it is rejected you get feedback and stay in plan mode.',
    inputSchema: ExitPlanModeInputSchema,
    isReadOnly: () => true,
    isConcurrencySafe: () => false,
    permissionSubject: () => ({ kind: 'tool', readOnly: true }),
    async call(input, ctx) {
      if (options.mode() !== 'plan')
        throw new ToolError('You are not in plan mode: your plan was already approved. Go ahead with the work.')
      const requestId = newRequestId('plan')
      const { mailbox, team, name, leader } = options
      options.onWaiting?.(true)
      let verdict: { approve: boolean; feedback?: string; mode?: string } | 'aborted'
      try {
        verdict = await sendAndAwaitReply({
          mailbox,
          team,
          name,
          signal: ctx.signal,
          send: () =>
            mailbox.send(team, leader, {
              from: name,
              body: protocolBody('plan_approval_request', { requestId, plan: input.plan }),
              summary: `${name} asks to approve a plan`,
              ...(options.color ? { color: options.color } : {})
            }),
          match: (b) =>
            b.type === 'plan_approval_response' && b.requestId === requestId
              ? {
                  approve: b.approve,
                  ...(b.feedback ? { feedback: b.feedback } : {}),
                  ...(b.permissionMode ? { mode: b.permissionMode } : {})
                }
              : undefined
        })
      } finally {
        options.onWaiting?.(false)
      }
      if (verdict === 'aborted')
        return {
          content: 'Your plan was not approved: the approval was interrupted. You stay in plan mode.',
          isError: true
        }
      if (!verdict.approve) {
        return {
          content: `${leader} rejected your plan. You stay in plan mode: change nothing yet.${verdict.feedback ? `\nFeedback: ${verdict.feedback}` : ''}\nRevise the plan and call ExitPlanMode again.`,
          isError: true
        }
      }
      const granted = PermissionModeSchema.safeParse(verdict.mode)
      const mode =
        granted.success && granted.data !== 'bubble' && granted.data !== 'plan' ? granted.data : DEFAULT_APPROVED_MODE
      options.setMode(mode)
      return {
        content: `${leader} approved your plan; you now work in ${mode} mode. Carry it out.${verdict.feedback ? `\nNotes: ${verdict.feedback}` : ''}`
      }
    }
  }
}
