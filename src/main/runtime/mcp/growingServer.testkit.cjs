// An MCP server over stdio, on the SDK's own server, whose tool list grows while it runs: its
// `add_tool {name, reply}` registers a tool NAME answering REPLY, and the SDK then sends
// `notifications/tools/list_changed`. server-everything sends that notification only at start-up,
// for tools that depend on client capabilities Swarmdesk does not declare; tests of the
// list-changed refresh need a list that changes on cue.
const { McpServer } = require('@modelcontextprotocol/sdk/server/mcp.js')
const { StdioServerTransport } = require('@modelcontextprotocol/sdk/server/stdio.js')
const { z } = require('zod')

const server = new McpServer({ name: 'growing', version: '1.0.0' }, { capabilities: { tools: { listChanged: true } } })
server.registerTool(
  'add_tool',
  { description: 'Adds a tool to this server', inputSchema: { name: z.string(), reply: z.string() } },
  async ({ name, reply }) => {
    server.registerTool(name, { description: `Answers ${reply}` }, async () => ({
      content: [{ type: 'text', text: reply }]
    }))
    return { content: [{ type: 'text', text: `added ${name}` }] }
  }
)
server.connect(new StdioServerTransport())
