import type { Orchestration, WorkspaceSnapshot, workspaceChannels } from '../../../shared/ipc'
import { LEADER_NAME, SessionStateError } from '../../runtime/session'
import { modelAccessOf } from '../modelAccess'
import { IpcRequestError, refusing } from '../requestError'
import { stopAll, TeamControlError } from '../teamControl'
import type { FeatureHandlers, HandlerContext } from './context'

/** The workspace's own requests (src/shared/ipc/workspace.ts): the snapshot, the leader's prompt and stop, modes. */
export function workspaceHandlers(ctx: HandlerContext): FeatureHandlers<typeof workspaceChannels> {
  return {
    'workspace.snapshot': async () => ({ ...snapshotOf(ctx), allowedPaths: await ctx.allowedPaths.snapshot() }),
    'leader.prompt': (payload) => ctx.leader.prompt(payload.text),
    'leader.stop': async () => {
      ctx.session().stop()
      return { ok: true }
    },
    'workspace.stopAll': async () => ({
      ok: true,
      ...(await refusing([TeamControlError], () => stopAll(ctx.session())))
    }),
    'workspace.setOrchestration': (payload) => setOrchestration(ctx, payload.fork, payload.coordinator),
    'workspace.setMode': async (payload) => {
      ctx.mode = payload.mode
      ctx.session().setMode(payload.mode)
      return { ok: true }
    }
  }
}

/** The workspace as a page opening on it sees it (`workspace.snapshot`). */
function snapshotOf(ctx: HandlerContext): WorkspaceSnapshot {
  const session = ctx.session()
  const team = session.team?.team()
  return {
    sessionId: session.sessionId,
    cwd: session.identity.cwd,
    model: ctx.modelName,
    mode: ctx.mode,
    scripted: ctx.model.scripted !== undefined,
    busy: ctx.leader.busy,
    agents: ctx.projection.views(),
    permissions: ctx.prompter.list(),
    // every agent's spending, as the UI adds it up from usage events
    ...ctx.projection.totals(),
    lastSeq: ctx.projection.lastSeq,
    ...(team ? { team } : {}),
    activity: Object.fromEntries(ctx.projection.activity),
    stuckAfterMinutes: ctx.settings.stuckAfterMinutes,
    paneScrollbackLines: ctx.settings.paneScrollbackLines,
    sandbox: ctx.settings.sandbox,
    ...(session.subagents ? { orchestration: orchestrationOf(ctx) } : {}),
    modelAccess: modelAccessOf(ctx.model, ctx.keyFix),
    ...(ctx.model.scripted?.scenario.prompt ? { suggestedPrompt: ctx.model.scripted.scenario.prompt } : {}),
    teamTransport: ctx.teamTransport(),
    leaderStarted: ctx.leader.busy || session.history.length > 0
  }
}

/** Fork and coordinator mode as the UI shows them. */
function orchestrationOf(ctx: HandlerContext): Orchestration {
  const session = ctx.session()
  const { forkEnabled, coordinator } = session.orchestration
  return { fork: forkEnabled, coordinator, switchable: session.orchestrationSwitchable && !ctx.leader.busy }
}

/** The UI's switch before the first prompt (docs/agents.md#coordinator-mode); the leader's pane says what changed. */
async function setOrchestration(ctx: HandlerContext, fork: boolean, coordinator: boolean): Promise<Orchestration> {
  if (ctx.leader.busy)
    throw new IpcRequestError(
      'Fork and coordinator mode are chosen before the first prompt of a session; start a new session to change them.'
    )
  await refusing([SessionStateError], () => ctx.session().setOrchestration({ fork, coordinator }))
  const now = orchestrationOf(ctx)
  const message = now.coordinator
    ? 'Coordinator mode: the leader orchestrates background workers and does no work itself; forks are off.'
    : now.fork
      ? 'Fork mode: an Agent call without a type forks the leader, sharing its prompt cache.'
      : 'Standard mode: the leader works itself and starts typed subagents.'
  ctx.bus.emit({ type: 'notice', level: 'info', message, agentId: LEADER_NAME, agentName: LEADER_NAME })
  return now
}
