import { MailboxError } from '../../mailbox'
import { TaskError } from '../../tasks'
import { TeamError } from '../../teams'
import { type TeamContext } from '../../teamStore'
import { ToolError, type ToolContext } from '../types'

/**
 * Runs a team tool's work, turning the stores' and the mailbox's errors — all caused by what the
 * model asked for (unknown task, bad name, active teammates) — into {@link ToolError}s the model
 * can act on (STYLE 10). Anything else is a bug and ends the loop.
 */
export async function asToolErrors<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work()
  } catch (error) {
    if (error instanceof TaskError || error instanceof TeamError || error instanceof MailboxError)
      throw new ToolError(error.message)
    throw error
  }
}

/**
 * The calling agent's team context.
 * @throws ToolError when the agent has none (an agent outside a leader session or a team).
 */
export function teamContextOf(ctx: ToolContext, tool: string): TeamContext {
  const team = ctx.services?.team
  if (!team) throw new ToolError(`${tool} is not available to this agent: it is not part of a session's team.`)
  return team
}

/**
 * A task id as the model writes it: `3`, `"3"` or `"#3"` (Claude Code passes ids as strings).
 * @throws ToolError for anything else.
 */
export function parseTaskId(raw: string | number, field = 'taskId'): number {
  const text = String(raw).trim().replace(/^#/, '')
  const id = Number(text)
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(id) || id < 1)
    throw new ToolError(`${field} "${raw}" is not a task id: use the number shown as #<id> by TaskList.`)
  return id
}
