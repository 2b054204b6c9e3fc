import { z } from 'zod'
import { Ok } from './common'

/** The agent type of a Claude Code session's pane and dashboard row. */
export const CLAUDE_CODE_AGENT_TYPE = 'claude-code'

/** Most characters one `pane.input` request carries (a large paste is split by the page). */
export const MAX_PANE_INPUT_CHARS = 64 * 1024

/** `claude.start`'s request: where the session runs, absolute or relative to the workspace; default the workspace root. */
export const ClaudeStartSchema = z
  .object({
    cwd: z.string().trim().min(1, 'name the folder to start Claude Code in, or leave cwd out').max(4096).optional()
  })
  .strict()

/**
 * The person's own Claude Code sessions in panes (docs/claude-code.md#sessions-in-panes), and the
 * keys typed into them.
 */
export const claudeChannels = {
  /**
   * Starts the person's `claude` (`--claude-path`, else the one on PATH) interactively
   * in a new pane; answers the pane's agent id (`claude-1`…). Refused when no claude is found or
   * the folder does not exist.
   */
  'claude.start': { request: ClaudeStartSchema, response: z.object({ agentId: z.string() }) },
  /** Ends a Claude Code session (its process group); it is not reopened at the next start. */
  'claude.stop': { request: z.object({ agentId: z.string().min(1).max(200) }).strict(), response: Ok },
  /**
   * Keys typed in a pane whose program reads its terminal (a Claude Code session), as the
   * terminal sends them (`\r` for Enter, escape sequences for arrows). Refused for any other pane.
   */
  'pane.input': {
    request: z
      .object({
        agentId: z.string().min(1).max(200),
        data: z.string().min(1).max(MAX_PANE_INPUT_CHARS, `send at most ${MAX_PANE_INPUT_CHARS} characters at a time`)
      })
      .strict(),
    response: Ok
  }
} as const
