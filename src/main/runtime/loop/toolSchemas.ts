import { z } from 'zod'
import type { Tool as ApiTool } from '@anthropic-ai/sdk/resources/messages'
import type { Tool } from '../tools'

const cache = new WeakMap<Tool, ApiTool>()

/**
 * The API's tool definition for `tool`: name, description and the JSON Schema of its zod input
 * schema (`z.toJSONSchema`, input side, draft 2020-12 without `$schema`). Memoised per tool
 * object, so every request of a session sends byte-identical tool definitions (prompt cache).
 */
export function apiToolOf(tool: Tool): ApiTool {
  let api = cache.get(tool)
  if (!api) {
    const { $schema: _ignored, ...schema } = z.toJSONSchema(tool.inputSchema, { io: 'input' }) as Record<
      string,
      unknown
    >
    api = { name: tool.name, description: tool.description, input_schema: schema as ApiTool['input_schema'] }
    cache.set(tool, api)
  }
  return api
}
