/**
 * The team tools of a leader session (docs/tools.md#tools, docs/teams.md#agent-teams): TeamCreate, TeamDelete, TaskCreate, TaskGet,
 * TaskList, TaskUpdate, and SendMessage's teammate part (`sendToTeam`, used by SendMessage).
 * They reach the session's team through `ToolContext.services.team` (a {@link TeamContext}).
 *
 * Decisions of this implementation:
 * - Without a team the task tools use the session's own list, `<home>/tasks/session-<id8>/`
 *   (Claude Code keeps a task list per session); TeamCreate switches them to the team's list.
 * - Permission subject `none` for all of them: they touch only the session's bookkeeping under
 *   `<home>` (docs/storage.md#layout), never the workspace; a person is never asked, as in Claude Code.
 * - The session remembers its team in `<sessionDir>/team.json`, so a resumed session leads it
 *   again (unless the team was deleted meanwhile).
 * - A sync subagent that inherits the task tools or SendMessage (docs/agents.md#agent-definitions) works on the leader's
 *   task list and team in its own name (`bindTeamContext`).
 * - Only the leader gets TeamCreate/TeamDelete (docs/agents.md#agent-definitions drops them for subagents).
 */
import { TaskCreateTool, TaskGetTool, TaskListTool } from './taskTools'
import { TaskUpdateTool } from './taskUpdate'
import { TeamCreateTool, TeamDeleteTool } from './teamTools'
import type { Tool } from '../types'

export { bindTeamContext } from './bindTeamContext'
export { sendToTeam, StructuredMessageSchema, type StructuredMessage, type TeamMessageInput } from './sendToTeam'
export { TaskCreateTool, TaskGetTool, TaskListTool, TaskUpdateTool, TeamCreateTool, TeamDeleteTool }
export { taskDetailText, taskLine, taskListText } from './format'

/** The tools a leader session adds after SendMessage, in the order offered to the model (part of the cached prefix: keep it stable). */
export const LEADER_TEAM_TOOLS: readonly Tool[] = [
  TaskCreateTool,
  TaskGetTool,
  TaskListTool,
  TaskUpdateTool,
  TeamCreateTool,
  TeamDeleteTool
]
