import type { PtyHost } from '../pty'
import type { EventBus } from '../events'
import type { Budget } from '../loop'
import type { ModelClient } from '../model'
import type { PermissionPrompter } from '../permissions'
import type { PermissionDecider, PermissionRecord, ProjectContext } from '../runner'
import type { ParentAgent, Tool } from '../tools'
import type { SubagentHookPairing } from '../hooks'
import type { SubagentDefinition } from './types'

/*
 * The configuration of a session's subagent runtime (docs/agents.md#subagents): what it shares
 * with the session, its bounds, and what a spawn asks for. The runtime itself is runtime.ts.
 */

/** A sync subagent still running after this long moves to the background (docs/agents.md#auto-background), ms. */
export const DEFAULT_AUTO_BACKGROUND_MS = 120_000

/**
 * Subagents and forks one session may have running at once (issue 10: a model that keeps spawning
 * agents is stopped by the depth cap and by this). Swarmdesk's own bound, above the 32 concurrent
 * background agents `bench/subagents` measures; `SWARMDESK_MAX_CONCURRENT_AGENTS` changes it.
 */
export const DEFAULT_MAX_CONCURRENT_AGENTS = 64

/** Everything the subagent runtime of one session shares. */
export interface SubagentRuntimeOptions {
  cwd: string
  home: string
  sessionId: string
  bus: EventBus
  client: ModelClient
  engine: PermissionDecider
  /** The leader's prompter: background agents' questions bubble here, tagged with the agent. */
  prompter: PermissionPrompter
  pty: PtyHost
  budget: Budget
  /** The definitions in force (docs/agents.md#agent-definitions), by name. */
  definitions: () => ReadonlyMap<string, SubagentDefinition>
  /** A child's tools from its definition and its parent's tools (docs/agents.md#agent-definitions filtering order). */
  resolveTools: (
    definition: SubagentDefinition,
    parentTools: readonly Tool[],
    isAsync: boolean,
    depth: number
  ) => Tool[]
  /** The effective model and what decided it (docs/agents.md#agent-definitions precedence). */
  resolveModel: (
    definition: SubagentDefinition,
    argument: string | undefined,
    parentModel: string
  ) => { model: string; source: string }
  /** A teammate's model (the `teammateModel` setting); absent = {@link resolveModel}. */
  resolveTeammateModel?: (
    definition: SubagentDefinition,
    argument: string | undefined,
    parentModel: string
  ) => { model: string; source: string }
  /** 0 = never auto-background. Default {@link DEFAULT_AUTO_BACKGROUND_MS}. */
  autoBackgroundMs?: number
  /** Agents running at once before a new spawn is refused. Default {@link DEFAULT_MAX_CONCURRENT_AGENTS}. */
  maxConcurrentAgents?: number
  /** Background agents' permission questions go to the leader's queue (true, default) or are denied. */
  bubblePermissions?: boolean
  /**
   * No agent may run in the background (docs/agents.md#sync-and-background-runs "unless background work is disabled"): every
   * spawn is sync, and a sync agent is never moved to the background — neither by the
   * auto-background timer (docs/agents.md#auto-background, {@link SubagentRuntime.autoBackgroundMs} is then 0) nor by
   * {@link SubagentRuntime.background}. A teammate's runtime sets it: teammates may spawn sync
   * subagents only (docs/teams.md#spawning-a-teammate).
   */
  backgroundDisabled?: boolean
  /** SubagentStart/SubagentStop hooks (docs/hooks.md#hooks), paired once per agent. */
  hooks?: SubagentHookPairing
  /** The workspace's project context as the leader read it at session start; children reuse it. */
  projectContext?: ProjectContext
  /** Fork subagents (docs/agents.md#forks): an Agent call without subagent_type forks, and every spawn runs in the background. */
  forkEnabled?: boolean
  /** Coordinator mode (docs/agents.md#coordinator-mode): the leader starts only `worker` agents, always in the background; forks are off. */
  coordinator?: boolean
  /** The session's own tools: a coordinator's workers take theirs from here, not from the coordinator's short list. */
  toolPool?: readonly Tool[]
  /** The session's permission decision log (docs/permissions.md#permissions: every decision is recorded). */
  recordPermission?: (entry: PermissionRecord) => void
}

/** A fork's turn cap (docs/agents.md#forks). */
export const FORK_MAX_TURNS = 200

/** What {@link SubagentRuntime.spawn} needs. */
export interface SpawnSpec {
  parent: ParentAgent
  definition: SubagentDefinition
  description: string
  prompt: string
  model?: string
  isAsync: boolean
  /** Run in its own git worktree (docs/agents.md#worktree-isolation). */
  isolated?: boolean
}
