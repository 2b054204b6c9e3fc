import type { AgentState } from '../../../shared/events'
import type { AgentView } from '../../../shared/ipc'
import { ownerGone } from '../../runtime/locks'
import { cleanUpOrphans, type OrphanCleanup } from './orphans'
import { readLastSession, readSavedPanes, readWorkspaceState, restorePaths, type WorkspaceState } from './stateFile'

/** How a workspace starts: `restore` reopens its last session (the default), `new` starts an empty one. */
export type SessionChoice = 'restore' | 'new'

/** What a start finds of the workspace's previous run. */
export interface RestorePlan {
  /** The session to reopen, when there is one to reopen. */
  resumeSessionId?: string
  /** The reopened session's saved state (agents, team), when it wrote one. */
  previous?: WorkspaceState
  /** Saved scrollback per agent id. */
  panes: Record<string, string>
  /** What was killed of the processes the previous run left behind. */
  cleanup: OrphanCleanup
  /** Problems met (an unreadable restore file): shown as notices, never fatal. */
  warnings: string[]
}

/**
 * Works out how a workspace starts (issue 8 "Restore"): the session to reopen — `resumeSessionId`
 * when given, else with `choice: 'restore'` the one `last-session.json` names — with its saved
 * agents and panes; and, whatever the choice, kills the processes the last run left behind when
 * that run died without closing (see orphans.ts). An unreadable restore file is a warning and the
 * workspace opens without it: the transcripts and team files stay the source of truth. A last
 * session another live process still has open is not reopened (a new one starts, with a warning).
 */
export async function planRestore(options: {
  home: string
  cwd: string
  choice: SessionChoice
  resumeSessionId?: string
}): Promise<RestorePlan> {
  const warnings: string[] = []
  const attempt = <T>(read: () => T): T | undefined => {
    try {
      return read()
    } catch (error) {
      warnings.push((error as Error).message)
      return undefined
    }
  }
  const last = options.resumeSessionId ?? attempt(() => readLastSession(options.home, options.cwd))
  const paths = last ? restorePaths(options.home, options.cwd, last) : undefined
  const previous = paths ? attempt(() => readWorkspaceState(paths)) : undefined
  const cleanup = previous ? await cleanUpOrphans(previous) : { killed: [], survivors: [] }
  if (cleanup.survivors.length > 0)
    warnings.push(`Processes left by the previous run outlived SIGKILL: ${cleanup.survivors.join(', ')}.`)
  if (!last || (options.choice === 'new' && !options.resumeSessionId)) return { panes: {}, cleanup, warnings }
  // two processes writing one transcript would interleave it: a session open elsewhere is left to its owner
  if (!options.resumeSessionId && previous && previous.owner.pid !== process.pid && !ownerGone(previous.owner)) {
    warnings.push(
      `Session ${last} is open in another Swarmdesk process (pid ${previous.owner.pid}); this window starts a new session.`
    )
    return { panes: {}, cleanup, warnings }
  }
  const panes = (paths && attempt(() => readSavedPanes(paths))) ?? {}
  return { resumeSessionId: last, ...(previous ? { previous } : {}), panes, cleanup, warnings }
}

/** States in which an agent was doing something the end of its process cut short. */
const WORKING: ReadonlySet<AgentState> = new Set<AgentState>([
  'starting',
  'running',
  'awaiting_permission',
  'awaiting_plan_approval',
  'stopping',
  'interrupted'
])

/**
 * The agents of a reopened session as the UI shows them: an agent that was working when the
 * process ended is `interrupted` (it resumes on a person's Resume); a teammate is too when it was
 * idle, since its thread or process ended with the run and it waits for nothing now; the leader
 * otherwise is `idle` (its session is open again); agents that had ended keep how they ended.
 */
export function restoredAgents(saved: AgentView[], leaderId: string): AgentView[] {
  return saved.map((agent) => {
    const ended = agent.state === 'exited' || agent.state === 'crashed'
    let state: AgentState = agent.state
    if (WORKING.has(agent.state)) state = 'interrupted'
    // a leader whose model call failed still waits for the prompt that retries it
    else if (agent.agentId === leaderId) state = agent.state === 'error' ? 'error' : 'idle'
    else if (agent.backend && (agent.state === 'idle' || agent.state === 'error')) state = 'interrupted'
    const copy: AgentView = { ...agent, state, usage: { ...agent.usage } }
    if (state !== 'error') delete copy.error
    if (agent.agentId === leaderId && ended) {
      delete copy.endedAt
      delete copy.endStatus
    }
    return copy
  })
}

/** The line an interrupted agent's pane gets after its restored scrollback. */
export const INTERRUPTED_PANE_LINE =
  '\r\n\x1b[1;36m‖ interrupted — the workspace stopped while this agent worked. Resume continues it from its transcript.\x1b[0m\r\n'
