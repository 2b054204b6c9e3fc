import type { PermissionSubject } from '../../shared/permissions'
import {
  AgentTool,
  SendMessageTool,
  TaskStopTool,
  TaskCreateTool,
  TaskGetTool,
  TaskListTool,
  TaskUpdateTool,
  TeamCreateTool,
  TeamDeleteTool,
  CORE_TOOLS,
  type Tool
} from '../runtime/tools'
import { UsageError } from './io'

/**
 * The tools whose own mapping `permissions check` uses: the core tools and the agent and team
 * tools (docs/tools.md#tools). The Agent tool's mapping matters: a call asking for a teammate in a mode that
 * stops prompting is not read-only, so it must be decided as the agent loop decides it.
 */
const SUBJECT_TOOLS: readonly Tool[] = [
  ...CORE_TOOLS,
  AgentTool,
  SendMessageTool,
  TaskStopTool,
  TaskCreateTool,
  TaskGetTool,
  TaskListTool,
  TaskUpdateTool,
  TeamCreateTool,
  TeamDeleteTool
]

/**
 * Maps a tool call to its permission subject for `permissions check` with the real tools'
 * own mapping (`Tool.permissionSubject`). Other tools are decided by tool-name rules and the mode.
 * @throws UsageError when the input does not fit the tool's schema.
 */
export function resolveToolSubject(tool: string, input: unknown, cwd: string): PermissionSubject {
  const found = SUBJECT_TOOLS.find((t) => t.name === tool)
  if (!found) return { kind: 'tool', readOnly: false }
  const parsed = found.inputSchema.safeParse(input)
  if (!parsed.success) {
    throw new UsageError(
      `--input does not fit ${tool}'s input: ${parsed.error.issues.map((i) => `${i.path.join('.') || '(input)'}: ${i.message}`).join('; ')}`
    )
  }
  return found.permissionSubject(parsed.data, { cwd })
}
