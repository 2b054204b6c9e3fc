import { BashTool } from './shell/bash'
import { BashOutputTool } from './shell/bashOutput'
import { EditTool } from './files/edit'
import { GlobTool } from './files/glob'
import { GrepTool } from './files/grep'
import { KillShellTool } from './shell/killShell'
import { NotebookEditTool } from './files/notebookEdit'
import { ReadTool } from './files/read'
import type { Tool } from './types'
import { WriteTool } from './files/write'

/**
 * The core tools every agent may be given (docs/tools.md#tools), in the order they are offered to the model.
 * The order is part of the cached prompt prefix: keep it stable.
 */
export const CORE_TOOLS: readonly Tool[] = [
  ReadTool,
  WriteTool,
  EditTool,
  GlobTool,
  GrepTool,
  BashTool,
  BashOutputTool,
  KillShellTool,
  NotebookEditTool
]

/** The async allow list (docs/agents.md#agent-definitions): the tools a background agent may use. */
export const ASYNC_ALLOWED_TOOL_NAMES: readonly string[] = [
  'Read',
  'Write',
  'Edit',
  'Glob',
  'Grep',
  'Bash',
  'BashOutput',
  'KillShell',
  'NotebookEdit'
]

/** Finds a core tool by its exact name. */
export function findCoreTool(name: string): Tool | undefined {
  return CORE_TOOLS.find((t) => t.name === name)
}
