import { checkServerDefinition, type McpServerConfig } from '../mcp'
import type { IssueSink } from './fields'

/**
 * A definition's `mcpServers` entry (docs/agents.md#agent-definitions), as Claude Code writes it:
 * the name of a configured server (`memory`), or an inline server `{name: definition}` in the
 * `.mcp.json` shape, started for that agent and closed when it ends.
 */
export type AgentMcpServer = string | { name: string; config: McpServerConfig }

const NAME = /^[A-Za-z0-9_-]+$/

/**
 * Reads `mcpServers`: a list of server names and inline `{NAME: {...}}` servers. A malformed
 * entry is a problem naming it (`mcpServers[1].x.url`): started without it, the agent would lack
 * what its author wrote it for. `${VAR}` in an inline server is expanded when it starts.
 */
export function readMcpServers(value: unknown, sink: IssueSink): AgentMcpServer[] | undefined {
  if (value === undefined || value === null) return undefined
  const field = 'mcpServers'
  if (!Array.isArray(value)) {
    sink.problems.push({
      field,
      message: `expected a list of server names and inline servers ({name: {command, args}}), got ${JSON.stringify(value)}`
    })
    return undefined
  }
  const out: AgentMcpServer[] = []
  value.forEach((entry: unknown, i) => {
    const where = `${field}[${i}]`
    if (typeof entry === 'string' && NAME.test(entry)) return void out.push(entry)
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) {
      sink.problems.push({
        field: where,
        message: `expected a server name (letters, digits, _ and -) or {name: {command, args} | {type, url}}, got ${JSON.stringify(entry)}`
      })
      return
    }
    for (const [name, raw] of Object.entries(entry as Record<string, unknown>)) {
      if (!NAME.test(name)) {
        sink.problems.push({
          field: `${where}.${name}`,
          message: 'a server name may hold only letters, digits, _ and -'
        })
        continue
      }
      // the shape its keys say it is, so the problem names the field that is wrong, not the union
      const checked = checkServerDefinition(raw)
      if (checked.ok) out.push({ name, config: checked.config })
      else
        sink.problems.push({
          field: `${where}.${name}${checked.field ? `.${checked.field}` : ''}`,
          message: checked.message
        })
    }
  })
  return out
}
