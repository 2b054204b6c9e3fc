import { z } from 'zod'
import { AgentStateSchema, UsageSchema } from '../events'
import { TodoListSchema } from '../todos'
import { Ok } from './common'

/** An agent as the UI shows it. */
export const AgentViewSchema = z.object({
  agentId: z.string(),
  agentName: z.string(),
  agentType: z.string(),
  parentId: z.string().optional(),
  depth: z.number().int().nonnegative(),
  state: AgentStateSchema,
  /** While `state` is `error`: why its last model call failed and which retries happened. */
  error: z.string().optional(),
  model: z.string().optional(),
  /** Hex colour (`#rrggbb`) for the agent's badge and pane header. */
  color: z.string(),
  usage: UsageSchema,
  costUsd: z.number().nonnegative(),
  /** When it started and ended (ISO), and how it ended, so a reloaded UI shows the same. */
  startedAt: z.string().optional(),
  endedAt: z.string().optional(),
  endStatus: z.enum(['completed', 'failed', 'killed', 'crashed', 'exited']).optional(),
  /**
   * Teammates only (docs/teams.md#spawning-a-teammate): where it runs. A `process` teammate's pane is its real terminal
   * (its `terminal_output`); a `worker` teammate's pane shows its events like any agent's. Absent
   * for the leader and subagents — its presence is what makes an agent a teammate in the UI.
   */
  backend: z.enum(['worker', 'process']).optional(),
  /** A teammate on another host: the host's name in the `teammateHosts` setting (docs/hosts.md). */
  host: z.string().optional(),
  /**
   * The task it works on now (docs/teams.md#shared-task-list, docs/ui.md#the-workspace-ui "task in its header"): the one it owns with status
   * `in_progress`. `id` is the task id as text (`"3"`). Absent when it has none.
   */
  currentTask: z.object({ id: z.string(), subject: z.string() }).optional(),
  /** Its own todo list, from its last TodoWrite (docs/tools.md#todowrite), read back from its transcript after a restart. Absent until it writes one. */
  todos: TodoListSchema.optional()
})
export type AgentView = z.infer<typeof AgentViewSchema>

/** Requests about one agent of the workspace: interrupt, stop, background. */
export const agentChannels = {
  /**
   * Interrupts an agent's current turn, as Esc does in Claude Code: the model stream and its
   * running tools stop, the agent says it was interrupted and takes the next message. The leader
   * and teammates go idle; a subagent, whose turn is its whole task, ends (its parent hears it was
   * killed, and SendMessage resumes it). An agent with no turn running is left alone.
   */
  'agent.interrupt': {
    request: z.object({ agentId: z.string().min(1).max(200) }).strict(),
    response: z.object({ ok: z.literal(true), interrupted: z.boolean() })
  },
  /** Stops a running subagent and everything it owns (docs/agents.md#stopping-an-agent: TaskStop from its pane). */
  'agent.stop': { request: z.object({ agentId: z.string().min(1) }).strict(), response: Ok },
  /** Moves a running sync subagent to the background (docs/agents.md#auto-background: "the UI can background a running subagent by hand"). */
  'agent.background': { request: z.object({ agentId: z.string().min(1) }).strict(), response: Ok }
} as const
