import { canonicalWorkspace, ensureWritableDataDirectory } from '../storage'
import { connectModel, type ModelConnection, type TurnEnd } from '../runner'
import { loadWorkspaceSettings, PermissionEngine, prepareShellGrammar, type PermissionPrompter } from '../permissions'
import { RunUsageError } from '../base'
import {
  teammateModelEnv,
  teammateSettingsEnv,
  createTeammateBackends,
  type TeammateExecutorRegistry,
  type TeamWait
} from '../teammates'
export { RunUsageError } from '../base'
import type { PermissionMode } from '../../../shared/permissions'
import type { EventBus } from '../events'
import { Budget } from '../loop'
import { DEFAULT_MODEL, resolveModel } from '../model'
import { createPtyHost } from '../pty'
import { domainKeptNotice, keepAlwaysAllowedDomains } from '../sandbox'
import { CORE_TOOLS } from '../tools'
import {
  AgentMcp,
  inProcessServers,
  sweepWorkspaceWorktrees,
  definitionFileNotices,
  loadSubagentWiring
} from '../subagents'
import { Session } from './session'
import { envWithSettings, teammateModelSetting } from './roleSettings'
import { modeSwitches, openSessionTeamStore, teammateSettings } from './setup'
import type { SessionOptions } from './options'
import { leaderToolSource, openSessionMcp, type SessionMcp } from './mcpSetup'
import { mcpTimeoutsFromEnv } from '../mcp'
import { expandPromptCommand } from './mcpPrompt'
import { endTeam } from './lastWords'

/** Options of {@link runHeadless}, as `swarmdesk run` collects them (docs/events.md#event-stream-and-command-line). */
export interface HeadlessRunOptions {
  cwd: string
  home: string
  prompt: string
  /** A scenario file: the run talks to an in-process scripted model server instead of the API. */
  scenario?: string
  model?: string
  mode?: PermissionMode
  /** Session/CLI settings files (`--settings`), highest precedence. */
  settingsFiles?: string[]
  trustProject?: boolean
  maxTurns?: number
  maxBudgetUsd?: number
  resumeSessionId?: string
  prompter: PermissionPrompter
  bus: EventBus
  env?: NodeJS.ProcessEnv
  /** Fork subagents on (docs/agents.md#forks, `--fork`). */
  fork?: boolean
  /** Coordinator mode (docs/agents.md#coordinator-mode, `--coordinator`); forks are then off. */
  coordinator?: boolean
  /** Aborting it stops the leader's turn (Ctrl-C); the run then ends as failed, `aborted`. */
  signal?: AbortSignal
  /** Backoff of in-band overload retries, ms (tests shorten it). */
  retryBaseDelayMs?: number
  /** `--mcp-config` files (docs/tools.md#mcp-servers), highest precedence, no approval needed. */
  mcpConfigFiles?: string[]
  /** `--team-transport` (docs/nats.md#configuration): over SWARMDESK_TEAM_TRANSPORT and the `teamTransport` setting. */
  teamTransport?: string
}

/** How a headless run ended: `exitCode` 0 ok, 1 failed (model error, budget, max turns, scenario error). */
export interface HeadlessRunResult {
  status: 'ok' | 'failed'
  exitCode: 0 | 1
  reason?: string
  sessionId: string
  end: TurnEnd
}

/**
 * Runs one prompt to the end without a UI (docs/events.md#event-stream-and-command-line `run`): loads settings and permissions,
 * connects the model (the scripted server for `scenario`), opens or resumes the session, runs
 * the leader, then cleans up every process it started. Emits `run_finished` last.
 * @throws RunUsageError for bad input (a missing directory, no API key, an unloadable settings
 *   file, an unknown session to resume, a data directory it cannot write: DataDirectoryError) —
 *   before anything runs.
 */
export async function runHeadless(options: HeadlessRunOptions): Promise<HeadlessRunResult> {
  const started = Date.now()
  const cwd = canonicalWorkspace(options.cwd)
  // a read-only or full data directory is bad input, reported before anything runs
  ensureWritableDataDirectory(options.home, cwd)
  const settings = await loadWorkspaceSettings(
    cwd,
    options.home,
    options.settingsFiles ?? [],
    options.trustProject ?? false
  )
  // the models per role and auto-background delay of the settings, where the environment sets none
  const env = envWithSettings(options.env ?? process.env, settings)
  for (const warning of settings.warnings)
    options.bus.emit({
      type: 'notice',
      level: 'warning',
      message: warning,
      agentId: 'team-lead',
      agentName: 'team-lead'
    })
  const mode: PermissionMode = options.mode ?? settings.defaultMode ?? 'default'
  const wiring = await loadSubagentWiring({
    cwd,
    home: options.home,
    env,
    trustProject: options.trustProject,
    teammateModel: teammateModelSetting(settings)
  })
  for (const path of await sweepWorkspaceWorktrees(cwd))
    options.bus.emit({
      type: 'notice',
      level: 'info',
      message: `Removed a stale clean worktree: ${path}`,
      agentId: 'team-lead',
      agentName: 'team-lead'
    })
  for (const n of definitionFileNotices(wiring.files))
    options.bus.emit({
      type: 'notice',
      level: n.level,
      message: n.message,
      agentId: 'team-lead',
      agentName: 'team-lead'
    })
  let model: ModelConnection | undefined
  const pty = createPtyHost()
  let session: Session | undefined
  let backends: TeammateExecutorRegistry | undefined
  let mcp: SessionMcp | undefined
  let agentMcp: AgentMcp | undefined
  let teamStore: SessionOptions['teamStore']
  try {
    // a bad transport is bad usage; an unusable server stops the run before anything runs
    teamStore = await openSessionTeamStore(options.home, options.teamTransport, env, settings)
    mcp = await openSessionMcp({
      home: options.home,
      cwd,
      flagFiles: options.mcpConfigFiles,
      env,
      notice: (level, message) =>
        options.bus.emit({ type: 'notice', level, message, agentId: 'team-lead', agentName: 'team-lead' })
    })
    // docs/tools.md#mcp-servers: `/mcp__server__prompt args` is the server's prompt
    const prompt = await expandPromptCommand(options.prompt, mcp.manager)
    model = await connectModel({
      scenario: options.scenario,
      env,
      settings,
      retryBaseDelayMs: options.retryBaseDelayMs
    })
    const connected = model
    const timeouts = mcpTimeoutsFromEnv(env)
    const pool = mcp.pool
    const startTools = mcp.tools
    agentMcp = new AgentMcp(() => pool?.tools ?? startTools, inProcessServers(timeouts))
    // an "always allow" of a network question is kept in the local settings, whoever asked (docs/sandbox.md#network)
    const prompter = keepAlwaysAllowedDomains(options.prompter, cwd, (kept) => options.bus.emit(domainKeptNotice(kept)))
    backends = createTeammateBackends({
      bus: options.bus,
      pty,
      prompter,
      home: options.home,
      mcp: { servers: mcp.manager, listed: mcp.listed, timeouts, ...(mcp.pool ? { pool: mcp.pool } : {}) }
    })
    // the leader's first Bash decision should not wait for the shell grammar to compile
    prepareShellGrammar()
    // nor its first command for a new terminal: a spare shell starts while the model answers (pty/spareShells.ts)
    pty.prewarm({ cwd })
    session = await Session.open({
      cwd,
      home: options.home,
      resumeSessionId: options.resumeSessionId,
      model: resolveModel(options.model ?? env.SWARMDESK_MODEL ?? DEFAULT_MODEL),
      mode,
      maxTurns: options.maxTurns,
      budget: new Budget(options.maxBudgetUsd),
      client: model.client,
      bus: options.bus,
      prompter,
      engine: new PermissionEngine(settings),
      pty,
      ...leaderToolSource(CORE_TOOLS, mcp),
      subagents: { ...wiring.subagents, ...modeSwitches(options, settings), agentMcp },
      hookSettings: settings.hooks,
      ...(teamStore ? { teamStore } : {}),
      // a plan is never approved by --approve: headless, only the leader's SendMessage approves (docs/teams.md#plan-approval)
      teammates: {
        registry: backends,
        ...teammateSettings(settings),
        hosts: () => teammateSettings(settings).hosts,
        askPersonForPlans: false,
        modelEnv: () => ({
          ...teammateModelEnv(connected, env, settings),
          ...teammateSettingsEnv(
            options.settingsFiles ?? [],
            options.trustProject ?? false,
            options.mcpConfigFiles ?? []
          )
        })
      }
    }).catch((error: Error) => {
      throw error.name === 'SessionNotFoundError' || error.name === 'HookConfigError'
        ? new RunUsageError(error.message)
        : error
    })
    const running = session
    // a resumed leader on a server leads its team once its lease is claimed (docs/nats.md#the-leader-lease)
    await session.team?.ready
    const onAbort = (): void => running.stop()
    options.signal?.addEventListener('abort', onAbort, { once: true })
    const settled = await settleRun(session, prompt, options.signal).finally(() =>
      options.signal?.removeEventListener('abort', onAbort)
    )
    const blocked = settled.blocked
    const stuck = blocked ? describeBlocked(blocked) : undefined
    if (blocked && stuck)
      options.bus.emit({
        type: 'run_blocked',
        message: stuck.message,
        waits: blocked,
        agentId: session.identity.id,
        agentName: session.identity.name
      })
    // docs/teams.md#teammate-life-cycle: at the end of a headless run, remaining teammates get a shutdown request, then
    // the timeout, then a kill; what they say meanwhile gets the leader one more turn (lastWords.ts)
    const end = await endTeam(session, options.bus, settled.end, settled.end.reason === 'completed' && !blocked)
    const outcome = stuck ? { status: 'failed' as const, reason: stuck.reason } : describeEnd(end)
    if (end.reason === 'model_error' && end.error.kind === 'scenario') {
      options.bus.emit({
        type: 'scenario_error',
        message: end.error.message,
        agentId: session.identity.id,
        agentName: session.identity.name
      })
    }
    await session.close(
      outcome.status === 'ok' ? 'completed' : end.reason === 'aborted' ? 'killed' : 'failed',
      outcome.reason
    )
    options.bus.emit({
      type: 'run_finished',
      status: outcome.status,
      usage: session.usage,
      costUsd: session.costUsd,
      durationMs: Date.now() - started,
      sessionId: session.sessionId,
      ...(outcome.reason ? { reason: outcome.reason } : {}),
      agentId: session.identity.id,
      agentName: session.identity.name
    })
    return {
      status: outcome.status,
      exitCode: outcome.status === 'ok' ? 0 : 1,
      reason: outcome.reason,
      sessionId: session.sessionId,
      end
    }
  } finally {
    await session?.close('killed', 'the run ended abnormally')
    await backends?.dispose()
    // docs/tools.md#mcp-servers: the run ends only once every MCP server it started has exited
    await agentMcp?.closeAll()
    mcp?.pool?.dispose()
    await mcp?.manager.closeAll()
    await pty.dispose()
    await model?.close()
    await teamStore?.store.close()
  }
}

/**
 * Runs the prompt, then keeps the leader going while work it started is alive (docs/scenarios.md#scripted-model-scenarios: a
 * headless run ends when the leader is idle, no agent is running and nothing waits to be
 * delivered): each queued notification wakes it for another turn. The leader's last end.
 */
export async function runUntilSettled(session: Session, prompt: string): Promise<TurnEnd> {
  return (await settleRun(session, prompt)).end
}

/**
 * {@link runUntilSettled}, which also stops at a dead end: the leader idle with nothing queued, no
 * subagent running, and the team held only by questions no one in the run can answer
 * (TeammateSupervisor.blockedWaits). `blocked` lists them then; the team is left running for the
 * caller to shut down. Aborting `signal` (Ctrl-C) while the leader is idle and the run waits for its
 * team ends the wait at once with the end `aborted`, as it ends a running turn (the caller stops
 * that): no more turns, the team left for the caller to shut down.
 */
export async function settleRun(
  session: Session,
  prompt: string,
  signal?: AbortSignal
): Promise<{ end: TurnEnd; blocked?: TeamWait[] }> {
  let end = await session.prompt(prompt)
  while (end.reason === 'completed') {
    if (signal?.aborted) return { end: { reason: 'aborted', finalText: end.finalText, turns: end.turns } }
    if (session.pendingCount > 0) {
      end = await session.prompt()
      continue
    }
    const agents = session.subagents
    const team = session.teammates
    const teamSettled = !team || (await team.settled())
    const blocked = team && !teamSettled && !agents?.anyRunning() ? await team.blockedWaits() : undefined
    if (session.pendingCount > 0) continue
    if (!agents?.anyRunning() && teamSettled) break
    if (blocked) return { end, blocked }
    await new Promise<void>((resolve) => {
      const subs = [
        session.onDidQueue(() => done()),
        ...(agents ? [agents.onDidChange(() => done())] : []),
        ...(team ? [team.onDidChange(() => done())] : [])
      ]
      // a quiet team settles by time alone: look again when its quiet period is over
      const timer = team && !teamSettled ? setTimeout(done, team.settleDelayMs + 10) : undefined
      signal?.addEventListener('abort', done, { once: true })
      function done(): void {
        clearTimeout(timer)
        for (const s of subs) s.dispose()
        signal?.removeEventListener('abort', done)
        resolve()
      }
    })
  }
  return { end }
}

/**
 * Who waits for what, for a person: `reason` for `run_finished` (`the team cannot go on: pat waits
 * for team-lead's approval of its plan (request plan-1a2b)`), `message` with what to do about it.
 */
function describeBlocked(waits: TeamWait[]): { reason: string; message: string } {
  const each = waits.map(
    (w) => `${w.agentName} waits for ${w.waitsFor}'s ${w.what}${w.requestId ? ` (request ${w.requestId})` : ''}`
  )
  const reason = `the team cannot go on: ${each.join('; ')}`
  return {
    reason,
    message: `${reason}, and no one in this run can answer: the leader is idle and --approve never approves a plan. The team is shut down. Have the leader answer with SendMessage, or run the team where a person can (the app, swarmdesk serve).`
  }
}

function describeEnd(end: TurnEnd): { status: 'ok' | 'failed'; reason?: string } {
  switch (end.reason) {
    case 'completed':
      return { status: 'ok' }
    case 'max_turns':
      return { status: 'failed', reason: `reached the maximum of ${end.turns} turns (--max-turns)` }
    case 'budget':
      return { status: 'failed', reason: 'the budget (--max-budget-usd) is spent' }
    case 'aborted':
      return { status: 'failed', reason: 'aborted' }
    case 'model_error':
    case 'failed':
      return { status: 'failed', reason: end.error.message }
  }
}
