import { z } from 'zod'
import type { StoreApi } from 'zustand/vanilla'
import { toDisposable, type Disposable } from '../lib/lifecycle'
import { readStored, writeStored, type KeyValueStorage } from './localMemory'
import { PANE_LAYOUTS, type PanesSlice } from './panesSlice'
import type { AppState } from './store'

/**
 * The pane grid's choices remembered per workspace (issue 7; docs/ui.md#the-workspace-ui layouts, hide/show,
 * reorder, collapsible subagents): the layout, the pane `single` shows, hidden panes, the order of
 * the top-level tiles, the collapsed subagent groups and whether the task board's full view is open, in localStorage under the workspace's
 * folder, beside the panel sizes (app/layoutMemory.ts). The Electron window and the browser run
 * this same code over their own localStorage.
 *
 * A maximised pane is not remembered: it is a moment's zoom, and reopening a workspace on one
 * pane alone would hide the rest of the team.
 *
 * Agent ids in the memory may name agents that no longer exist (a subagent of an earlier
 * session) or not yet (a teammate about to be spawned again): the grid ignores the first and
 * applies the choice to the second when it appears; agents not in the memory join at the end.
 */

/** Ids kept per list, newest last: old sessions' subagents must not pile up forever. */
export const MAX_REMEMBERED_IDS = 200

const Ids = z.array(z.string().min(1)).max(MAX_REMEMBERED_IDS)

/** What is stored for a workspace (`schemaVersion` 1). */
export const SavedPanesSchema = z.object({
  schemaVersion: z.literal(1),
  layout: z.enum(PANE_LAYOUTS),
  focused: z.string().min(1).optional(),
  hidden: Ids,
  collapsed: Ids,
  order: Ids,
  /** The task board's full view was open (absent in memories written before it existed). */
  board: z.boolean().optional()
})
export type SavedPanes = z.infer<typeof SavedPanesSchema>

/** The storage key of a workspace's pane memory. */
export const paneMemoryKey = (cwd: string): string => `swarmdesk.panes.v1:${cwd}`

const newest = (ids: readonly string[]): string[] => ids.slice(-MAX_REMEMBERED_IDS)

/** The remembered part of the panes slice. */
export function savedPanes(panes: PanesSlice['panes']): SavedPanes {
  return {
    schemaVersion: 1,
    layout: panes.layout,
    ...(panes.focused ? { focused: panes.focused } : {}),
    hidden: newest(Object.keys(panes.hidden)),
    collapsed: newest(Object.keys(panes.collapsed)),
    order: newest(panes.order),
    ...(panes.board ? { board: true } : {})
  }
}

/** A workspace's pane memory, or undefined (first visit, or an entry that does not validate). */
export function loadPanes(storage: KeyValueStorage | undefined, cwd: string): SavedPanes | undefined {
  return readStored(storage, paneMemoryKey(cwd), SavedPanesSchema)
}

/**
 * Keeps the store's pane choices in `storage` for the workspace the store shows: when the
 * workspace's folder becomes known (the first snapshot) or changes, its memory is applied with
 * `restorePanes` — inside the same store update, so the grid's first render is already the
 * remembered one — and from then on every change of a remembered field is written back. Changes
 * of other state (events, requests, the maximised pane) write nothing.
 * @returns a disposable that stops following the store.
 */
export function bindPaneMemory(store: StoreApi<AppState>, storage: KeyValueStorage | undefined): Disposable {
  let cwd = ''
  let last: Pick<PanesSlice['panes'], 'layout' | 'focused' | 'hidden' | 'collapsed' | 'order' | 'board'> | undefined
  const follow = (s: AppState): void => {
    if (s.workspace.cwd !== cwd) {
      cwd = s.workspace.cwd
      last = undefined
      if (!cwd) return
      const saved = loadPanes(storage, cwd)
      if (saved) {
        // restorePanes notifies this listener again (nested); `last` unset makes that call the one that saves
        store.getState().restorePanes(saved)
        return
      }
    }
    if (!cwd) return
    const p = s.panes
    if (
      last &&
      last.layout === p.layout &&
      last.focused === p.focused &&
      last.hidden === p.hidden &&
      last.collapsed === p.collapsed &&
      last.order === p.order &&
      last.board === p.board
    )
      return
    last = {
      layout: p.layout,
      focused: p.focused,
      hidden: p.hidden,
      collapsed: p.collapsed,
      order: p.order,
      board: p.board
    }
    writeStored(storage, paneMemoryKey(cwd), savedPanes(p))
  }
  follow(store.getState())
  return toDisposable(store.subscribe(follow))
}
