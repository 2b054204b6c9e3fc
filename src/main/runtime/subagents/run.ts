import type { MessageParam } from '@anthropic-ai/sdk/resources/messages'
import { type ParentAgent } from '../tools'
import {
  createPermissionGate,
  endEvents,
  openingMessage,
  recordedNetworkAsker,
  resumeHistory,
  runAgentTurn,
  toolSandbox,
  turnFailure,
  type AgentTurn,
  type TurnEnd
} from '../runner'
import {
  AGENT_STARTED_SUBTYPE,
  AGENT_STOPPED_SUBTYPE,
  TranscriptWriter,
  type AgentStartedRecord,
  type AgentStoppedRecord
} from '../transcripts'
import { renderTaskNotification } from './notification'
import { finishWorktree, worktreePathGuard } from '../worktrees'
import type { SubagentRuntime } from './runtime'
import type { AgentTaskState, AgentTaskStatus } from './types'

/** How often a finished turn re-checks work it still owns (shells, child agents), ms. */
const OWNED_WORK_POLL_MS = 100

/**
 * Runs a task until it is complete (docs/agents.md#sync-and-background-runs, docs/agents.md#auto-background, docs/agents.md#task-notifications): its loop, then — because an agent is not
 * complete while background shells or agents it owns still run — the wait for them, running
 * another turn whenever messages or child notifications arrived meanwhile. Then cleanup (
 * docs/agents.md#cleanup) and, for a background run, exactly one task notification. Never rejects.
 */
export async function runTask(rt: SubagentRuntime, task: AgentTaskState, resume: boolean): Promise<void> {
  const o = rt.options
  const who = { agentId: task.agentId, agentName: task.agentName }
  let transcript: TranscriptWriter
  let opening: MessageParam | undefined
  if (resume) {
    const resumed = resumeHistory(task.transcriptPath, task.agentId)
    task.messages = resumed.messages
    transcript = resumed.transcript
    // calls a dead process cut short (restore after restart): their placeholder results go out with
    // the message that resumes the agent, in one user message, so the history stays valid
    if (resumed.repair) opening = openingMessage(resumed.repair, task.pending.splice(0))
  } else transcript = new TranscriptWriter(task.transcriptPath, task.agentId, null)
  let end: TurnEnd | undefined
  try {
    if (!resume) {
      const header: AgentStartedRecord = {
        agentId: task.agentId,
        agentName: task.agentName,
        agentType: task.agentType,
        description: task.description,
        parentId: task.parentId,
        depth: task.depth,
        model: task.model,
        cwd: task.cwd,
        isAsync: task.isAsync
      }
      transcript.append('system', header, AGENT_STARTED_SUBTYPE)
      // A fork starts with its parent's whole history: all of it goes to its transcript, so a
      // resume re-serialises the same bytes.
      for (const m of task.messages) transcript.append(m.role === 'assistant' ? 'assistant' : 'user', m)
      o.bus.emit({
        type: 'agent_started',
        agentType: task.agentType,
        parentId: task.parentId,
        depth: task.depth,
        model: task.model,
        cwd: task.cwd,
        ...who
      })
    }
    for (let first = true; ; first = false) {
      end = await runAgentTurn({
        query: loopOf(rt, task),
        controller: task.controller,
        bus: o.bus,
        transcript,
        announce: first,
        idleAfter: false,
        interruption: () =>
          task.interrupted ? `${task.agentName} stopped. SendMessage to it resumes it from its transcript.` : undefined,
        onToolCall: () => task.toolUses++,
        ...(first && opening ? { opening } : {})
      })
      if (end.reason === 'completed') {
        await waitForOwnedWork(rt, task)
        if (!task.controller.signal.aborted && task.pending.length > 0) continue
      }
      // SubagentStop may keep a completed agent working, its stderr as the next instruction (docs/hooks.md#hooks).
      const endedBy =
        end.reason === 'failed'
          ? 'failed'
          : task.controller.signal.aborted
            ? 'killed'
            : end.reason === 'completed'
              ? 'completed'
              : 'failed'
      const outcome = await task.hooks?.stop({
        endedBy,
        lastAssistantMessage: end.reason === 'failed' ? '' : end.finalText
      })
      for (const w of outcome?.warnings ?? []) o.bus.emit({ type: 'notice', level: 'warning', message: w, ...who })
      if (outcome?.kind === 'block' && endedBy === 'completed' && !task.controller.signal.aborted) {
        task.pending.push(`A SubagentStop hook asks you to keep working:\n${outcome.reason}`)
        continue
      }
      break
    }
  } catch (error) {
    // the start could not be recorded (a full disk): the run ends as a failed turn would
    end = {
      reason: 'failed',
      error: error instanceof Error ? error : new Error(String(error)),
      finalText: '',
      turns: 0
    }
    for (const e of endEvents(end, false)) o.bus.emit({ ...e, ...who })
    await task.hooks?.stop({ endedBy: 'failed', lastAssistantMessage: '' })
  }
  // a failed turn (its transcript refused a line, a tool threw) shows as `crashed` with its reason
  const crashed = end.reason === 'failed'
  const status: AgentTaskStatus = crashed
    ? 'failed'
    : task.controller.signal.aborted
      ? 'killed'
      : end.reason !== 'completed'
        ? 'failed'
        : 'completed'
  task.finalText = end.finalText
  const reason = turnFailure(end)
  task.unlinkParent?.()
  await task.shells.killAll()
  recordStop(transcript, { status: crashed ? 'crashed' : status, ...(reason ? { reason } : {}) })
  transcript.close()
  if (task.isolation) {
    const finished = await finishWorktree(task.isolation)
    task.worktree = {
      path: task.isolation.path,
      branch: task.isolation.branch,
      kept: finished.kept,
      reason: finished.reason
    }
  }
  // The task counts as running until its cleanup is done, so nothing waiting on it (a headless
  // run, a parent) sees it end before its worktree and shells are settled.
  task.status = status
  task.endedAt = Date.now()
  // a failed turn is in `error` already, with its reason (a SendMessage resumes and retries it, docs/agents.md#messages-to-a-subagent)
  if (status !== 'failed' || (end.reason !== 'model_error' && !crashed))
    o.bus.emit({ type: 'agent_state', state: 'exited', ...who })
  o.bus.emit({ type: 'agent_stopped', status: crashed ? 'crashed' : status, ...(reason ? { reason } : {}), ...who })
  if (task.isAsync && !task.notified) notify(rt, task, status, reason)
  // A message that arrived during cleanup is not lost: it resumes the agent (docs/agents.md#messages-to-a-subagent).
  if (task.pending.length > 0 && status !== 'killed')
    rt.sendMessage(task.agentId, task.pending.shift()!, task.notifyTo ?? task.parent)
  rt.changed()
}

/**
 * Ends the run's transcript with how it ended (docs/storage.md#transcripts), for readers in another process (the
 * leader following a `process` teammate's subagents). A line the device refuses is not worth
 * more than the cleanup that follows: the run ends all the same, and the reader, seeing no end,
 * takes the agent as stopped when its teammate's process ends.
 */
function recordStop(transcript: TranscriptWriter, record: AgentStoppedRecord): void {
  try {
    transcript.append('system', record, AGENT_STOPPED_SUBTYPE)
  } catch {
    // see above: the run's own end does not depend on this line
  }
}

/** The loop's inputs of the task's next turn. */
function loopOf(rt: SubagentRuntime, task: AgentTaskState): AgentTurn['query'] {
  const o = rt.options
  const config = task.config!
  return {
    agent: { id: task.agentId, name: task.agentName, type: task.agentType, cwd: task.cwd },
    model: task.model,
    system: config.system,
    tools: config.tools,
    messages: task.messages,
    transcriptPath: task.transcriptPath,
    client: o.client,
    maxTurns: config.maxTurns,
    ...(config.extraBreakpoint ? { extraBreakpoint: config.extraBreakpoint } : {}),
    budget: o.budget,
    toolContext: {
      agentId: task.agentId,
      agentName: task.agentName,
      cwd: task.cwd,
      fileState: task.fileState,
      pty: o.pty,
      shells: task.shells,
      ...toolSandbox(o.engine.settings, o.sessionId, task.cwd, {
        agentId: task.agentId,
        agentName: task.agentName,
        // a background agent that may not prompt has no one to ask: unknown hosts are refused
        ask:
          task.isAsync && o.bubblePermissions === false
            ? undefined
            : recordedNetworkAsker(o.prompter, o.bus, (entry) => o.recordPermission?.(entry))
      }),
      services: { subagents: rt, self: asParent(task) }
    },
    gate: createPermissionGate({
      agentId: task.agentId,
      agentName: task.agentName,
      cwd: task.cwd,
      mode: config.mode,
      ...(task.isolation ? { pathGuard: worktreePathGuard(task.isolation) } : {}),
      engine: o.engine,
      prompter: o.prompter,
      sessionAllowRules: [],
      cannotPrompt: () => task.isAsync && o.bubblePermissions === false,
      record: (entry) => {
        o.recordPermission?.(entry)
        if (entry.decision === 'deny') task.denied.push(`${entry.tool}: ${entry.reason}`)
      }
    }),
    drainPending: () => task.pending.splice(0),
    onUsage: (usage, cost) => {
      task.usage = {
        inputTokens: task.usage.inputTokens + usage.inputTokens,
        outputTokens: task.usage.outputTokens + usage.outputTokens,
        cacheCreationInputTokens: task.usage.cacheCreationInputTokens + usage.cacheCreationInputTokens,
        cacheReadInputTokens: task.usage.cacheReadInputTokens + usage.cacheReadInputTokens
      }
      task.costUsd += cost
    }
  }
}

/** The task seen as a parent of its own children (nesting, docs/agents.md#agent-definitions). */
export function asParent(task: AgentTaskState): ParentAgent {
  return {
    agentId: task.agentId,
    agentName: task.agentName,
    depth: task.depth,
    cwd: task.cwd,
    model: task.model,
    mode: () => task.config!.mode(),
    tools: () => task.config!.tools,
    fileState: task.fileState,
    turnSignal: () => task.controller.signal,
    enqueue: (text) => task.pending.push(text),
    get isAsync() {
      return task.isAsync
    },
    isFork: task.agentType === 'fork',
    forkSource: () => ({ system: task.config!.system, messages: task.messages })
  }
}

async function waitForOwnedWork(rt: SubagentRuntime, task: AgentTaskState): Promise<void> {
  for (;;) {
    const children = [...task.children].map((id) => rt.get(id)).filter((c) => c?.status === 'running')
    if (
      (children.length === 0 && task.shells.runningCount() === 0) ||
      task.controller.signal.aborted ||
      task.pending.length > 0
    )
      return
    await Promise.race([...children.map((c) => c!.done), new Promise((r) => setTimeout(r, OWNED_WORK_POLL_MS))])
  }
}

function notify(rt: SubagentRuntime, task: AgentTaskState, status: AgentTaskStatus, reason: string | undefined): void {
  task.notified = true
  const target: ParentAgent = task.notifyTo ?? task.parent
  const result = task.finalText || (reason ? `(no final answer: ${reason})` : '(no final answer)')
  target.enqueue(
    renderTaskNotification({
      agentId: task.agentId,
      outputFile: task.transcriptPath,
      status: status === 'running' ? 'completed' : status,
      description: task.description,
      result,
      usage: task.usage,
      toolUses: task.toolUses,
      durationMs: (task.endedAt ?? Date.now()) - task.startedAt,
      denied: task.denied,
      ...(task.worktree?.kept ? { worktree: { path: task.worktree.path, branch: task.worktree.branch } } : {})
    })
  )
  rt.options.bus.emit({
    type: 'task_notification',
    taskId: task.agentId,
    status: status === 'running' ? 'completed' : status,
    agentId: target.agentId,
    agentName: target.agentName
  })
}
