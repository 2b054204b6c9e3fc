import type { TeammateHost } from '../../shared/teammateHosts'
import { randomUUID } from 'node:crypto'
import type { RuntimeEvent } from '../../shared/events'
import type { PermissionMode } from '../../shared/permissions'
import { EventBus } from '../runtime/events'
import { Budget } from '../runtime/loop'
import { ApiKeyHolder, DEFAULT_MODEL, resolveModel } from '../runtime/model'
import {
  loadWorkspaceSettings,
  PermissionEngine,
  prepareShellGrammar,
  type LoadedSettings
} from '../runtime/permissions'
import { createPtyHost, type PtyFlowControl, type PtyHost } from '../runtime/pty'
import { domainKeptNotice, keepAlwaysAllowedDomains } from '../runtime/sandbox'
import { connectModel, NO_API_KEY_HINTS, type ModelConnection } from '../runtime/runner'
import {
  envWithSettings,
  modeSwitches,
  leaderToolSource,
  openSessionMcp,
  openSessionTeamStore,
  Session,
  type SessionOptions,
  teammateModelSetting,
  teammateSettings,
  type SessionMcp
} from '../runtime/session'
import { mcpTimeoutsFromEnv } from '../runtime/mcp'
import { canonicalWorkspace, ensureWritableDataDirectory } from '../runtime/storage'
import {
  AgentMcp,
  inProcessServers,
  definitionFileNotices,
  loadSubagentWiring,
  sweepWorkspaceWorktrees
} from '../runtime/subagents'
import {
  createTeammateBackends,
  teammateModelEnv,
  teammateSettingsEnv,
  type TeammateExecutorRegistry
} from '../runtime/teammates'
import { CORE_TOOLS } from '../runtime/tools'
import type { KeyFix } from './modelAccess'
import { PaneSizes } from './paneSizes'
import { planRestore, RESTORE_NOTICE_LEVEL, RUN_TAG_VARIABLE, type RestorePlan, type SessionChoice } from './restore'
import { workspaceSettingsFiles, type ApiKeyStore } from './settingsControl'
import { readSettingsTexts, type SettingsTexts } from './settingsWatch'
import { UiPrompter } from './uiPrompter'

/** Options of {@link WorkspaceService.start}; the same inputs as `swarmdesk run`. */
export interface WorkspaceServiceOptions {
  cwd: string
  home: string
  /** A scenario file: the model is the scripted model server (docs/model.md#model-access). */
  scenario?: string
  model?: string
  mode?: PermissionMode
  settingsFiles?: string[]
  trustProject?: boolean
  env?: NodeJS.ProcessEnv
  resumeSessionId?: string
  maxBudgetUsd?: number
  /** Fork subagents (docs/agents.md#forks). */
  fork?: boolean
  /** Coordinator mode (docs/agents.md#coordinator-mode); wins over forks. */
  coordinator?: boolean
  /** Where Settings stores the API key (the app's OS keychain); absent in the web host: the environment only. */
  apiKeys?: ApiKeyStore
  /**
   * The process's live API key, shared by its workspaces: used when the environment has none, and
   * followed as it changes (a key entered in Settings starts the leader at once). Without a key from
   * either, the workspace still opens (a first run): the UI says how to add one. Default: none.
   */
  apiKey?: ApiKeyHolder
  /**
   * `restore` (the default): reopen the workspace's last session — its leader from its transcript,
   * panes with their scrollback, agents that were working shown `interrupted` (app/restore).
   * `new`: start an empty session (`swarmdesk serve --new-session`). `resumeSessionId` wins over both.
   */
  session?: SessionChoice
  /** `--mcp-config` files (docs/tools.md#mcp-servers): the highest source of MCP servers, no approval needed. */
  mcpConfigFiles?: string[]
  /** Open a Claude Code session in a pane at start (`--claude-session`, docs/claude-code.md#sessions-in-panes). */
  claudeSession?: boolean
  /** The `claude` to run (`--claude-path`); default the one on PATH. */
  claudePath?: string
  /** `--team-transport` (docs/nats.md#configuration): over SWARMDESK_TEAM_TRANSPORT and the `teamTransport` setting. */
  teamTransport?: string
}

/** A notice for the leader's pane, from opening the workspace. */
export interface OpeningNotice {
  level: 'warning' | 'error'
  message: string
}

/** What {@link openWorkspace} built: the leader session and everything it runs on, before the service wires them up. */
export interface OpenedWorkspace {
  session: Session
  /** Every event the session emitted while it opened, to replay on the service's bus. */
  early: RuntimeEvent[]
  /** The session's own bus: its events are re-stamped onto the service's. */
  bus: EventBus
  prompter: UiPrompter
  model: ModelConnection
  pty: PtyHost & PtyFlowControl & Required<Pick<PtyHost, 'open'>>
  backends: TeammateExecutorRegistry
  /** Each pane's last reported size, shared by the panes and the process teammates' backend. */
  paneSizes: PaneSizes
  /** The leader's and its subagents' permission engine: Settings swaps its rules while the session runs. */
  engine: PermissionEngine
  settings: LoadedSettings
  /** The settings files' texts as read just before `settings` were loaded (settingsWatch.ts). */
  settingsTexts: SettingsTexts
  modelName: string
  mode: PermissionMode
  keyFix: KeyFix
  apiKey: ApiKeyHolder
  /** The workspace root, canonical. */
  cwd: string
  /** What the last run left (restore/startup.ts). */
  plan: RestorePlan
  /** This run's tag in its PTYs' environment (restore/stateFile.ts). */
  runTag: string
  /** How the session was opened: a new session opens the same way. */
  openOptions: Parameters<typeof Session.open>[0]
  /** Settings warnings, agent definition files, swept worktrees, MCP servers not started and restore warnings, for the leader's pane. */
  notices: OpeningNotice[]
  /** The `teammateHosts` setting the teammates' supervisor reads at each spawn: a settings reload replaces `current`. */
  teammateHosts: { current: TeammateHost[] }
  /** The session's MCP servers and its subagents' own: closed when the workspace closes (docs/tools.md#mcp-servers). */
  mcp: { session: SessionMcp; agents: AgentMcp }
  /** The team store on a server, shared by the workspace's sessions; closed with the workspace. Undefined on files. */
  teamStore: SessionOptions['teamStore']
}

/**
 * Opens the workspace: settings, model (scripted for a scenario), PTY host, teammate backends and
 * the leader session (new, reopened or resumed). Whatever it started is closed again when the
 * session fails to open.
 * @throws RunUsageError for bad input (missing directory, malformed settings, unknown session,
 *   a data directory it cannot write: DataDirectoryError).
 */
export async function openWorkspace(options: WorkspaceServiceOptions): Promise<OpenedWorkspace> {
  const startEnv = options.env ?? process.env
  const cwd = canonicalWorkspace(options.cwd)
  // a read-only or full data directory is bad input, reported before anything runs
  ensureWritableDataDirectory(options.home, cwd)
  // read before the load: an edit made while the workspace opens differs, and its watch reloads it
  const settingsTexts = await readSettingsTexts(
    workspaceSettingsFiles({ cwd, home: options.home, settingsFiles: options.settingsFiles ?? [] })
  )
  const settings = await loadWorkspaceSettings(
    cwd,
    options.home,
    options.settingsFiles ?? [],
    options.trustProject ?? false
  )
  // the Settings view's models and auto-background delay, where the environment sets none
  const env = envWithSettings(startEnv, settings)
  // the team's server, when there is one, is opened once for the workspace (docs/nats.md#configuration)
  const teamStore = await openSessionTeamStore(options.home, options.teamTransport, env, settings)
  // a first run has no key: the workspace opens all the same, saying where to add one
  const keyFix: KeyFix = options.apiKeys ? 'settings' : 'environment'
  const apiKey = options.apiKey ?? new ApiKeyHolder()
  const model = await connectModel({
    scenario: options.scenario,
    env,
    settings,
    apiKey,
    noApiKeyHint: NO_API_KEY_HINTS[keyFix]
  })
  // what the last run left: the session to reopen, and its orphaned processes killed (app/restore)
  const plan = await planRestore({
    home: options.home,
    cwd,
    choice: options.session ?? 'restore',
    resumeSessionId: options.resumeSessionId
  })
  const runTag = randomUUID()
  const pty = createPtyHost({ env: { [RUN_TAG_VARIABLE]: runTag } })
  const prompter = new UiPrompter(cwd)
  const modelName = resolveModel(options.model ?? env.SWARMDESK_MODEL ?? DEFAULT_MODEL)
  const mode = options.mode ?? settings.defaultMode ?? 'default'
  const wiring = await loadSubagentWiring({
    cwd,
    home: options.home,
    env,
    trustProject: options.trustProject,
    teammateModel: teammateModelSetting(settings)
  })
  const swept = await sweepWorkspaceWorktrees(cwd)
  const mcpNotices: OpeningNotice[] = []
  // the servers of every source start before the leader's first turn, as in a headless run
  const mcp = await openSessionMcp({
    home: options.home,
    cwd,
    flagFiles: options.mcpConfigFiles,
    env,
    notice: (_level, message) => mcpNotices.push({ level: 'warning', message })
  }).catch(async (error: unknown) => {
    await pty.dispose()
    await model.close()
    await teamStore?.store.close()
    throw error
  })
  const timeouts = mcpTimeoutsFromEnv(env)
  const agentMcp = new AgentMcp(() => mcp.pool?.tools ?? mcp.tools, inProcessServers(timeouts))
  const bus = new EventBus()
  const paneSizes = new PaneSizes()
  // an "always allow" of a network question is kept in the local settings, whoever asked (docs/sandbox.md#network)
  const answering = keepAlwaysAllowedDomains(prompter, cwd, (kept) => bus.emit(domainKeptNotice(kept)))
  const backends = createTeammateBackends({
    bus,
    pty,
    prompter: answering,
    home: options.home,
    paneSize: (agentId) => paneSizes.get(agentId),
    mcp: { servers: mcp.manager, listed: mcp.listed, timeouts, ...(mcp.pool ? { pool: mcp.pool } : {}) }
  })
  const engine = new PermissionEngine(settings)
  // the leader's first Bash decision should not wait for the shell grammar to compile
  prepareShellGrammar()
  // nor its first command for a new terminal: a spare shell starts while the model answers (pty/spareShells.ts)
  pty.prewarm({ cwd })
  // events emitted while the session opens are replayed into the service's own bus
  const early: RuntimeEvent[] = []
  const sub = bus.onEvent((e) => early.push(e))
  const teammateHosts = { current: teammateSettings(settings).hosts }
  const openOptions: Parameters<typeof Session.open>[0] = {
    cwd,
    home: options.home,
    resumeSessionId: plan.resumeSessionId,
    model: modelName,
    mode,
    budget: new Budget(options.maxBudgetUsd),
    client: model.client,
    bus,
    prompter: answering,
    engine,
    pty,
    // docs/tools.md#mcp-servers: a server's list change reaches the leader at its next model request
    ...leaderToolSource(CORE_TOOLS, mcp),
    subagents: { ...wiring.subagents, ...modeSwitches(options, settings), agentMcp },
    hookSettings: settings.hooks,
    ...(teamStore ? { teamStore } : {}),
    teammates: {
      registry: backends,
      ...teammateSettings(settings),
      // the setting as the workspace's reloads leave it (liveSettings.ts, docs/hosts.md#in-the-ui)
      hosts: () => teammateHosts.current,
      askPersonForPlans: true,
      modelEnv: () => ({
        ...teammateModelEnv(model, env, settings),
        ...teammateSettingsEnv(options.settingsFiles ?? [], options.trustProject ?? false, options.mcpConfigFiles ?? [])
      })
    }
  }
  let session: Session
  try {
    session = await Session.open(openOptions)
  } catch (error) {
    await backends.dispose()
    await closeWorkspaceMcp({ session: mcp, agents: agentMcp })
    await pty.dispose()
    await model.close()
    await teamStore?.store.close()
    throw error
  } finally {
    sub.dispose()
  }
  const notices: OpeningNotice[] = [
    ...settings.warnings.map((message) => ({ level: 'warning' as const, message })),
    ...definitionFileNotices(wiring.files),
    ...swept.map((path) => ({ level: 'warning' as const, message: `Removed a stale clean worktree: ${path}` })),
    ...mcpNotices,
    ...plan.warnings.map((message) => ({ level: RESTORE_NOTICE_LEVEL, message }))
  ]
  return {
    session,
    early,
    bus,
    prompter,
    model,
    pty,
    backends,
    paneSizes,
    engine,
    settings,
    settingsTexts,
    modelName,
    mode,
    keyFix,
    apiKey,
    cwd,
    plan,
    runTag,
    openOptions,
    notices,
    mcp: { session: mcp, agents: agentMcp },
    teamStore,
    teammateHosts
  }
}

/** Closes a workspace's MCP servers (its subagents' own, then the session's) and waits for every server process to exit. */
export async function closeWorkspaceMcp(mcp: OpenedWorkspace['mcp']): Promise<void> {
  await mcp.agents.closeAll()
  mcp.session.pool?.dispose()
  await mcp.session.manager.closeAll()
}
