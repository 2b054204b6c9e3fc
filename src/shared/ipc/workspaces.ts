import { z } from 'zod'

// Workspaces (docs/ui.md#the-workspace-ui: open a folder, the recent list, one window per workspace).
// Answered by the app host (the Electron main's workspace registry, or the web host's workspace
// set), never by a WorkspaceService: they are about which workspaces are open, not inside one.

/** A folder of the recent list (`<home>/recent.json`), most recently opened first. */
export const RecentWorkspaceSchema = z.object({
  /** Canonical absolute path (symlinks resolved when it was opened). */
  path: z.string(),
  /** Last path segment, for the menu. */
  name: z.string(),
  /** When it was last opened (ISO 8601). */
  openedAt: z.string(),
  /** The folder no longer exists (or is no longer a directory): shown as missing, removable. */
  missing: z.boolean()
})
export type RecentWorkspace = z.infer<typeof RecentWorkspaceSchema>

/**
 * What the workspace menu shows: this window's (or tab's) folder, the recent list, and how the
 * host lets a person pick another folder — `dialog`: main shows the OS folder picker; `path`:
 * the person types an absolute path (the web host, which has no dialog). `problem`: why the
 * recent list could not be read (a corrupt file), when it could not.
 */
export const WorkspacesMenuSchema = z.object({
  current: z.string(),
  recent: z.array(RecentWorkspaceSchema),
  picker: z.enum(['dialog', 'path']),
  problem: z.string().optional()
})
export type WorkspacesMenu = z.infer<typeof WorkspacesMenuSchema>

/**
 * The folder was opened (or was already open and is focused): `path` canonical; `url`, on the
 * web host, the page to open in a new tab for it (same origin, no token: the cookie carries it);
 * `opened: false` when the person cancelled the folder picker.
 */
export const WorkspaceOpenedSchema = z.union([
  z.object({ opened: z.literal(true), path: z.string(), alreadyOpen: z.boolean(), url: z.string().optional() }),
  z.object({ opened: z.literal(false) })
])
export type WorkspaceOpened = z.infer<typeof WorkspaceOpenedSchema>
/** Requests about which workspaces are open: the menu, opening a folder, the recent list. */
export const workspacesChannels = {
  /** The workspace menu's content ({@link WorkspacesMenuSchema}). */
  'workspaces.menu': { request: z.object({}).strict(), response: WorkspacesMenuSchema },
  /**
   * Opens a folder as a workspace, or focuses it when it is already open; recorded in the recent
   * list. Without `path`, main asks the person with the OS folder picker (Electron only; the web
   * host refuses and asks for a path). A path that does not exist or is not a directory is refused
   * with a message saying so.
   */
  'workspaces.open': {
    request: z.object({ path: z.string().trim().min(1, 'type the folder to open').max(4096).optional() }).strict(),
    response: WorkspaceOpenedSchema
  },
  /** Removes a folder from the recent list (e.g. one shown as missing); returns the new list. */
  'workspaces.forget': {
    request: z.object({ path: z.string().min(1).max(4096) }).strict(),
    response: z.object({ recent: z.array(RecentWorkspaceSchema) })
  }
} as const

/** The request channels a host answers itself rather than passing to the workspace's service. */
export const WORKSPACES_CHANNELS = Object.keys(workspacesChannels) as Array<keyof typeof workspacesChannels>
