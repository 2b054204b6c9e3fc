import { PermissionModeSchema, type PermissionMode } from '../../../shared/permissions'
import { PermissionsError } from './errors'

/** A teammate spawn asked for a mode that is not a person-selectable permission mode. */
export class TeammateModeError extends PermissionsError {
  override name = 'TeammateModeError'
}

/**
 * The permission mode a spawned teammate starts in (docs/teams.md#spawning-a-teammate): `mode` when
 * given — a person-selectable mode, `plan` meaning plan approval required — else the spawner's own
 * mode, where `bubble` (a subagent's) becomes `default`.
 * @throws TeammateModeError for any other value, listing the valid ones.
 */
export function teammateMode(mode: string | undefined, fallback: PermissionMode): PermissionMode {
  if (mode === undefined) return fallback === 'bubble' ? 'default' : fallback
  const parsed = PermissionModeSchema.safeParse(mode)
  if (!parsed.success || parsed.data === 'bubble')
    throw new TeammateModeError(
      `Unknown mode "${mode}" for a teammate: use default, acceptEdits, plan (plan approval required), dontAsk or bypassPermissions.`
    )
  return parsed.data
}
