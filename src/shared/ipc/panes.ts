import { z } from 'zod'
import { MAX_PANE_SCROLLBACK_LINES } from '../paneScrollback'
import { TerminalSizeSchema } from '../terminalSize'
import { Ok } from './common'

/** One pane's acknowledgement in a `pane.ack` request: its `pane.data` chunks up to `chunk` are processed. */
export const PaneAckSchema = z.object({ agentId: z.string().min(1), chunk: z.number().int().nonnegative() }).strict()
export type PaneAck = z.infer<typeof PaneAckSchema>

/** Most acknowledgements one `pane.ack` request carries (one per pane; a page shows far fewer panes). */
export const MAX_PANE_ACKS = 1024

/** A `pane.mute` request: the agent whose pane's live output the asking page stops (`muted: true`) or resumes taking. */
export const PaneMuteSchema = z
  .object({ agentId: z.string().min(1, 'name the agent whose pane to mute').max(200), muted: z.boolean() })
  .strict()
export type PaneMute = z.infer<typeof PaneMuteSchema>

/** A pane's scrollback as kept in main: the serialized headless terminal, and the last chunk number it includes. */
export const PaneScrollbackSchema = z.object({
  agentId: z.string(),
  data: z.string(),
  /** Number of the last `pane.data` chunk included; apply only later chunks after writing `data`. */
  chunk: z.number().int().nonnegative(),
  /**
   * Size in cells of main's copy of the pane when `data` was serialized: the size the pane last
   * reported (`pane.resize`), else 120 × 40. `data` ends with cursor moves counted at this size,
   * so write it at this size, then fit the pane (PaneOwner.restore).
   */
  cols: z.number().int().positive(),
  rows: z.number().int().positive()
})
export type PaneScrollback = z.infer<typeof PaneScrollbackSchema>

/** Requests of the agents' panes: scrollback, flow control, mutes, sizes. */
export const paneChannels = {
  /** A pane's scrollback, to restore it after a reload. */
  'pane.scrollback': {
    /**
     * `lines`: most lines of scrollback wanted above the screen (the page's own scrollback length,
     * so a restore carries no more than its terminal keeps); main sends at most the 10,000 it keeps
     * (src/main/app/panes.ts), all of them when `lines` is left out.
     */
    request: z
      .object({ agentId: z.string().min(1), lines: z.number().int().min(0).max(MAX_PANE_SCROLLBACK_LINES).optional() })
      .strict(),
    response: PaneScrollbackSchema
  },
  /**
   * The renderer has processed panes' `pane.data` chunks up to `chunk` (cumulative per pane), for
   * one or more panes at once (the renderer gathers them every 50 ms into one request). Main
   * pauses a pane's PTYs while more than 1 MiB of it, or 2 MiB over all panes, is unacknowledged
   * (src/main/app/paneBatcher.ts); the web host acknowledges only as far as its
   * slowest open page (src/main/host/paneAcks.ts).
   */
  'pane.ack': { request: z.object({ acks: z.array(PaneAckSchema).min(1).max(MAX_PANE_ACKS) }).strict(), response: Ok },
  /**
   * Stops (`muted: true`) or resumes (`false`) live `pane.data` of one agent's pane for the page
   * that asks, and only for it: other pages on the workspace are unaffected. A page mutes an agent
   * none of its panes shows (hidden, collapsed, another layout) and an off-screen pane that has
   * dropped the output it held (PaneOwner's `restoreOnShow`): either restores from
   * `pane.scrollback` when shown, so that output stops crossing the wire; it unmutes before
   * that fetch, which then counts as its acknowledgement (src/main/host/paneAcks.ts: main does not
   * wait for a muted page). Mutes belong to the connection: a new one starts with none. Applied
   * by the web host's bridge per socket and by the app per window (src/main/electron/workspaces.ts);
   * the service alone, with no page to tell apart, answers it and does nothing.
   */
  'pane.mute': { request: PaneMuteSchema, response: Ok },
  /**
   * The size of an agent's pane in character cells after the renderer fitted it (sent debounced,
   * only for panes on screen; src/renderer/src/features/panes/PaneOwner.ts). A running `process`
   * teammate's terminal is resized to it (its program gets SIGWINCH, docs/design.md#process-model, docs/ui.md#the-workspace-ui); for any other
   * agent, or one not started yet, main remembers it: a process teammate starts at its pane's last
   * size. Bounds: src/shared/terminalSize.ts. With several pages on one workspace the last wins.
   */
  'pane.resize': {
    request: z
      .object({ agentId: z.string().min(1).max(200) })
      .extend(TerminalSizeSchema.shape)
      .strict(),
    response: Ok
  }
} as const
