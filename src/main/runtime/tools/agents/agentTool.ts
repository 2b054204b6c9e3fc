import { z } from 'zod'
import { sanitizeName } from '../../../../shared/teams'
import { teammateMode } from '../../permissions'
import { LEAD_NAME } from '../../teams'
import { ToolError, type Tool, type ToolContext, type ToolResult } from '../types'

/** Claude Code's Agent tool input (docs/tools.md#tools). */
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
  backend: z.enum(['worker', 'process']).optional(),
  host: z
    .string()
    .optional()
    .describe('With name: a host of the teammateHosts setting to run the teammate on, over SSH (process backend)')
})
export type AgentInput = z.infer<typeof AgentInputSchema>

function services(ctx: ToolContext) {
  if (!ctx.services) throw new ToolError('The Agent tool is not available to this agent.')
  return ctx.services
}

/**
 * The teammate path (docs/teams.md#spawning-a-teammate): Agent with `name` spawns a named teammate into the caller's team
 * on the `backend` asked for (else the setting). Only the team lead spawns teammates (a flat
 * roster); `mode: "plan"` means its plan needs approval first.
 */
async function spawnTeammate(ctx: ToolContext, input: AgentInput): Promise<ToolResult> {
  const { subagents: rt, self, team, teammates } = services(ctx)
  if (self.depth !== 0 || self.isFork)
    throw new ToolError(
      'Only the team lead spawns teammates (the roster is flat). Omit `name` to start a subagent, or ask the team lead with SendMessage.'
    )
  if (!teammates || !team)
    throw new ToolError('Teammates are not available in this session. Omit `name` to start a subagent.')
  const current = team.team()
  if (!current)
    throw new ToolError(
      'Spawning a teammate needs a team: create one with TeamCreate first, or omit `name` to start a subagent.'
    )
  if (input.team_name !== undefined && sanitizeName(input.team_name) !== current)
    throw new ToolError(`You lead team '${current}', not '${input.team_name}': omit team_name or use '${current}'.`)
  const name = sanitizeName(input.name ?? '')
  if (!name || name === LEAD_NAME)
    throw new ToolError(
      `"${input.name}" cannot name a teammate: use letters, digits and dashes, and not "${LEAD_NAME}".`
    )
  const { agentType, model } = rt.teammateProfile(input.subagent_type ?? 'general-purpose', input.model, self)
  let spawned
  try {
    const mode = teammateMode(input.mode, self.mode())
    spawned = await teammates.spawn({
      name,
      prompt: input.prompt,
      description: input.description,
      agentType,
      model,
      mode,
      ...(input.backend ? { backend: input.backend } : {}),
      ...(input.host ? { host: input.host } : {})
    })
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
 * The Agent tool (docs/agents.md#routing-the-agent-tool, docs/agents.md#context-isolation, docs/agents.md#sync-and-background-runs, docs/agents.md#auto-background): routes to a subagent of the named type (default
 * `general-purpose`), sync (the parent waits for the final text) or async (`async_launched` at
 * once, a task notification later). Every refusal happens before anything starts.
 */
export const AgentTool: Tool<AgentInput> = {
  name: 'Agent',
  description:
    'Start a subagent to work on a task in its own context and report back. Use it to explore or search broadly, to run independent pieces of work in parallel (several Agent calls in one message run concurrently), or to verify work with a fresh eye. Give a complete, self-contained prompt: the agent sees nothing of this conversation. subagent_type picks the kind of agent (general-purpose by default). With run_in_background the call returns at once and a <task-notification> arrives when the agent ends; otherwise you get its final answer as the result. After TeamCreate, a call with `name` spawns a named teammate instead: it works in parallel in its own pane on the shared task list, on the `backend` you pick (worker or process) or on a `host` of the teammateHosts setting, and talks to you with SendMessage; `mode: "plan"` makes it get your approval of its plan before it changes anything.',
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
    ...(input.name !== undefined && (input.mode === 'bypassPermissions' || input.mode === 'acceptEdits')
      ? { grantsMode: input.mode }
      : {})
  }),
  async call(input, ctx) {
    if (input.name !== undefined) return spawnTeammate(ctx, input)
    if (input.team_name !== undefined)
      throw new ToolError(
        '`team_name` goes with `name`: give the teammate a name to spawn it into your team, or omit both to start a subagent.'
      )
    if (input.host !== undefined)
      throw new ToolError(
        '`host` goes with `name`: only a teammate runs on another host (docs/hosts.md). Give it a name to spawn it there, or omit host to start a subagent here.'
      )
    const { subagents, self } = services(ctx)
    const { description, prompt, subagent_type, model, run_in_background, isolation } = input
    return subagents.launch(
      {
        description,
        prompt,
        ...(subagent_type !== undefined ? { subagent_type } : {}),
        ...(model !== undefined ? { model } : {}),
        ...(run_in_background !== undefined ? { run_in_background } : {}),
        ...(isolation ? { isolation } : {})
      },
      self
    )
  }
}
