import { TodoListSchema, type TodoList } from '../../../shared/todos'
import type { TranscriptEntry } from '../transcripts'

/** The tool whose successful calls set an agent's todo list (docs/tools.md#todowrite). */
const TODO_WRITE = 'TodoWrite'

/** The fields of a `tool_call` or `tool_result` event a {@link TodoListFollower} looks at. */
export type ToolEventLike =
  | { type: 'tool_call'; toolUseId: string; name: string; input: unknown }
  | { type: 'tool_result'; toolUseId: string; isError: boolean }

/**
 * Follows one agent's tool calls and tells when its todo list changed (docs/tools.md#todowrite): a
 * TodoWrite whose result is not an error sets the list to that call's `todos`. Calls refused by
 * validation, by a denial or by an interruption change nothing. The agent sink and the transcript
 * tail of a process teammate both use it, so every kind of agent emits `todos_updated` the same way.
 */
export class TodoListFollower {
  /** TodoWrite calls waiting for their result, by tool_use id. */
  private readonly pending = new Map<string, TodoList>()

  /** Takes one tool event; returns the agent's new list when this event completed a TodoWrite. */
  observe(event: ToolEventLike): TodoList | undefined {
    if (event.type === 'tool_call') {
      if (event.name !== TODO_WRITE) return undefined
      const todos = todosOf(event.input)
      if (todos) this.pending.set(event.toolUseId, todos)
      return undefined
    }
    const todos = this.pending.get(event.toolUseId)
    if (!todos) return undefined
    this.pending.delete(event.toolUseId)
    return event.isError ? undefined : todos
  }
}

/** The `todos` of a TodoWrite input when it is a valid list, else undefined. */
function todosOf(input: unknown): TodoList | undefined {
  if (typeof input !== 'object' || input === null) return undefined
  const parsed = TodoListSchema.safeParse((input as { todos?: unknown }).todos)
  return parsed.success ? parsed.data : undefined
}

/**
 * An agent's todo list as its transcript leaves it (docs/tools.md#todowrite, docs/ui.md#restore):
 * the `todos` of its last TodoWrite whose `tool_result` is not an error, over the whole file
 * (lines before a `compact_boundary` included: compaction summarises the history, it does not
 * undo the list). Undefined when the agent never wrote one.
 */
export function todoListFromTranscript(entries: readonly TranscriptEntry[]): TodoList | undefined {
  const follower = new TodoListFollower()
  let last: TodoList | undefined
  for (const entry of entries) {
    if (entry.type !== 'assistant' && entry.type !== 'user') continue
    const content = (entry.message as { content?: unknown } | null)?.content
    if (!Array.isArray(content)) continue
    for (const block of content as Array<Record<string, unknown>>) {
      if (block?.type === 'tool_use' && typeof block.id === 'string' && typeof block.name === 'string') {
        follower.observe({ type: 'tool_call', toolUseId: block.id, name: block.name, input: block.input })
      } else if (block?.type === 'tool_result' && typeof block.tool_use_id === 'string') {
        const todos = follower.observe({
          type: 'tool_result',
          toolUseId: block.tool_use_id,
          isError: block.is_error === true
        })
        if (todos) last = todos
      }
    }
  }
  return last
}
