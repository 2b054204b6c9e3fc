import { z } from 'zod'
import { pageStorage, readStored, writeStored } from '../store/localMemory'

/**
 * What the workspace layout remembers per workspace (issue 7: "resizable, remembered per
 * workspace"): the side panels' sizes — a collapsed panel is size 0, so open/closed comes with
 * them — and the drawer's tab, in localStorage keyed by the workspace's cwd. Stored values are
 * validated on the way back in: a corrupt or foreign entry is ignored, never trusted. The pane
 * grid's choices are remembered the same way, by the store (store/paneMemory.ts).
 */

/** Panel id → percentage of the window width (0..100), as react-resizable-panels reports it. */
const LayoutSchema = z.record(z.string(), z.number().min(0).max(100))
export type SavedLayout = z.infer<typeof LayoutSchema>

/** The drawer's tabs. */
export const DrawerTabSchema = z.enum(['permissions', 'mailbox', 'tasks', 'claude'])
export type DrawerTab = z.infer<typeof DrawerTabSchema>

const layoutKey = (cwd: string): string => `swarmdesk.layout.v1:${cwd}`
const tabKey = (cwd: string): string => `swarmdesk.drawerTab.v1:${cwd}`

/** The saved panel sizes of a workspace, or undefined (first visit, or an unreadable entry). */
export function loadLayout(cwd: string): SavedLayout | undefined {
  return readStored(pageStorage(), layoutKey(cwd), LayoutSchema)
}

/** Remembers the panel sizes of a workspace. */
export function saveLayout(cwd: string, layout: SavedLayout): void {
  writeStored(pageStorage(), layoutKey(cwd), layout)
}

/** The drawer tab last shown in a workspace; `permissions` by default. */
export function loadDrawerTab(cwd: string): DrawerTab {
  return readStored(pageStorage(), tabKey(cwd), DrawerTabSchema) ?? 'permissions'
}

/** Remembers the drawer tab shown in a workspace. */
export function saveDrawerTab(cwd: string, tab: DrawerTab): void {
  writeStored(pageStorage(), tabKey(cwd), tab)
}
