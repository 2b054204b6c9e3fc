import { join } from 'node:path'
import { addUsage, ZERO_USAGE, type Usage } from '../../../shared/events'
import { COORDINATOR_READ_TOOLS } from '../coordinator'
import { createHookRunner, createSubagentHookPairing, SwappableHookRunner } from '../hooks'
import type { Budget } from '../loop'
import { priceOf } from '../model'
import type { ContentBlockParam, MessageParam } from '@anthropic-ai/sdk/resources/messages'
import {
  createPermissionGate,
  openingMessage,
  recordedNetworkAsker,
  toolSandbox,
  type PermissionRecord
} from '../runner'
import type { PermissionGate, QueryParams } from '../loop'
import { sessionDir } from '../storage'
import { SubagentRuntime } from '../subagents'
import { createTeamContext, type TeamContext } from '../teamStore'
import { TeammateSupervisor } from '../teammates'
import {
  AgentTool,
  bindTeamContext,
  LEADER_TEAM_TOOLS,
  SendMessageTool,
  TaskStopTool,
  type FileStateCache,
  type ParentAgent,
  type Tool
} from '../tools'
import type { AgentIdentity } from '../model'
import type { BackgroundShells } from '../pty'
import type { PermissionMode } from '../../../shared/permissions'
import { LEADER_NAME, type SessionOptions } from './options'

/** What a leader session runs besides its own turn; all undefined without subagents (the team and its tools come with them). */
export interface LeaderServices {
  /** One hook runner for the whole session, its hooks replaceable when project trust changes (Session.replaceHooks). */
  hookRunner: SwappableHookRunner | undefined
  /** The hook configuration's warnings, for the session's start. */
  hookWarnings: string[]
  subagents: SubagentRuntime | undefined
  team: TeamContext | undefined
  /** Only with `options.teammates`. */
  teammates: TeammateSupervisor | undefined
  /** The leader's permission gate: the engine, then the person through the prompter (docs/permissions.md#permissions). */
  gate: PermissionGate
}

/**
 * Builds a leader session's services (docs/agents.md#subagents, docs/teams.md#agent-teams): the
 * hook runner, the subagent runtime sharing the session's client, engine, prompter, PTY host and
 * budget, the team context and the teammates' supervisor. `enqueue` queues for the leader's next
 * turn; `recordPermission` is the session's decision log.
 */
export function createLeaderServices(
  options: SessionOptions,
  session: {
    sessionId: string
    transcriptPath: string
    budget: Budget
    enqueue: (text: string | readonly string[]) => void
    recordPermission: (entry: PermissionRecord) => void
    /** The leader's permission mode now. */
    mode: () => PermissionMode
    /** Rules a person allowed for the rest of the session. */
    sessionAllowRules: string[]
  }
): LeaderServices {
  const { sessionId } = session
  const gate = createPermissionGate({
    agentId: LEADER_NAME,
    agentName: LEADER_NAME,
    cwd: options.cwd,
    mode: session.mode,
    engine: options.engine,
    prompter: options.prompter,
    sessionAllowRules: session.sessionAllowRules,
    record: session.recordPermission
  })
  if (!options.subagents)
    return {
      hookRunner: undefined,
      hookWarnings: [],
      subagents: undefined,
      team: undefined,
      teammates: undefined,
      gate
    }
  const hookRunner = new SwappableHookRunner(
    createHookRunner({
      hooks: options.hookSettings ?? [],
      cwd: options.cwd,
      sessionId,
      transcriptPath: session.transcriptPath
    })
  )
  const subagents = new SubagentRuntime({
    ...options.subagents,
    hooks: createSubagentHookPairing(hookRunner),
    cwd: options.cwd,
    home: options.home,
    sessionId,
    bus: options.bus,
    client: options.client,
    engine: options.engine,
    prompter: options.prompter,
    pty: options.pty,
    budget: session.budget,
    toolPool: options.tools,
    recordPermission: session.recordPermission
  })
  // the team tools come with the agent tools: both need the session's services
  const team = createTeamContext({
    home: options.home,
    sessionId,
    bus: options.bus,
    leaderName: LEADER_NAME,
    teamFile: join(sessionDir(options.home, options.cwd, sessionId), 'team.json'),
    leaderLease: true,
    hooks: hookRunner,
    ...(options.teamStore ?? {})
  })
  const teammates = options.teammates
    ? new TeammateSupervisor({
        ...options.teammates,
        cwd: options.cwd,
        sessionId,
        bus: options.bus,
        team,
        prompter: options.prompter,
        enqueue: session.enqueue
      })
    : undefined
  return { hookRunner, hookWarnings: [...hookRunner.warnings], subagents, team, teammates, gate }
}

/**
 * The leader's tool context for one turn (docs/tools.md): its folder, file state and shells, and —
 * with subagents — the services the agent and team tools call (`self` is the leader as parent);
 * the Bash sandbox's settings when it is on (docs/sandbox.md).
 */
export function leaderToolContext(leader: {
  identity: AgentIdentity
  cwd: string
  fileState: FileStateCache
  pty: SessionOptions['pty']
  shells: BackgroundShells
  services: Pick<LeaderServices, 'subagents' | 'team' | 'teammates'>
  self: () => ParentAgent
  /** The Bash sandbox, when it is on (see toolSandbox in runner/sandboxContext.ts). */
  sandbox: Pick<QueryParams['toolContext'], 'sandbox'>
}): QueryParams['toolContext'] {
  const { subagents, team, teammates } = leader.services
  return {
    agentId: leader.identity.id,
    agentName: leader.identity.name,
    cwd: leader.cwd,
    fileState: leader.fileState,
    pty: leader.pty,
    shells: leader.shells,
    ...leader.sandbox,
    ...(subagents
      ? {
          services: {
            subagents,
            self: leader.self(),
            ...(team ? { team } : {}),
            ...(teammates ? { teammates } : {})
          }
        }
      : {})
  }
}

/** The leader's tools: docs/agents.md#coordinator-mode's coordinator set (read-only tools, Agent, SendMessage, TaskStop), else all of `tools` with the agent and team tools when there is a team. */
export function leaderTools(tools: readonly Tool[], team: TeamContext | undefined, coordinator: boolean): Tool[] {
  return coordinator
    ? [
        ...tools.filter((t) => (COORDINATOR_READ_TOOLS as readonly string[]).includes(t.name)),
        AgentTool,
        SendMessageTool,
        TaskStopTool
      ]
    : team
      ? [
          ...tools,
          AgentTool,
          TaskStopTool,
          ...[SendMessageTool, ...LEADER_TEAM_TOOLS].map((t) => bindTeamContext(t, team))
        ]
      : [...tools]
}

/** A session's usage and cost (docs/loop.md#usage-and-cost), summed over every model response of this process. */
export class UsageMeter {
  private total: Usage = { ...ZERO_USAGE }
  private cost = 0
  private readonly unpriced = new Set<string>()

  /** Sum of every response's usage. */
  get usage(): Usage {
    return this.total
  }

  /** Cost of {@link usage} in USD, from the price table. */
  get costUsd(): number {
    return this.cost
  }

  /** Counts one response; returns a warning the first time `model` has no known price (its cost counts as $0). */
  add(usage: Usage, cost: number, model: string): string | undefined {
    this.total = addUsage(this.total, usage)
    this.cost += cost
    if (priceOf(model) || this.unpriced.has(model)) return undefined
    this.unpriced.add(model)
    return `No price is known for model ${model}: its cost is counted as $0. Prices live in src/main/runtime/model/pricing.ts.`
  }
}

/**
 * The user message the leader's turn starts with, for the runner to record before its first model
 * request, and how many queued texts it takes. After a restart or a failed turn that left tool
 * calls unanswered (`repair`), their placeholder results lead it — on every path: a person's
 * prompt (`text`), a wake by a queued notification or teammate message, and Session.resumeTurn. A
 * wake's queued texts join that message (tool results first, as the API requires), so the repair
 * is one user message recorded once. Without a repair, only a prompt's text adds a message; queued
 * texts are left to the loop. Undefined when there is nothing to open with.
 */
export function turnOpening(
  repair: readonly ContentBlockParam[] | undefined,
  pending: readonly string[],
  text: string | undefined
): { message: MessageParam; queued: number } | undefined {
  const repairs = repair ?? []
  const texts = text !== undefined ? [text] : repairs.length > 0 ? [...pending] : []
  if (repairs.length === 0 && texts.length === 0) return undefined
  return { message: openingMessage(repairs, texts), queued: text === undefined ? texts.length : 0 }
}

/**
 * The leader's Bash sandbox context (docs/sandbox.md): empty when the sandbox is off; else its
 * settings, temp folder and network proxy, whose unknown hosts ask the session's prompter, shown
 * on the bus and recorded with `record` like the leader's other permission requests.
 */
export function leaderSandbox(
  options: SessionOptions,
  sessionId: string,
  record: (entry: PermissionRecord) => void
): Pick<QueryParams['toolContext'], 'sandbox'> {
  return toolSandbox(options.engine.settings, sessionId, options.cwd, {
    agentId: LEADER_NAME,
    agentName: LEADER_NAME,
    ask: recordedNetworkAsker(options.prompter, options.bus, record)
  })
}
