import { SUBAGENT_STOP_MAX_BLOCKS } from './events'
import { emptyOutcome, type HookOutcome } from './outcome'
import type { HookRunner } from './runner'

/** A subagent as its hooks see it (Claude Code's keys: `agent_id`, `agent_type`, `agent_transcript_path`). */
export interface SubagentHookInfo {
  agentId: string
  /** Matched by SubagentStart/SubagentStop matchers. */
  agentType: string
  agentTranscriptPath: string
}

/**
 * How the subagent is ending. Only `completed` lets a SubagentStop hook keep it working;
 * `failed` and `killed` (TaskStop, shutdown, the parent's abort, a crash) always end it.
 */
export type SubagentEnd = 'completed' | 'failed' | 'killed'

/** What the caller knows when the subagent stops. */
export interface SubagentStopInfo {
  endedBy: SubagentEnd
  /** Its final text ('' when there is none, e.g. killed before answering). */
  lastAssistantMessage: string
}

/** The hooks of one running subagent. */
export interface SubagentHookHandle {
  readonly agentId: string
  /** The SubagentStart outcome: always `continue` (SubagentStart cannot block); warnings to log. */
  readonly started: Promise<HookOutcome>
  /** True once SubagentStop has run and let the agent end. */
  readonly closed: boolean
  /**
   * Run SubagentStop (after SubagentStart has finished). `block`: the agent keeps working with
   * `reason` as its next instruction, and the pair stays open — call `stop` again when it next
   * ends (`stop_hook_active` is then true). Allowed {@link SUBAGENT_STOP_MAX_BLOCKS} times; a
   * further block, or any block when `endedBy` is not `completed`, is reported as a warning and the
   * agent ends. Calls made while a stop runs share its outcome (a `killed` one turns a block of
   * that run into `continue`); calls after the pair closed are no-ops returning `continue`.
   * Never rejects.
   */
  stop(info: SubagentStopInfo, opts?: { signal?: AbortSignal }): Promise<HookOutcome>
}

/** Pairs SubagentStart with exactly one final SubagentStop per subagent, on every exit path (docs/hooks.md#hooks). */
export interface SubagentHookPairing {
  /** Register the subagent and run SubagentStart. Registration is immediate, so `stopAll` covers it even mid-start. */
  start(info: SubagentHookInfo, opts?: { signal?: AbortSignal }): SubagentHookHandle
  /**
   * Stop every subagent whose pair is still open as `killed` (empty last message), for crash,
   * kill and session-shutdown paths. Resolves when every SubagentStop has finished.
   */
  stopAll(opts?: { signal?: AbortSignal }): Promise<void>
  /** Subagents started and not yet closed. */
  openCount(): number
}

/** Create the pairing over a session's hook runner. */
export function createSubagentHookPairing(runner: HookRunner): SubagentHookPairing {
  const open = new Map<SubagentHookHandle, true>()
  return {
    start(info, opts) {
      const handle = createHandle(runner, info, opts?.signal, () => open.delete(handle))
      open.set(handle, true)
      return handle
    },
    async stopAll(opts) {
      await Promise.all([...open.keys()].map((h) => h.stop({ endedBy: 'killed', lastAssistantMessage: '' }, opts)))
    },
    openCount: () => open.size
  }
}

function createHandle(
  runner: HookRunner,
  info: SubagentHookInfo,
  signal: AbortSignal | undefined,
  onClose: () => void
): SubagentHookHandle {
  const started = runner.run('SubagentStart', { agent_id: info.agentId, agent_type: info.agentType }, { signal })
  let closed = false
  let mustEnd = false
  let blocks = 0
  let inflight: Promise<HookOutcome> | undefined

  const runStop = async (stopInfo: SubagentStopInfo, stopSignal: AbortSignal | undefined): Promise<HookOutcome> => {
    let keepOpen = false
    try {
      await started
      const outcome = await runner.run(
        'SubagentStop',
        {
          agent_id: info.agentId,
          agent_type: info.agentType,
          agent_transcript_path: info.agentTranscriptPath,
          last_assistant_message: stopInfo.lastAssistantMessage,
          stop_hook_active: blocks > 0
        },
        { signal: stopSignal }
      )
      if (outcome.kind !== 'block') return outcome
      if (!mustEnd && blocks < SUBAGENT_STOP_MAX_BLOCKS) {
        blocks += 1
        keepOpen = true
        return outcome
      }
      const why = mustEnd
        ? 'the agent is stopping'
        : `SubagentStop already kept this agent working ${SUBAGENT_STOP_MAX_BLOCKS} times (docs/hooks.md#hooks)`
      return {
        kind: 'continue',
        warnings: [...outcome.warnings, `ignored a SubagentStop block (${why}): ${outcome.reason}`],
        results: outcome.results
      }
    } finally {
      if (!keepOpen) {
        closed = true
        onClose()
      }
    }
  }

  return {
    agentId: info.agentId,
    started,
    get closed() {
      return closed
    },
    stop(stopInfo, opts) {
      if (closed) return Promise.resolve(emptyOutcome())
      if (stopInfo.endedBy !== 'completed') mustEnd = true
      inflight ??= runStop(stopInfo, opts?.signal).finally(() => {
        inflight = undefined
      })
      return inflight
    }
  }
}
