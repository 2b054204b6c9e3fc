import { z } from 'zod'
import { ToolError, type Tool, type ToolContext, type ToolResult } from '../tools/types'
import { MAX_AGENT_DEPTH, type SubagentRuntime } from './runtime'
import type { AgentTaskState, ParentAgent } from './types'
import { historyIsFork } from './fork'
import { WORKER_TYPE } from '../coordinator'
import { sanitizeName } from '../../../shared/teams'
import { LEAD_NAME } from '../teams'
import { teammateMode } from '../teammates/supervisor'

/** Claude Code's Agent tool input (SPEC §3). */
export const AgentInputSchema = z.object({
  description: z.string().min(1).describe('A short (3-5 word) description of the task'),
  prompt: z.string().min(1).describe('The task for the agent to perform'),
  subagent_type: z.string().optional().describe('The type of agent to use (default general-purpose)'),
  model: z.string().optional().describe('Model for this agent: an alias (opus, sonnet, haiku) or a model id'),
  run_in_background: z.boolean().optional().describe('Run in the background; you get a task notification when it ends'),
  name: z.string().optional().describe('Spawn a named teammate in your team instead of a subagent'),
  team_name: z.string().optional(),
  mode: z.string().optional(),
  isolation: z.literal('worktree').optional().describe('Run in its own git worktree'),
  backend: z.enum(['worker', 'process']).optional()
})
export type AgentInput = z.infer<typeof AgentInputSchema>

function services(ctx: ToolContext) {
  if (!ctx.services) throw new ToolError('The Agent tool is not available to this agent.')
  return ctx.services
}

/**
 * The fork path (SPEC §7). Two guards, each enough alone: the caller is a fork (its query
 * source, checked first in `call`), or its history carries a fork directive (a fork whose source
 * was lost).
 */
async function forkFrom(rt: SubagentRuntime, self: ParentAgent, input: AgentInput): Promise<ToolResult> {
  if (historyIsFork(self.forkSource().messages)) {
    throw new ToolError('A fork cannot fork: carry out your directive yourself, or name a subagent_type to start a typed subagent.')
  }
  const task = await rt.spawnFork({ parent: self, description: input.description, directive: input.prompt, isolated: input.isolation === 'worktree' })
  return { content: asyncLaunchedText(task) }
}

/** The text of an async launch (SPEC §3, exact shape the scripted model relies on). */
export function asyncLaunchedText(task: AgentTaskState): string {
  return JSON.stringify({ status: 'async_launched', agentId: task.agentId, outputFile: task.transcriptPath })
}

function syncResult(task: AgentTaskState): ToolResult {
  const denied = task.denied.length ? `\n\nDenied tool calls (not performed):\n${task.denied.map((d) => `- ${d}`).join('\n')}` : ''
  const worktree = task.worktree?.kept ? `\n\nIts worktree was kept: ${task.worktree.path} (branch ${task.worktree.branch}).` : ''
  const tail = `${worktree}\n\nagentId: ${task.agentId}`
  if (task.status === 'killed') return { content: `Agent "${task.description}" was stopped before it finished.${task.finalText ? `\nLast words: ${task.finalText}` : ''}${denied}${tail}`, isError: true }
  if (task.status === 'failed') return { content: `Agent "${task.description}" failed.${task.finalText ? `\n${task.finalText}` : ''}${denied}${tail}`, isError: true }
  return { content: `${task.finalText || '(the agent ended without a final answer)'}${denied}${tail}` }
}

/**
 * Waits for a sync task; it moves to the background past the threshold (SPEC §6.4) or when a
 * person backgrounds it from its pane, and the parent then continues with `async_launched`.
 */
async function awaitSync(rt: SubagentRuntime, task: AgentTaskState): Promise<ToolResult> {
  const ms = rt.autoBackgroundMs
  let timer: NodeJS.Timeout | undefined
  const timedOut = ms > 0 ? new Promise<'timeout'>((r) => (timer = setTimeout(() => r('timeout'), ms))) : new Promise<never>(() => undefined)
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
 * The teammate path (SPEC §9.2): Agent with `name` spawns a named teammate into the caller's team
 * on the `backend` asked for (else the setting). Only the team lead spawns teammates (a flat
 * roster); `mode: "plan"` means its plan needs approval first.
 */
async function spawnTeammate(ctx: ToolContext, input: AgentInput): Promise<ToolResult> {
  const { subagents: rt, self, team, teammates } = services(ctx)
  if (self.depth !== 0 || self.isFork) throw new ToolError('Only the team lead spawns teammates (the roster is flat). Omit `name` to start a subagent, or ask the team lead with SendMessage.')
  if (!teammates || !team) throw new ToolError('Teammates are not available in this session. Omit `name` to start a subagent.')
  const current = team.team()
  if (!current) throw new ToolError('Spawning a teammate needs a team: create one with TeamCreate first, or omit `name` to start a subagent.')
  if (input.team_name !== undefined && sanitizeName(input.team_name) !== current) throw new ToolError(`You lead team '${current}', not '${input.team_name}': omit team_name or use '${current}'.`)
  const name = sanitizeName(input.name ?? '')
  if (!name || name === LEAD_NAME) throw new ToolError(`"${input.name}" cannot name a teammate: use letters, digits and dashes, and not "${LEAD_NAME}".`)
  const type = input.subagent_type ?? 'general-purpose'
  const definition = rt.options.definitions().get(type)
  if (!definition) throw new ToolError(`Unknown subagent_type "${type}". Available types: ${[...rt.options.definitions().keys()].sort().join(', ')}.`)
  let spawned
  try {
    const mode = teammateMode(input.mode, self.mode())
    const { model } = (rt.options.resolveTeammateModel ?? rt.options.resolveModel)(definition, input.model, self.model)
    spawned = await teammates.spawn({ name, prompt: input.prompt, description: input.description, agentType: type, model, mode, ...(input.backend ? { backend: input.backend } : {}) })
  } catch (error) {
    if (error instanceof ToolError) throw error
    throw new ToolError((error as Error).message)
  }
  return {
    content: [
      `Spawned teammate ${spawned.name} (${spawned.agentId}) on the ${spawned.backend} backend; your prompt is in its inbox.`,
      `It reports with SendMessage and goes idle when its turn ends; its messages and idle notifications reach you as <teammate-message> elements. Message it with SendMessage (to: "${spawned.name}"), and ask it to shut down with a shutdown_request when its work is done.`
    ].join('\n')
  }
}

/**
 * The Agent tool (SPEC §6.1–6.4): routes to a subagent of the named type (default
 * `general-purpose`), sync (the parent waits for the final text) or async (`async_launched` at
 * once, a task notification later). Every refusal happens before anything starts.
 */
export const AgentTool: Tool<AgentInput> = {
  name: 'Agent',
  description:
    'Start a subagent to work on a task in its own context and report back. Use it to explore or search broadly, to run independent pieces of work in parallel (several Agent calls in one message run concurrently), or to verify work with a fresh eye. Give a complete, self-contained prompt: the agent sees nothing of this conversation. subagent_type picks the kind of agent (general-purpose by default). With run_in_background the call returns at once and a <task-notification> arrives when the agent ends; otherwise you get its final answer as the result. After TeamCreate, a call with `name` spawns a named teammate instead: it works in parallel in its own pane on the shared task list, on the `backend` you pick (worker or process), and talks to you with SendMessage; `mode: "plan"` makes it get your approval of its plan before it changes anything.',
  inputSchema: AgentInputSchema,
  isReadOnly: () => true,
  isConcurrencySafe: () => true,
  // Starting agents changes nothing by itself, except a teammate spawned into bypassPermissions:
  // it would do without asking what its spawner must ask for, so that spawn is decided like a
  // write (asks in default mode, refused in plan and dontAsk, allowed in bypassPermissions).
  // Starting an agent only reads; spawning a teammate into a more permissive mode than its
  // spawner's is an escalation the engine asks about (SECURITY.md "Modes granted through started agents").
  permissionSubject: (input) => ({
    kind: 'tool',
    specifier: input.subagent_type ?? 'general-purpose',
    readOnly: true,
    ...(input.name !== undefined && (input.mode === 'bypassPermissions' || input.mode === 'acceptEdits') ? { grantsMode: input.mode } : {})
  }),
  async call(input, ctx) {
    const { subagents: rt, self } = services(ctx)
    if (input.name !== undefined) return spawnTeammate(ctx, input)
    if (input.team_name !== undefined) throw new ToolError('`team_name` goes with `name`: give the teammate a name to spawn it into your team, or omit both to start a subagent.')
    // A fork keeps the Agent tool for prefix parity with its parent, but may not use it (SPEC §7).
    if (self.isFork) throw new ToolError('A fork cannot start agents: carry out your directive yourself and report back.')
    if (self.depth + 1 > MAX_AGENT_DEPTH) throw new ToolError(`Agents may nest at most ${MAX_AGENT_DEPTH} deep; this agent is at depth ${self.depth}. Do the work yourself.`)
    const coordinator = rt.options.coordinator === true && self.depth === 0
    if (coordinator && input.subagent_type !== undefined && input.subagent_type !== WORKER_TYPE) {
      throw new ToolError(`In coordinator mode you start workers only: omit subagent_type or use "${WORKER_TYPE}" (got "${input.subagent_type}").`)
    }
    // Coordinator mode wins over forks (SPEC §7, §10).
    if (!coordinator && input.subagent_type === undefined && rt.options.forkEnabled) return forkFrom(rt, self, input)
    const type = input.subagent_type ?? (coordinator ? WORKER_TYPE : 'general-purpose')
    const definitions = rt.options.definitions()
    const definition = definitions.get(type)
    if (!definition) throw new ToolError(`Unknown subagent_type "${type}". Available types: ${[...definitions.keys()].sort().join(', ')}.`)
    const wantsBackground = input.run_in_background === true || definition.background
    if (wantsBackground && rt.options.backgroundDisabled) {
      if (input.run_in_background) throw new ToolError('Background agents are disabled in this session; call the agent without run_in_background.')
    }
    // With forks enabled every spawn runs in the background (SPEC §6.3).
    const isAsync = (wantsBackground || rt.options.forkEnabled === true || coordinator) && !rt.options.backgroundDisabled
    const isolated = input.isolation === 'worktree' || definition.isolation === 'worktree'
    const task = await rt.spawn({ parent: self, definition, description: input.description, prompt: input.prompt, model: input.model, isAsync, isolated })
    if (isAsync) return { content: asyncLaunchedText(task) }
    return awaitSync(rt, task)
  }
}
