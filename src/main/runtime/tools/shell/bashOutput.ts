import { type BackgroundShellStatus, type LineFilter } from '../../pty'
import { z } from 'zod'
import { capForModel } from './bashFormat'
import { unknownShellError } from './shellIds'
import { ToolError, type Tool } from '../types'
import { compileGrepPattern } from '../files/grepEngine'

/** BashOutput input, Claude Code's fields (docs/tools.md#tools). */
export const BashOutputInputSchema = z.object({
  bash_id: z.string().min(1).describe('ID of the background shell (from Bash with run_in_background)'),
  filter: z
    .string()
    .optional()
    .describe('Regular expression: only new output lines matching it are returned (the others are discarded)')
})
export type BashOutputInput = z.infer<typeof BashOutputInputSchema>

const DESCRIPTION = `Reads a background shell started by Bash with run_in_background.

- Returns the shell's status (running, completed, failed, killed), its exit code once it has ended, and only the output produced since your previous BashOutput call for that shell.
- filter: a regular expression; only matching lines are returned, and non-matching lines of this read are discarded for good.
- Output has terminal colours removed and is cut to 30,000 characters.`

/**
 * The BashOutput tool (docs/tools.md#tools). Result text, tags in this order:
 * ```
 * <status>running|completed|failed|killed</status>
 * <exit_code>N</exit_code>            (only once the shell has ended with a code)
 * <output>
 * …new output, or (no new output)…
 * </output>
 * ```
 * @throws ToolError for an invalid filter regex or an id the agent does not own.
 */
export const BashOutputTool: Tool<BashOutputInput> = {
  name: 'BashOutput',
  description: DESCRIPTION,
  inputSchema: BashOutputInputSchema,
  // Draining the unread buffer changes only the agent's own state.
  isReadOnly: () => true,
  isConcurrencySafe: () => false,
  permissionSubject: () => ({ kind: 'none' }),
  async call(input, ctx) {
    const filter = input.filter === undefined ? undefined : compileFilter(input.filter)
    const status = ctx.shells.read(input.bash_id, filter)
    if (!status) throw unknownShellError(input.bash_id, ctx.shells)
    return { content: formatShellStatus(status) }
  }
}

/**
 * The filter as a Grep pattern (grepEngine.ts): the same syntax, and a pattern that would make a
 * backtracking engine run for minutes on a long output line runs in linear time instead.
 * @throws ToolError naming what is wrong with the pattern.
 */
function compileFilter(source: string): LineFilter {
  try {
    return compileGrepPattern(source, { ignoreCase: false, multiline: false })
  } catch (error) {
    throw new ToolError(
      `Invalid filter regular expression ${JSON.stringify(source)}: ${(error as Error).message.replace(/^Invalid regex "[^]*?": /, '')}`
    )
  }
}

/** The BashOutput result text for one read (format in {@link BashOutputTool}). */
export function formatShellStatus(status: BackgroundShellStatus): string {
  const lines = [`<status>${status.status}</status>`]
  if (status.status !== 'running' && status.exitCode !== null) lines.push(`<exit_code>${status.exitCode}</exit_code>`)
  const output = capForModel(status.newOutput.trimEnd())
  lines.push('<output>', output === '' ? '(no new output)' : output, '</output>')
  return lines.join('\n')
}
