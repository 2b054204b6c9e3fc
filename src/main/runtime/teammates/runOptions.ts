import type { Disposable } from '../base'
import type { EventBus } from '../events'
import type { ModelFetch } from '../model'
import type { PermissionPrompter } from '../permissions'
import type { PtyHost } from '../pty'
import type { ProjectContext } from '../runner'
import type { TeamStorePort } from '../teamStore'
import type { TeammateMcpHost } from './mcp'

/** Options of `runTeammate` (runner.ts). */
export interface TeammateRunOptions {
  /** Swarmdesk's data directory (docs/storage.md#layout). */
  home: string
  team: string
  /** The member's name in the team config (`alice`); the agent id is `name@team`. */
  name: string
  /** Working directory; default the member's `cwd` in the team config. */
  cwd?: string
  /** docs/design.md#process-model's variables: ANTHROPIC_*, SWARMDESK_SESSION_ID, SWARMDESK_MODEL, SWARMDESK_PLAN_MODE_REQUIRED. */
  env: NodeJS.ProcessEnv
  /** Aborting it (SIGTERM) ends the teammate: its turn is stopped and it cleans up. */
  signal?: AbortSignal
  /** Where its events go (the process prints them on its terminal); default a private bus. */
  bus?: EventBus
  /** Backoff of in-band overload retries, ms (tests shorten it). */
  retryBaseDelayMs?: number
  /**
   * Where shell commands run. A worker teammate passes its RPC client of the main thread's PTY
   * host (node-pty never runs in a worker, docs/design.md#process-model); default a PTY host of this process, disposed
   * when the teammate ends. An injected host is left to its owner.
   */
  pty?: PtyHost
  /**
   * Who decides what the rules and mode leave open (docs/teams.md#permission-requests): a worker passes the leader
   * permission bridge; default the leader through the mailbox (the process backend).
   */
  prompter?: PermissionPrompter
  /**
   * Requests to interrupt the current turn (Esc in the teammate's pane): a worker's come as port
   * messages, a process's as SIGUSR2. Each stops the running turn, if any (TeammateAgent.interrupt).
   */
  interrupts?: (listener: () => void) => Disposable
  /**
   * Its MCP servers (docs/tools.md#mcp-servers): a worker teammate passes the main process's over
   * its port; default its own ({@link ownTeammateMcp}: the configuration loaded here, with the
   * leader's `--mcp-config` files from the environment and `mcpConfigFiles`), stopped when it ends.
   */
  mcp?: TeammateMcpHost
  /** The `fetch` of its model requests (a worker's goes to the main thread: docs/teams.md#worker-teammate-start-up). */
  fetch?: ModelFetch
  /** `--mcp-config` files of `swarmdesk teammate`, after the leader's (a later file wins a name). */
  mcpConfigFiles?: string[]
  /** Its directory's project context, read already (a worker's executor shares one read among the teammates it starts); default read at start. */
  projectContext?: ProjectContext
  /** On a server, publish its events for the leader (default true); a worker's reach it over its port instead. */
  relayEvents?: boolean
  /**
   * The team store it works on (docs/nats.md#the-team-store): inbox, task list, config. Default
   * the files of `home`. Left open for its owner to close.
   */
  store?: TeamStorePort
}

/** How a teammate ended without crashing. */
export type TeammateExit = { reason: 'shutdown'; requestId: string } | { reason: 'aborted' }

/** The teammate is not in the team (bad usage: exit 2). */
export class TeammateNotFoundError extends Error {
  override readonly name = 'TeammateNotFoundError'
}
