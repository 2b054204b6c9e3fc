import { z } from 'zod'
import { TodoListSchema } from '../../../../shared/todos'
import type { Tool } from '../types'

/** TodoWrite input (Claude Code's shape): the agent's whole todo list, which replaces the one before. */
export const TodoWriteInputSchema = z.object({
  todos: TodoListSchema.describe('The whole updated todo list, in order; it replaces the previous one')
})
export type TodoWriteInput = z.infer<typeof TodoWriteInputSchema>

/** What a successful TodoWrite answers: Claude Code's text, so prompts written for it read the same. */
export const TODO_WRITE_RESULT =
  'Todos have been modified successfully. Ensure that you continue to use the todo list to track your progress. Please proceed with the current tasks if applicable'

/**
 * TodoWrite (docs/tools.md#todowrite): the calling agent's own todo list, sent whole each time. The
 * tool itself keeps nothing: the call's input in the agent's transcript is the list, and the agent
 * runner turns each successful call into a `todos_updated` event (runner/todoEvents.ts), so the list
 * is shown as it changes and read back from the transcript after a restart. A malformed list is
 * refused by the loop's input validation with the schema's messages, and changes nothing. It needs
 * no permission (the agent's own bookkeeping, as in Claude Code).
 */
export const TodoWriteTool: Tool<TodoWriteInput> = {
  name: 'TodoWrite',
  description: [
    'Keep your own todo list for the current work: a structured plan of steps you and the person watching can follow.',
    'Use it for work of three or more steps, or when you are given several things to do; skip it for a single simple step.',
    'Each call sends the whole list, which replaces the previous one. Every item has `content` (imperative: "Run the tests"),',
    '`activeForm` (present continuous, shown while it is worked on: "Running the tests") and `status`',
    '(pending, in_progress or completed). Keep exactly one item in_progress while you work, mark each completed as soon as',
    'it is done, and add items you discover along the way.'
  ].join(' '),
  inputSchema: TodoWriteInputSchema,
  isReadOnly: () => true,
  isConcurrencySafe: () => false,
  permissionSubject: () => ({ kind: 'none' }),
  async call() {
    return { content: TODO_WRITE_RESULT }
  }
}
