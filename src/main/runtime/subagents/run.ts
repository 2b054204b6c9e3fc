import { type ParentAgent } from '../tools'
import type { ContentBlockParam, MessageParam } from '@anthropic-ai/sdk/resources/messages'
import { modelFailureEvents, query, type LoopEvent, type QueryEnd } from '../loop'
import { createAgentSink, createPermissionGate } from '../runner'
import { messagesForResume, readTranscript, AGENT_STARTED_SUBTYPE, AGENT_STOPPED_SUBTYPE, type AgentStartedRecord, type AgentStoppedRecord, TranscriptWriter } from '../transcripts'
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
  const config = task.config!
  let parentUuid: string | null = null
  let repair: MessageParam | undefined
  if (resume) {
    const { entries } = readTranscript(task.transcriptPath)
    const resumed = messagesForResume(entries)
    task.messages = resumed.messages
    repair = resumed.repair
    if (repair) task.messages.pop()
    parentUuid = entries[entries.length - 1]?.uuid ?? null
  }
  const transcript = new TranscriptWriter(task.transcriptPath, task.agentId, parentUuid)
  if (repair) {
    // calls a dead process cut short (restore after restart): their placeholder results go out with
    // the message that resumes the agent, in one user message, so the history stays valid
    const message: MessageParam = { role: 'user', content: [...(repair.content as ContentBlockParam[]), ...task.pending.splice(0).map((text) => ({ type: 'text' as const, text }))] }
    task.messages.push(message)
    transcript.append('user', message)
  }
  if (!resume) {
    const header: AgentStartedRecord = { agentId: task.agentId, agentName: task.agentName, agentType: task.agentType, description: task.description, parentId: task.parentId, depth: task.depth, model: task.model, cwd: task.cwd, isAsync: task.isAsync }
    transcript.append('system', header, AGENT_STARTED_SUBTYPE)
    // A fork starts with its parent's whole history: all of it goes to its transcript, so a
    // resume re-serialises the same bytes.
    for (const m of task.messages) transcript.append(m.role === 'assistant' ? 'assistant' : 'user', m)
    o.bus.emit({ type: 'agent_started', agentType: task.agentType, parentId: task.parentId, depth: task.depth, model: task.model, cwd: task.cwd, agentId: task.agentId, agentName: task.agentName })
  }
  o.bus.emit({ type: 'agent_state', state: 'running', agentId: task.agentId, agentName: task.agentName })
  const sink = createAgentSink({ bus: o.bus, transcript: () => transcript, agentId: task.agentId, agentName: task.agentName, onToolCall: () => task.toolUses++ })
  let end: QueryEnd | undefined
  let crash: string | undefined
  try {
    for (;;) {
      end = await drive(runLoop(rt, task), sink)
      if (end.reason === 'completed') {
        await waitForOwnedWork(rt, task)
        if (!task.controller.signal.aborted && task.pending.length > 0) continue
      }
      // SubagentStop may keep a completed agent working, its stderr as the next instruction (docs/hooks.md#hooks).
      const endedBy = task.controller.signal.aborted ? 'killed' : end.reason === 'completed' ? 'completed' : 'failed'
      const outcome = await task.hooks?.stop({ endedBy, lastAssistantMessage: end.finalText })
      for (const w of outcome?.warnings ?? []) o.bus.emit({ type: 'notice', level: 'warning', message: w, agentId: task.agentId, agentName: task.agentName })
      if (outcome?.kind === 'block' && endedBy === 'completed' && !task.controller.signal.aborted) {
        task.pending.push(`A SubagentStop hook asks you to keep working:\n${outcome.reason}`)
        continue
      }
      break
    }
  } catch (error) {
    crash = error instanceof Error ? error.message : String(error)
    await task.hooks?.stop({ endedBy: 'failed', lastAssistantMessage: '' })
  }
  const status: AgentTaskStatus = task.controller.signal.aborted ? 'killed' : crash || end?.reason !== 'completed' ? 'failed' : 'completed'
  task.finalText = end?.finalText ?? ''
  const reason = crash ?? (end?.reason === 'model_error' ? end.error.message : end && end.reason !== 'completed' && end.reason !== 'aborted' ? end.reason : undefined)
  task.unlinkParent?.()
  await task.shells.killAll()
  recordStop(transcript, { status: crash ? 'crashed' : status, ...(reason ? { reason } : {}) })
  transcript.close()
  if (task.isolation) {
    const finished = await finishWorktree(task.isolation)
    task.worktree = { path: task.isolation.path, branch: task.isolation.branch, kept: finished.kept, reason: finished.reason }
  }
  // The task counts as running until its cleanup is done, so nothing waiting on it (a headless
  // run, a parent) sees it end before its worktree and shells are settled.
  task.status = status
  task.endedAt = Date.now()
  // a failed model call shows as `error` with its reason (a SendMessage resumes and retries it, docs/agents.md#messages-to-a-subagent)
  const ends = !crash && status === 'failed' && end?.reason === 'model_error' ? modelFailureEvents(end.error) : [{ type: 'agent_state', state: crash ? 'crashed' : 'exited' } as const]
  for (const e of ends) o.bus.emit({ ...e, agentId: task.agentId, agentName: task.agentName })
  o.bus.emit({ type: 'agent_stopped', status: crash ? 'crashed' : status, ...(reason ? { reason } : {}), agentId: task.agentId, agentName: task.agentName })
  if (task.isAsync && !task.notified) notify(rt, task, status, reason)
  // A message that arrived during cleanup is not lost: it resumes the agent (docs/agents.md#messages-to-a-subagent).
  if (task.pending.length > 0 && status !== 'killed') rt.sendMessage(task.agentId, task.pending.shift()!, task.notifyTo ?? task.parent)
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

function runLoop(rt: SubagentRuntime, task: AgentTaskState) {
  const o = rt.options
  const config = task.config!
  return query({
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
    signal: task.controller.signal,
    toolContext: {
      agentId: task.agentId,
      agentName: task.agentName,
      cwd: task.cwd,
      fileState: task.fileState,
      pty: o.pty,
      shells: task.shells,
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
  })
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

async function drive(loop: AsyncGenerator<LoopEvent, QueryEnd>, sink: (e: LoopEvent) => void): Promise<QueryEnd> {
  for (;;) {
    const step = await loop.next()
    if (step.done) return step.value
    sink(step.value)
  }
}

async function waitForOwnedWork(rt: SubagentRuntime, task: AgentTaskState): Promise<void> {
  for (;;) {
    const children = [...task.children].map((id) => rt.get(id)).filter((c) => c?.status === 'running')
    if ((children.length === 0 && task.shells.runningCount() === 0) || task.controller.signal.aborted || task.pending.length > 0) return
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
  rt.options.bus.emit({ type: 'task_notification', taskId: task.agentId, status: status === 'running' ? 'completed' : status, agentId: target.agentId, agentName: target.agentName })
}
