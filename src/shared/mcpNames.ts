/**
 * The server and tool of an MCP tool name, `mcp__<server>__<tool>` (docs/tools.md#mcp-servers);
 * `tool` is undefined for a server-wide name (`mcp__server`, as permission rules write it).
 * Undefined for any other name. Server names hold no `__`, so the first `__` after the server
 * ends it (a tool name may hold `__`).
 */
export function parseMcpToolName(name: string): { server: string; tool: string | undefined } | undefined {
  const m = /^mcp__(.+?)(?:__(.+))?$/.exec(name)
  return m ? { server: m[1]!, tool: m[2] } : undefined
}
