import { z } from 'zod'

/**
 * What the workspace layout remembers per workspace (issue 7: "resizable, remembered per
 * workspace"): the side panels' sizes — a collapsed panel is size 0, so open/closed comes with
 * them — and the drawer's tab, in localStorage keyed by the workspace's cwd. Stored values are
 * validated on the way back in: a corrupt or foreign entry is ignored, never trusted.
 */

/** Panel id → percentage of the window width (0..100), as react-resizable-panels reports it. */
const LayoutSchema = z.record(z.string(), z.number().min(0).max(100))
export type SavedLayout = z.infer<typeof LayoutSchema>

/** The drawer's tabs. */
export const DrawerTabSchema = z.enum(['permissions', 'mailbox'])
export type DrawerTab = z.infer<typeof DrawerTabSchema>

const layoutKey = (cwd: string): string => `swarmdesk.layout.v1:${cwd}`
const tabKey = (cwd: string): string => `swarmdesk.drawerTab.v1:${cwd}`

function read<T>(key: string, schema: z.ZodType<T>): T | undefined {
  try {
    const raw = globalThis.localStorage?.getItem(key)
    if (!raw) return undefined
    const parsed = schema.safeParse(JSON.parse(raw))
    return parsed.success ? parsed.data : undefined
  } catch {
    return undefined
  }
}

function write(key: string, value: unknown): void {
  try {
    globalThis.localStorage?.setItem(key, JSON.stringify(value))
  } catch {
    // storage full or disabled: the layout is simply not remembered
  }
}

/** The saved panel sizes of a workspace, or undefined (first visit, or an unreadable entry). */
export function loadLayout(cwd: string): SavedLayout | undefined {
  return read(layoutKey(cwd), LayoutSchema)
}

export function saveLayout(cwd: string, layout: SavedLayout): void {
  write(layoutKey(cwd), layout)
}

/** The drawer tab last shown in a workspace; `permissions` by default. */
export function loadDrawerTab(cwd: string): DrawerTab {
  return read(tabKey(cwd), DrawerTabSchema) ?? 'permissions'
}

export function saveDrawerTab(cwd: string, tab: DrawerTab): void {
  write(tabKey(cwd), tab)
}
