import { z } from 'zod'
import { unknownShellError } from './shellIds'
import { ToolError, type Tool } from '../types'

/** KillShell input, Claude Code's fields (docs/tools.md#tools). */
export const KillShellInputSchema = z.object({
  shell_id: z.string().min(1).describe('ID of the background shell to stop')
})
export type KillShellInput = z.infer<typeof KillShellInputSchema>

const DESCRIPTION = `Stops a background shell started by Bash with run_in_background: kills it and every process it started. Use it for servers or watchers you no longer need.`

/**
 * The KillShell tool (docs/tools.md#tools). Result: `Killed shell bash_1 (sleep 300); all its processes are gone.`
 * @throws ToolError for an id the agent does not own, or a shell that already ended
 *   (`Shell bash_1 is not running (completed).`).
 */
export const KillShellTool: Tool<KillShellInput> = {
  name: 'KillShell',
  description: DESCRIPTION,
  inputSchema: KillShellInputSchema,
  isReadOnly: () => false,
  isConcurrencySafe: () => false,
  permissionSubject: () => ({ kind: 'none' }),
  async call(input, ctx) {
    const shell = ctx.shells.list?.().find((entry) => entry.shellId === input.shell_id)
    if (await ctx.shells.kill(input.shell_id)) {
      const command = shell ? ` (${shell.command})` : ''
      return { content: `Killed shell ${input.shell_id}${command}; all its processes are gone.` }
    }
    // Not killed: it had already ended, or it is not this agent's.
    const ended = ctx.shells.list?.().find((entry) => entry.shellId === input.shell_id)
    if (ended) throw new ToolError(`Shell ${input.shell_id} is not running (${ended.status}).`)
    if (!ctx.shells.list)
      throw new ToolError(`Shell ${input.shell_id} is not running or is not one of this agent's shells.`)
    throw unknownShellError(input.shell_id, ctx.shells)
  }
}
