import { z } from 'zod'
import { PermissionModeSchema } from './permissions'

/**
 * Team config shapes (docs/teams.md#team-config), stored at `<home>/teams/{team}/config.json` and shown by the UI.
 */

/** Version of the team config format. */
export const TEAM_SCHEMA_VERSION = 1

/** Agent and team names: `[a-z0-9-]`, 1–64 characters, not starting or ending with `-`. */
export const NAME_PATTERN = /^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$/

export const SafeNameSchema = z.string().regex(NAME_PATTERN, 'must be [a-z0-9-], 1–64 characters')

/** How a member runs: the leader in the main process, a worker thread, or a separate process (docs/design.md#process-model). */
export const BackendTypeSchema = z.enum(['main', 'worker', 'process'])
export type BackendType = z.infer<typeof BackendTypeSchema>

/**
 * One team member. `agentId` is `name@team`; `joinedAt` is ISO 8601. `host`: the name of the
 * `teammateHosts` entry it runs on (docs/hosts.md), looked up again when it is resumed; absent: here.
 */
export const TeamMemberSchema = z.object({
  agentId: z.string(),
  name: SafeNameSchema,
  agentType: z.string(),
  model: z.string(),
  color: z.string(),
  backendType: BackendTypeSchema,
  paneId: z.string(),
  cwd: z.string(),
  worktreePath: z.string().optional(),
  host: z.string().optional(),
  planModeRequired: z.boolean(),
  mode: PermissionModeSchema,
  isActive: z.boolean(),
  joinedAt: z.string()
})
export type TeamMember = z.infer<typeof TeamMemberSchema>

/** A team's config file. `allowedPaths`: directories outside the workspace every teammate may read and edit. */
export const TeamConfigSchema = z.object({
  schemaVersion: z.literal(TEAM_SCHEMA_VERSION),
  name: SafeNameSchema,
  description: z.string(),
  createdAt: z.string(),
  leadAgentId: z.string(),
  members: z.array(TeamMemberSchema),
  hiddenPaneIds: z.array(z.string()),
  allowedPaths: z.array(z.string())
})
export type TeamConfig = z.infer<typeof TeamConfigSchema>

/** `name@team`, the agent id of a team member (docs/teams.md#team-config). */
export function agentId(name: string, team: string): string {
  return `${name}@${team}`
}

/**
 * Teammate colours, in the order they are handed out. Claude Code's eight agent colours; the UI
 * maps each to a theme colour.
 */
export const TEAM_COLORS = ['blue', 'green', 'yellow', 'purple', 'orange', 'pink', 'cyan', 'red'] as const

/**
 * The colour for `name`: its stable first choice (a hash of the name into {@link TEAM_COLORS}),
 * else the next one not in `taken`; when all are taken, the first choice (colours then repeat).
 */
export function assignColor(name: string, taken: readonly string[]): string {
  let h = 0
  for (const ch of name) h = (h * 31 + ch.charCodeAt(0)) >>> 0
  const start = h % TEAM_COLORS.length
  for (let i = 0; i < TEAM_COLORS.length; i++) {
    const c = TEAM_COLORS[(start + i) % TEAM_COLORS.length]
    if (!taken.includes(c)) return c
  }
  return TEAM_COLORS[start]
}

/**
 * Turns a display name into a safe one: lower case, runs of other characters become `-`.
 * Returns `undefined` when nothing usable remains or the input looks like a path (`/`, `\`, `..`,
 * NUL) — callers must reject those rather than silently rename them.
 */
export function sanitizeName(raw: string): string | undefined {
  if (/[/\\\0]/.test(raw) || raw.includes('..')) return undefined
  const s = raw
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 64)
    .replace(/-+$/, '')
  return NAME_PATTERN.test(s) ? s : undefined
}
