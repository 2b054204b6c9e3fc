import type { TeamStorePort, TeamTransport } from '../teamStore'
import type { Budget } from '../loop'
import type { ModelClient } from '../model'
import type { PtyHost } from '../pty'
import type { LoadedSettings, PermissionPrompter } from '../permissions'
import type { EventBus } from '../events'
import type { PermissionMode } from '../../../shared/permissions'
import type { Tool } from '../tools'
import type { PermissionDecider } from '../runner'
import type { SessionSubagentOptions } from '../subagents'
import type { TeammateSupervisorOptions } from '../teammates'

/** The session's main agent is always named `team-lead` (docs/scenarios.md#scripted-model-scenarios), with or without a team. */
export const LEADER_NAME = 'team-lead'

/** Everything a {@link Session} is made of. The caller owns `client`, `bus`, `pty` and `prompter`. */
export interface SessionOptions {
  /** Workspace root, absolute and canonical. */
  cwd: string
  /** Swarmdesk's data directory (docs/storage.md#layout). */
  home: string
  /** Continue this session from its transcript instead of starting a new one. */
  resumeSessionId?: string
  model: string
  mode: PermissionMode
  /** Model requests allowed per prompt. */
  maxTurns?: number
  budget?: Budget
  client: ModelClient
  bus: EventBus
  prompter: PermissionPrompter
  engine: PermissionDecider
  pty: PtyHost
  tools: Tool[]
  /**
   * Called before each model request of the leader: the base tools (as `tools`) now, the same
   * array as long as they have not changed (a new one when an MCP server's list changed,
   * docs/tools.md#mcp-servers). The leader's next request and the forks it spawns from then on get
   * a new one. Each session opened with these options follows it on its own.
   */
  currentTools?: () => Promise<Tool[]>
  /**
   * Subagents (docs/agents.md#subagents): definitions and resolvers. When given, the leader gets the Agent,
   * TaskStop and SendMessage tools and the session runs their tasks.
   */
  /** Hook commands from settings, per source (docs/hooks.md#hooks); subagent hooks run when subagents are on. */
  hookSettings?: LoadedSettings['hooks']
  /**
   * Agent teams' teammates (docs/teams.md#agent-teams): the backends and how to reach the model. With subagents on,
   * the leader's Agent tool then spawns teammates for calls with a `name`.
   */
  teammates?: Omit<TeammateSupervisorOptions, 'cwd' | 'sessionId' | 'bus' | 'team' | 'prompter' | 'enqueue'>
  subagents?: SessionSubagentOptions
  /**
   * The team store the session's team lives on and its transport (docs/nats.md#configuration),
   * opened and closed by the caller; default the files of `home`.
   */
  teamStore?: { store: TeamStorePort; transport: TeamTransport }
}

/**
 * The user message that continues a resumed session whose history ends with the model's answer
 * (restore after restart, {@link Session.resumeTurn}): the process ended after the answer was
 * recorded but before the turn was over.
 */
export const RESUME_PROMPT =
  'The workspace restarted while you were working. Continue where you left off; check the state of anything you were changing before repeating it.'

/** Thrown when a session is asked for something its state does not allow now; the message says why and what to do. */
export class SessionStateError extends Error {
  override readonly name = 'SessionStateError'
}

/** Thrown when a session to resume does not exist or cannot be read. */
export class SessionNotFoundError extends Error {
  override readonly name = 'SessionNotFoundError'
}
