/**
 * Whether a rule's tool name covers the tool `name` (docs/permissions.md#mcp-tools): the same
 * name, or — as in Claude Code — a server-wide MCP rule: `mcp__server` and `mcp__server__*` cover
 * every `mcp__server__<tool>`, and never a tool of another server whose name merely starts the
 * same (`mcp__git` does not cover `mcp__github__x`).
 */
export function ruleCoversTool(ruleTool: string, name: string): boolean {
  if (ruleTool === name) return true
  if (!ruleTool.startsWith('mcp__') || !name.startsWith('mcp__')) return false
  const server = ruleTool.endsWith('__*') ? ruleTool.slice(0, -3) : ruleTool
  // a server rule has no `__` after its `mcp__` prefix (server names hold no `__`: docs/tools.md#mcp-servers)
  if (server.slice('mcp__'.length).includes('__')) return false
  return name.startsWith(`${server}__`)
}
