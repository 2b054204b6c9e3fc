import { ToolError, type AgentCall, type ParentAgent, type ToolResult } from '../tools'
import { WORKER_TYPE } from '../coordinator'
import { historyIsFork } from './fork'
import { MAX_AGENT_DEPTH } from '../agentDefinitions'
import type { SubagentRuntime } from './runtime'
import type { AgentTaskState } from './types'

/**
 * The fork path (docs/agents.md#forks). Two guards, each enough alone: the caller is a fork (its query
 * source, checked first in `call`), or its history carries a fork directive (a fork whose source
 * was lost).
 */
async function forkFrom(rt: SubagentRuntime, self: ParentAgent, input: AgentCall): Promise<ToolResult> {
  if (historyIsFork(self.forkSource().messages)) {
    throw new ToolError(
      'A fork cannot fork: carry out your directive yourself, or name a subagent_type to start a typed subagent.'
    )
  }
  const task = await rt.spawnFork({
    parent: self,
    description: input.description,
    directive: input.prompt,
    isolated: input.isolation === 'worktree'
  })
  return { content: asyncLaunchedText(task) }
}

/** The text of an async launch (docs/tools.md#tools, exact shape the scripted model relies on). */
export function asyncLaunchedText(task: AgentTaskState): string {
  return JSON.stringify({ status: 'async_launched', agentId: task.agentId, outputFile: task.transcriptPath })
}

function syncResult(task: AgentTaskState): ToolResult {
  const denied = task.denied.length
    ? `\n\nDenied tool calls (not performed):\n${task.denied.map((d) => `- ${d}`).join('\n')}`
    : ''
  const worktree = task.worktree?.kept
    ? `\n\nIts worktree was kept: ${task.worktree.path} (branch ${task.worktree.branch}).`
    : ''
  const tail = `${worktree}\n\nagentId: ${task.agentId}`
  if (task.status === 'killed')
    return {
      content: `Agent "${task.description}" was stopped before it finished.${task.finalText ? `\nLast words: ${task.finalText}` : ''}${denied}${tail}`,
      isError: true
    }
  if (task.status === 'failed')
    return {
      content: `Agent "${task.description}" failed.${task.finalText ? `\n${task.finalText}` : ''}${denied}${tail}`,
      isError: true
    }
  return { content: `${task.finalText || '(the agent ended without a final answer)'}${denied}${tail}` }
}

/**
 * Waits for a sync task; it moves to the background past the threshold (docs/agents.md#auto-background) or when a
 * person backgrounds it from its pane, and the parent then continues with `async_launched`.
 */
async function awaitSync(rt: SubagentRuntime, task: AgentTaskState): Promise<ToolResult> {
  const ms = rt.autoBackgroundMs
  let timer: NodeJS.Timeout | undefined
  const timedOut =
    ms > 0
      ? new Promise<'timeout'>((r) => (timer = setTimeout(() => r('timeout'), ms)))
      : new Promise<never>(() => undefined)
  let sub: { dispose(): void } | undefined
  const movedByHand = new Promise<'background'>((r) => {
    sub = rt.onDidChange(() => {
      if (task.isAsync && task.status === 'running') r('background')
    })
  })
  try {
    const outcome = await Promise.race([task.done.then(() => 'done' as const), timedOut, movedByHand])
    if (outcome !== 'done' && task.status === 'running') {
      rt.background(task.agentId)
      return { content: asyncLaunchedText(task) }
    }
    return syncResult(task)
  } finally {
    clearTimeout(timer)
    sub?.dispose()
  }
}

/**
 * An Agent call without `name` (docs/agents.md#routing-the-agent-tool, docs/agents.md#context-isolation, docs/agents.md#sync-and-background-runs, docs/agents.md#auto-background, docs/agents.md#forks, docs/agents.md#coordinator-mode): routes to a subagent of the named type
 * (default `general-purpose`, a worker in coordinator mode), sync (the parent waits for the final
 * text) or async (`async_launched` at once, a task notification later), or to a fork when forks
 * are on and no type is named. Every refusal happens before anything starts.
 * @throws ToolError for a refusal the caller can act on.
 */
export async function launchFromAgentCall(
  rt: SubagentRuntime,
  self: ParentAgent,
  input: AgentCall
): Promise<ToolResult> {
  // A fork keeps the Agent tool for prefix parity with its parent, but may not use it (docs/agents.md#forks).
  if (self.isFork) throw new ToolError('A fork cannot start agents: carry out your directive yourself and report back.')
  if (self.depth + 1 > MAX_AGENT_DEPTH)
    throw new ToolError(
      `Agents may nest at most ${MAX_AGENT_DEPTH} deep; this agent is at depth ${self.depth}. Do the work yourself.`
    )
  const coordinator = rt.options.coordinator === true && self.depth === 0
  if (coordinator && input.subagent_type !== undefined && input.subagent_type !== WORKER_TYPE) {
    throw new ToolError(
      `In coordinator mode you start workers only: omit subagent_type or use "${WORKER_TYPE}" (got "${input.subagent_type}").`
    )
  }
  // Coordinator mode wins over forks (docs/agents.md#forks, docs/agents.md#coordinator-mode).
  if (!coordinator && input.subagent_type === undefined && rt.options.forkEnabled) return forkFrom(rt, self, input)
  const type = input.subagent_type ?? (coordinator ? WORKER_TYPE : 'general-purpose')
  const definitions = rt.options.definitions()
  const definition = definitions.get(type)
  if (!definition)
    throw new ToolError(
      `Unknown subagent_type "${type}". Available types: ${[...definitions.keys()].sort().join(', ')}.`
    )
  const wantsBackground = input.run_in_background === true || definition.background
  if (wantsBackground && rt.options.backgroundDisabled) {
    if (input.run_in_background)
      throw new ToolError('Background agents are disabled in this session; call the agent without run_in_background.')
  }
  // With forks enabled every spawn runs in the background (docs/agents.md#sync-and-background-runs).
  const isAsync = (wantsBackground || rt.options.forkEnabled === true || coordinator) && !rt.options.backgroundDisabled
  const isolated = input.isolation === 'worktree' || definition.isolation === 'worktree'
  const task = await rt.spawn({
    parent: self,
    definition,
    description: input.description,
    prompt: input.prompt,
    model: input.model,
    isAsync,
    isolated
  })
  if (isAsync) return { content: asyncLaunchedText(task) }
  return awaitSync(rt, task)
}

/**
 * The agent type and model of a teammate spawned with `subagent_type` / `model` (docs/teams.md#spawning-a-teammate, docs/agents.md#agent-definitions's
 * model precedence; the `teammateModel` setting wins when set).
 * @throws ToolError for an unknown type, naming the known ones.
 */
export function teammateProfile(
  rt: SubagentRuntime,
  type: string,
  model: string | undefined,
  self: ParentAgent
): { agentType: string; model: string } {
  const definition = rt.options.definitions().get(type)
  if (!definition)
    throw new ToolError(
      `Unknown subagent_type "${type}". Available types: ${[...rt.options.definitions().keys()].sort().join(', ')}.`
    )
  return {
    agentType: type,
    model: (rt.options.resolveTeammateModel ?? rt.options.resolveModel)(definition, model, self.model).model
  }
}
