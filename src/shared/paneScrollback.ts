/**
 * How many lines of scrollback each pane's terminal keeps in the page (the `paneScrollbackLines`
 * setting, docs/ui.md#the-workspace-ui). Main keeps its own copy of every pane, for restore and reload, at its own
 * length (src/main/app/panes.ts); this bounds only the renderer's terminals.
 * No zod here: the page's terminals and the UI benchmark's baseline page import these alone.
 */

/**
 * Lines of scrollback a pane's terminal keeps when no setting says otherwise. A full xterm line
 * costs memory in the page, and every visible pane fills its scrollback under steady output: in
 * the UI benchmark (bench/ui: 16 visible panes, each receiving 50 KB/s for 20 s, whose budget is
 * ≤ 50 MB of renderer memory growth) 16 panes at 10,000 lines grew the page by ~165 MB, at 2,000
 * lines by 50–58 MB (bare xterm.js as much), at 1,000 by 36–40 MB. 1,000 is what xterm.js and VS
 * Code's terminal keep by default; a person who wants more raises the setting (main keeps 10,000
 * lines of every pane for a reload or restart either way).
 */
export const DEFAULT_PANE_SCROLLBACK_LINES = 1_000

/** Fewest lines the setting accepts: less would not hold one screen of a tall pane plus a little history. */
export const MIN_PANE_SCROLLBACK_LINES = 100

/** Most lines the setting accepts: 16 full panes at this length would take the page past a gigabyte. */
export const MAX_PANE_SCROLLBACK_LINES = 100_000
