import { z } from 'zod'
import { ToolError, type Tool } from '../types'

export const TaskStopInputSchema = z.object({ task_id: z.string().min(1).describe('The agent id of the task to stop') })

/**
 * TaskStop (docs/agents.md#stopping-an-agent): stops an agent task and everything it owns (background shells, child
 * agents), verifies its processes are gone, and yields exactly one `killed` notification.
 * Stopping a task that already ended is an error.
 */
export const TaskStopTool: Tool<z.infer<typeof TaskStopInputSchema>> = {
  name: 'TaskStop',
  description:
    'Stop a running background agent task by its agent id, with its shells and child agents. Use when the work is no longer needed.',
  inputSchema: TaskStopInputSchema,
  isReadOnly: () => false,
  isConcurrencySafe: () => false,
  permissionSubject: () => ({ kind: 'none' }),
  async call(input, ctx) {
    if (!ctx.services) throw new ToolError('TaskStop is not available to this agent.')
    const view = await ctx.services.subagents.stop(input.task_id)
    return { content: `Stopped agent ${view.agentId} ("${view.description}"): it and everything it owned have ended.` }
  }
}
