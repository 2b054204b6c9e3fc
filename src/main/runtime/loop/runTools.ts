import type { ToolResultBlockParam } from '@anthropic-ai/sdk/resources/messages'
import { ToolError, type Tool, type ToolResult } from '../tools'
import type { LoopEvent, QueryParams } from './types'

/** One tool_use block of an assistant message. */
export interface ToolUse {
  id: string
  name: string
  input: unknown
}

/**
 * Executes the tool calls of one assistant message (docs/loop.md#the-agent-loop): consecutive concurrency-safe calls
 * run in parallel, every other call runs alone, in order. Results come back in the order of the
 * calls. A failure the model can act on becomes an `is_error` result; an unexpected exception is
 * a bug and rejects.
 */
export async function runToolUses(
  uses: ToolUse[],
  params: QueryParams,
  emit: (event: LoopEvent) => void
): Promise<ToolResultBlockParam[]> {
  const results: ToolResultBlockParam[] = []
  for (const batch of partition(uses, params.tools)) {
    const settled = await Promise.all(batch.map((use) => runOne(use, params, emit)))
    results.push(...settled)
  }
  return results
}

/** Groups calls: a run of concurrency-safe calls forms one batch; any other call is a batch of one. */
function partition(uses: ToolUse[], tools: Tool[]): ToolUse[][] {
  const batches: ToolUse[][] = []
  for (const use of uses) {
    const safe = isSafe(use, tools)
    const last = batches[batches.length - 1]
    if (safe && last && last.every((u) => isSafe(u, tools))) last.push(use)
    else batches.push([use])
  }
  return batches
}

function isSafe(use: ToolUse, tools: Tool[]): boolean {
  const tool = tools.find((t) => t.name === use.name)
  if (!tool) return true
  const parsed = tool.inputSchema.safeParse(use.input)
  return parsed.success && tool.isConcurrencySafe(parsed.data)
}

async function runOne(
  use: ToolUse,
  params: QueryParams,
  emit: (event: LoopEvent) => void
): Promise<ToolResultBlockParam> {
  emit({ type: 'tool_call', toolUseId: use.id, name: use.name, input: use.input })
  const finish = (
    content: string,
    isError: boolean,
    blocks?: ToolResult['blocks'],
    sandbox?: ToolResult['sandbox']
  ): ToolResultBlockParam => {
    emit({ type: 'tool_result', toolUseId: use.id, isError, output: content, ...(sandbox ? { sandbox } : {}) })
    return {
      type: 'tool_result',
      tool_use_id: use.id,
      content: blocks ?? content,
      ...(isError ? { is_error: true } : {})
    }
  }
  const tool = params.tools.find((t) => t.name === use.name)
  if (!tool) {
    return finish(`No such tool: ${use.name}. Available tools: ${params.tools.map((t) => t.name).join(', ')}.`, true)
  }
  const parsed = tool.inputSchema.safeParse(use.input)
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join('.') || '(input)'}: ${i.message}`).join('; ')
    return finish(`Invalid input for ${tool.name}: ${issues}. Fix the input and call the tool again.`, true)
  }
  if (params.signal.aborted) return finish('Not run: the agent was stopped before this call started.', true)
  const gate = await params.gate({ tool, input: parsed.data, toolUseId: use.id }, emit, params.signal)
  if (gate.behavior === 'deny') return finish(gate.message, true)
  try {
    const result = await tool.call(parsed.data, {
      ...params.toolContext,
      signal: params.signal,
      toolUseId: use.id,
      onOutput: (data) => emit({ type: 'tool_output', toolUseId: use.id, data }),
      sideModel: {
        client: params.client,
        recordUsage: (usage, costUsd, model) => {
          params.budget?.add(costUsd)
          params.onUsage?.(usage, costUsd, model)
          emit({ type: 'usage', ...usage, model, costUsd })
        }
      }
    })
    return finish(result.content, result.isError === true, result.blocks, result.sandbox)
  } catch (error) {
    if (error instanceof ToolError) return finish(error.message, true)
    if (isSystemError(error)) return finish(`${tool.name} failed: ${error.message}`, true)
    throw error
  }
}

/** Node's file-system and process errors (ENOENT, EACCES, EISDIR…): the model can act on them. */
function isSystemError(error: unknown): error is NodeJS.ErrnoException {
  return (
    error instanceof Error &&
    typeof (error as NodeJS.ErrnoException).code === 'string' &&
    /^E[A-Z]+$/.test((error as NodeJS.ErrnoException).code!)
  )
}
