/**
 * MCP prompts as slash commands (docs/tools.md#mcp-servers), as Claude Code offers them: a
 * server's prompt P is `/mcp__<server>__<P>` (both names with every character outside
 * `[A-Za-z0-9_-]` as `_`), its words after the command the prompt's arguments in the order the
 * server lists them (a quoted word may hold spaces; the last argument takes the rest of the
 * line). Typed as the leader's prompt, the command is replaced by the prompt's messages.
 */
import { McpServerError, type McpPromptInfo, type McpPromptResult } from './connection'
import type { McpManager } from './manager'

/** One server prompt as a slash command. */
export interface McpPromptCommand {
  /** `mcp__<server>__<prompt>`, without the slash. */
  command: string
  server: string
  prompt: McpPromptInfo
}

/** A prompt command that cannot be expanded: the message says what was wrong and what to do. */
export class McpPromptError extends Error {
  override readonly name = 'McpPromptError'
}

const normalise = (name: string): string => name.replace(/[^a-zA-Z0-9_-]/g, '_')

/**
 * The prompts of every server of `manager` that offers some, as commands, servers in name order.
 * A server that fails to list is left out (its tools' listing reports it).
 */
export async function listMcpPromptCommands(manager: McpManager): Promise<McpPromptCommand[]> {
  const per = await Promise.all(
    manager.names.map(async (server) => {
      try {
        const prompts = await manager.connection(server).listPrompts()
        return prompts.map((prompt) => ({
          command: `mcp__${normalise(server)}__${normalise(prompt.name)}`,
          server,
          prompt
        }))
      } catch {
        return []
      }
    })
  )
  return per.flat()
}

/** `/mcp__s__p rest` → `{command: 'mcp__s__p', rest}`; undefined for any other text. */
export function parsePromptCommand(text: string): { command: string; rest: string } | undefined {
  const m = /^\s*\/(mcp__[A-Za-z0-9_-]+)(?:\s+([\s\S]*))?$/.exec(text)
  return m ? { command: m[1]!, rest: (m[2] ?? '').trim() } : undefined
}

/**
 * The words of `rest` for `names` arguments: split at spaces, `"…"` and `'…'` keeping their
 * spaces; the last argument takes the rest of the line as typed.
 */
export function promptArguments(rest: string, names: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {}
  let tail = rest.trim()
  for (const [i, name] of names.entries()) {
    if (tail === '') break
    if (i === names.length - 1) {
      out[name] = unquote(tail)
      break
    }
    const m = /^(?:"([^"]*)"|'([^']*)'|(\S+))\s*/.exec(tail)!
    out[name] = m[1] ?? m[2] ?? m[3]!
    tail = tail.slice(m[0].length)
  }
  return out
}

function unquote(text: string): string {
  const m = /^"([^"]*)"$|^'([^']*)'$/.exec(text)
  return m ? (m[1] ?? m[2]!) : text
}

/**
 * The text a prompt command stands for: the prompt's messages in order, each message's text
 * (an embedded resource's text with its URI, a resource link as a line, any other content as a
 * note naming it) separated by blank lines. Undefined when `text` is no `/mcp__…` command.
 * @throws McpPromptError for an unknown command (listing the known ones), a missing required
 *   argument, or a server that fails to render it (with its message).
 */
export async function expandMcpPrompt(text: string, manager: McpManager): Promise<string | undefined> {
  const typed = parsePromptCommand(text)
  if (!typed) return undefined
  const commands = await listMcpPromptCommands(manager)
  const found = commands.find((c) => c.command === typed.command)
  if (!found)
    throw new McpPromptError(
      `/${typed.command} is no MCP prompt of this session. Prompts: ${commands.map((c) => `/${c.command}`).join(', ') || 'none (no running server offers prompts)'}.`
    )
  const specs = found.prompt.arguments ?? []
  const args = promptArguments(
    typed.rest,
    specs.map((a) => a.name)
  )
  const missing = specs.filter((a) => a.required && !(a.name in args)).map((a) => a.name)
  if (missing.length)
    throw new McpPromptError(
      `/${found.command} needs ${missing.join(', ')}: type /${found.command} ${specs.map((a) => (a.required ? `<${a.name}>` : `[${a.name}]`)).join(' ')}.`
    )
  let result: McpPromptResult
  try {
    result = await manager.connection(found.server).getPrompt(found.prompt.name, args)
  } catch (error) {
    throw new McpPromptError(error instanceof McpServerError ? error.message : (error as Error).message)
  }
  return result.messages.map((m) => contentText(m.content)).join('\n\n')
}

function contentText(content: McpPromptResult['messages'][number]['content']): string {
  switch (content.type) {
    case 'text':
      return content.text
    case 'resource':
      return 'text' in content.resource
        ? `[resource ${content.resource.uri}]\n${content.resource.text}`
        : `[resource ${content.resource.uri} (${content.resource.mimeType ?? 'binary'}): not text, left out]`
    case 'resource_link':
      return `[resource link: ${content.uri}${content.name ? ` (${content.name})` : ''}]`
    default:
      return `[${content.type} content of the prompt, left out: the prompt input takes text]`
  }
}
