import { RunUsageError } from '../base'
import { expandMcpPrompt, McpPromptError, type McpManager } from '../mcp'

/**
 * `text` with an MCP prompt command (`/mcp__server__prompt args`, docs/tools.md#mcp-servers)
 * replaced by the prompt's messages; any other text as it is.
 * @throws RunUsageError for an unknown prompt, a missing argument or a server that fails to render it.
 */
export async function expandPromptCommand(text: string, manager: McpManager): Promise<string> {
  try {
    return (await expandMcpPrompt(text, manager)) ?? text
  } catch (error) {
    if (error instanceof McpPromptError) throw new RunUsageError(error.message)
    throw error
  }
}
