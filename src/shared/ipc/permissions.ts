import { z } from 'zod'
import { PermissionPromptRequestSchema } from '../permissions'
import { TeamAllowedPathsSchema } from './team'

/** A permission request waiting for a person (docs/ui.md#the-workspace-ui permission bubbles): the one request shape (src/shared/permissions.ts) and what the UI adds. */
export const PendingPermissionSchema = PermissionPromptRequestSchema.extend({
  /** For Edit/Write: the change as a unified diff of the file, computed in main. */
  diff: z.string().optional(),
  createdAt: z.string()
})
export type PendingPermission = z.infer<typeof PendingPermissionSchema>

/** Requests answering the permission requests that wait for a person. */
export const permissionChannels = {
  /** Answers a permission request; the first answer wins, later ones get `ok: false`. */
  'permission.respond': {
    request: z
      .object({
        requestId: z.string().min(1),
        decision: z.enum(['allow', 'deny']),
        /**
         * With allow: also add this rule for the rest of the session, to the asking agent only
         * ("Always allow", docs/permissions.md#permissions session approvals). Must be one of the request's `suggestions`.
         */
        alwaysAllowRule: z.string().min(1).max(1000).optional(),
        /** With deny: sent to the agent with the denial. */
        reason: z.string().max(4000).optional()
      })
      .strict(),
    response: z.object({ ok: z.boolean() })
  },
  /**
   * "Allow for the team in <dir>" (docs/teams.md#allowed-paths): adds the folder of the file a
   * teammate asks to read or edit outside the workspace (`teamAllowDirOf` in
   * src/shared/teamAllowOffer.ts, computed by main from the waiting request) to the team's allowed
   * paths, then allows the request once. `ok` false when it was already answered; refused (the
   * request stays waiting) when the request offers no such answer or the path cannot be allowed.
   */
  'permission.allowForTeam': {
    request: z.object({ requestId: z.string().min(1) }).strict(),
    response: z.object({ ok: z.boolean(), allowedPaths: TeamAllowedPathsSchema })
  }
} as const
