import type { TextBlockParam } from '@anthropic-ai/sdk/resources/messages'
import { environmentContext, gitStatusSnapshot, loadProjectInstructions } from './projectContext'

/** The main agent's role, in Swarmdesk's words. */
export const MAIN_AGENT_PROMPT = `You are the lead agent of Swarmdesk, a workspace where you and other agents work on one codebase. You act through tools: read and search files with Read, Glob and Grep; change them with Edit and Write (Read a file before you change it); run commands with Bash (each call is a fresh shell in the workspace root; nothing carries over between calls, so chain steps with && or use absolute paths). Long-running commands can go to the background with run_in_background, then BashOutput reads them and KillShell stops them.

Work like a careful engineer: look before you change, keep changes small and in the style of the code around them, run the project's tests after a change, and report plainly what you did and what you found, including what failed. Never claim a result you did not observe. If a tool call is denied, do not retry the same call; adjust, or explain what you need.`

/** Options of {@link renderSystemPrompt}. */
export interface SystemPromptOptions {
  cwd: string
  model: string
  /** Role text; the main agent's by default. */
  rolePrompt?: string
  /** Leave out project instructions and the git snapshot (docs/agents.md#project-instructions-and-trimming omitClaudeMd). */
  omitProjectContext?: boolean
  date?: Date
  /** Project context already read for this directory (see {@link readProjectContext}); read afresh when absent. */
  context?: ProjectContext
}

/** What a workspace contributes to prompts: its git snapshot and project instructions, either may be absent. */
export interface ProjectContext {
  git?: string
  instructions?: string
}

/**
 * Reads a directory's project context once (two to four git commands and a few files), for
 * callers that render many prompts for the same directory — every subagent of a session.
 */
export async function readProjectContext(cwd: string): Promise<ProjectContext> {
  const [git, instructions] = await Promise.all([gitStatusSnapshot(cwd), loadProjectInstructions(cwd)])
  return { ...(git ? { git } : {}), ...(instructions ? { instructions } : {}) }
}

/**
 * Renders an agent's system prompt once, as text blocks: role, environment, then project
 * instructions and the git snapshot. The result is kept as bytes for the agent's whole life (and
 * handed unchanged to forks, docs/agents.md#forks) so the cached prefix never changes.
 */
export async function renderSystemPrompt(options: SystemPromptOptions): Promise<TextBlockParam[]> {
  const context = options.context ?? (await readProjectContext(options.cwd))
  const parts = [
    options.rolePrompt ?? MAIN_AGENT_PROMPT,
    environmentContext(options.cwd, context.git !== undefined, options.model, options.date)
  ]
  if (!options.omitProjectContext) {
    if (context.instructions) parts.push(context.instructions)
    if (context.git) parts.push(context.git)
  }
  return [{ type: 'text', text: parts.join('\n\n') }]
}
