import { z } from 'zod'

/**
 * An agent's own todo list (docs/tools.md#todowrite): what TodoWrite takes, what the `todos_updated`
 * event carries and what the UI shows in the agent's pane header and dashboard row. Claude Code's
 * shape, so scenarios and prompts written for it work unchanged. Not the team's shared task list
 * (`tasks.ts`): a todo list belongs to one agent and lives in its transcript.
 */

/** A todo's life, as Claude Code's TodoWrite names it. */
export const TodoStatusSchema = z.enum(['pending', 'in_progress', 'completed'], {
  error: "status must be 'pending', 'in_progress' or 'completed'"
})
export type TodoStatus = z.infer<typeof TodoStatusSchema>

/** One item: what to do (imperative), its status, and the present-continuous form shown while it is in progress. */
export const TodoItemSchema = z.object({
  content: z
    .string({ error: 'content must be a string: what to do, in the imperative ("Run the tests")' })
    .regex(/\S/, 'content cannot be empty: say what to do, in the imperative ("Run the tests")')
    .describe('What to do, in the imperative: "Run the tests"'),
  status: TodoStatusSchema,
  activeForm: z
    .string({ error: 'activeForm must be a string: the present-continuous form shown while it is in progress' })
    .regex(/\S/, 'activeForm cannot be empty: give the present-continuous form ("Running the tests")')
    .describe('The same, in the present continuous, shown while it is in progress: "Running the tests"')
})
export type TodoItem = z.infer<typeof TodoItemSchema>

/** A whole list, in the agent's order; empty clears it. */
export const TodoListSchema = z.array(TodoItemSchema)
export type TodoList = z.infer<typeof TodoListSchema>

/** How far a list has got, for a header chip: done and total counts, and the item being worked on. */
export interface TodoProgress {
  done: number
  total: number
  /** The first `in_progress` item, when there is one. */
  active?: TodoItem
}

/** Counts a list's completed items and finds the one in progress (the first, if the agent marked several). */
export function todoProgress(todos: readonly TodoItem[]): TodoProgress {
  const active = todos.find((t) => t.status === 'in_progress')
  return {
    done: todos.filter((t) => t.status === 'completed').length,
    total: todos.length,
    ...(active ? { active } : {})
  }
}
