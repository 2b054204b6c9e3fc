// An MCP server over stdio, on the SDK's own server, that prints things other than JSON-RPC on its
// stdout, as badly behaved servers do (a banner, log lines): a banner before the handshake; `chatty
// {text}` prints a log line, then answers TEXT; `glued` prints text with no line end, so it is glued
// to the front of its own answer and that answer is lost to the client.
const { McpServer } = require('@modelcontextprotocol/sdk/server/mcp.js')
const { StdioServerTransport } = require('@modelcontextprotocol/sdk/server/stdio.js')
const { z } = require('zod')

process.stdout.write('Noisy server 1.0 starting...\n\u001b[32mready\u001b[0m\n')
const server = new McpServer({ name: 'noisy', version: '1.0.0' })
server.registerTool(
  'chatty',
  { description: 'Logs to stdout, then answers', inputSchema: { text: z.string() } },
  async ({ text }) => {
    process.stdout.write(`[log] chatty called with ${text}\n`)
    return { content: [{ type: 'text', text }] }
  }
)
server.registerTool('glued', { description: 'Prints without a line end, then answers' }, async () => {
  process.stdout.write('progress: 100%')
  return { content: [{ type: 'text', text: 'never seen' }] }
})
server.connect(new StdioServerTransport())
