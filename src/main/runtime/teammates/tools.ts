import {
  AgentTool,
  ASYNC_ALLOWED_TOOL_NAMES,
  CORE_TOOLS,
  createSendMessageTool,
  TaskCreateTool,
  TaskGetTool,
  TaskListTool,
  TaskUpdateTool,
  ToolError,
  type AgentInput,
  type AgentServices,
  type Tool
} from '../tools'
import type { TeamContext } from '../teamStore'

/** What {@link teammateTools} needs: who the teammate is, its team, and how it answers a shutdown request. */
export interface TeammateToolsOptions {
  /** The teammate's agent id (`name@team`): its Agent tool tells its own calls from its subagents'. */
  teammateId: string
  /** The leader's name. */
  leader: string
  team: TeamContext
  /** Records a `shutdown_response` approving (see SendMessagePort.approveShutdown). */
  approveShutdown: (requestId: string) => string
  /** Counts a `shutdown_response` rejecting that was sent. */
  onShutdownRejected: () => void
  /** ExitPlanMode when the teammate must have its plan approved (docs/teams.md#plan-approval), else empty. */
  plan: Tool[]
}

/**
 * A teammate's tools (docs/agents.md#agent-definitions, docs/teams.md#spawning-a-teammate), in the
 * order the model sees them: the core tools a background agent may use, its Agent tool (sync
 * subagents only), SendMessage to its team's members and the task tools — those bound to its team —
 * then ExitPlanMode, present or not, last.
 */
export function teammateTools(o: TeammateToolsOptions): Tool[] {
  const core = CORE_TOOLS.filter((t) => ASYNC_ALLOWED_TOOL_NAMES.includes(t.name))
  // the leader's SendMessage, for members of its team only: a shutdown approval is carried out by the runner
  const sendMessage = createSendMessageTool({
    description: TEAMMATE_SEND_MESSAGE_DESCRIPTION,
    subagents: false,
    approveShutdown: o.approveShutdown,
    onShutdownRejected: o.onShutdownRejected
  }) as Tool
  return [
    ...core,
    teammateAgentTool(o.teammateId, o.leader) as Tool,
    ...[sendMessage, ...TEAMMATE_TASK_TOOLS].map((t) => withTeam(t, o.team)),
    ...o.plan
  ]
}

/** What a teammate's SendMessage says (docs/teams.md#sendmessage-between-teammates: members of its team only). */
const TEAMMATE_SEND_MESSAGE_DESCRIPTION =
  'Send a message to a member of your team by name (team-lead, a teammate), or "*" for every member. Your plain text output is not seen by others: this is how you talk to them. Answer a shutdown_request with a shutdown_response to team-lead.'

/** What the Agent tool of a teammate says (docs/agents.md#agent-definitions: sync subagents only, never teammates). */
const TEAMMATE_AGENT_DESCRIPTION =
  'Start a subagent to work on a task in its own context and report back: you wait for it and get its final answer as the result. Use it to explore or search broadly, to run independent pieces of your work in parallel (several Agent calls in one message run concurrently), or to check work with a fresh eye. Give a complete, self-contained prompt: the agent sees nothing of this conversation. subagent_type picks the kind of agent (general-purpose by default). As a teammate you start sync subagents only: no run_in_background, and no `name` — teammates cannot spawn teammates (only the team lead adds members).'

/**
 * The Agent tool of a teammate (docs/agents.md#agent-definitions, docs/teams.md#spawning-a-teammate): sync subagents only. The leader's {@link AgentTool}
 * on the teammate's own runtime (background work disabled, no forks), after two refusals made
 * before anything starts: `name` or `team_name` (teammates cannot spawn teammates: the roster is
 * flat) and `run_in_background: true`. The input schema is the leader's, so these fields reach
 * the refusal instead of being stripped. A subagent given `Agent` by its definition (nesting,
 * docs/agents.md#agent-definitions) gets this same tool, so the refusals hold at every depth.
 */
function teammateAgentTool(teammateId: string, leader: string): Tool<AgentInput> {
  return {
    ...AgentTool,
    description: TEAMMATE_AGENT_DESCRIPTION,
    async call(input, ctx) {
      const byTeammate = ctx.services?.self.agentId === teammateId
      if (input.name !== undefined || input.team_name !== undefined) {
        throw new ToolError(
          byTeammate
            ? `Teammates cannot spawn teammates: the team's roster is flat and only ${leader} adds members. Omit \`name\` to start a sync subagent, or ask ${leader} with SendMessage for another teammate.`
            : `A teammate's subagent cannot spawn teammates: the team's roster is flat and only ${leader} adds members. Omit \`name\` to start a sync subagent.`
        )
      }
      if (input.run_in_background === true) {
        throw new ToolError(
          'Teammates may spawn sync subagents only: call the agent without run_in_background, and its final answer comes back as the result.'
        )
      }
      return AgentTool.call(input, ctx)
    }
  }
}

/** A teammate's tools its subagents never get: they act in the teammate's name as a member of the team. */
export const MEMBER_ONLY_TOOLS: readonly string[] = [
  'SendMessage',
  'TaskCreate',
  'TaskGet',
  'TaskList',
  'TaskUpdate',
  'ExitPlanMode'
]

/** The task tools of a teammate (docs/agents.md#agent-definitions), offered after SendMessage in this order. */
const TEAMMATE_TASK_TOOLS: readonly Tool[] = [TaskCreateTool, TaskGetTool, TaskListTool, TaskUpdateTool]

/**
 * `tool` with the teammate's team as its context. The team tools reach their team through
 * `ctx.services.team` only (never the subagent runtime or the parent: a teammate has neither),
 * so the services carry just the team.
 */
function withTeam<I>(tool: Tool<I>, team: TeamContext): Tool<I> {
  const services = { team } as unknown as AgentServices
  return { ...tool, call: (input, ctx) => tool.call(input, { ...ctx, services }) }
}
