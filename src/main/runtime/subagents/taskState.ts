import { createBackgroundShells } from '../pty'
import { ZERO_USAGE } from '../../../shared/events'
import { ToolError, type ParentAgent } from '../tools'
import { agentTranscriptPath } from '../storage'
import { createWorktree, WorktreeError, type Worktree } from '../worktrees'
import type { SubagentRuntimeOptions } from './options'
import type { AgentTaskState, AgentTaskView } from './types'

/** What a new task starts from (docs/agents.md#subagents): who spawned it, its identity, model, folder and history. */
export interface TaskInit {
  parent: ParentAgent
  agentId: string
  agentName: string
  agentType: string
  description: string
  model: string
  modelSource: string
  isAsync: boolean
  cwd: string
  messages: AgentTaskState['messages']
  /** Its own git worktree, when it runs isolated (docs/agents.md#worktree-isolation). */
  isolation?: Worktree
}

/**
 * A task's initial state, running: its transcript path under the session, fresh background
 * shells, a copy of the parent's read-file state, no children yet. Not registered anywhere.
 */
export function newTaskState(
  init: TaskInit,
  store: Pick<SubagentRuntimeOptions, 'home' | 'cwd' | 'sessionId' | 'pty'>
): AgentTaskState {
  return {
    agentId: init.agentId,
    agentName: init.agentName,
    agentType: init.agentType,
    description: init.description,
    parentId: init.parent.agentId,
    depth: init.parent.depth + 1,
    model: init.model,
    modelSource: init.modelSource,
    status: 'running',
    isAsync: init.isAsync,
    startedAt: Date.now(),
    usage: { ...ZERO_USAGE },
    costUsd: 0,
    toolUses: 0,
    transcriptPath: agentTranscriptPath(store.home, store.cwd, store.sessionId, init.agentId),
    finalText: '',
    denied: [],
    cwd: init.cwd,
    parent: init.parent,
    controller: new AbortController(),
    shells: createBackgroundShells(store.pty),
    fileState: init.parent.fileState.clone(),
    children: new Set(),
    pending: [],
    messages: init.messages,
    done: Promise.resolve(),
    notified: false,
    ...(init.isolation
      ? { isolation: init.isolation, worktree: { path: init.isolation.path, branch: init.isolation.branch } }
      : {})
  }
}

/** Creates the agent's worktree; git's refusals become tool errors the model can act on (no side effects). */
export async function createIsolation(parentCwd: string, agentId: string): Promise<Worktree> {
  try {
    return await createWorktree({ cwd: parentCwd, agentId })
  } catch (error) {
    if (error instanceof WorktreeError) throw new ToolError(`Cannot isolate the agent in a worktree: ${error.message}`)
    throw error
  }
}

/** A sync task stops with its parent's turn (Esc on the parent stops the child it waits for). */
export function linkToParentTurn(task: AgentTaskState): void {
  const signal = task.parent.turnSignal()
  const onAbort = (): void => task.controller.abort()
  if (signal.aborted) task.controller.abort()
  else signal.addEventListener('abort', onAbort, { once: true })
  task.unlinkParent = () => signal.removeEventListener('abort', onAbort)
}

/** The task as tools and the UI see it: its internal state (controller, shells, history…) left out. */
export function taskView(task: AgentTaskState): AgentTaskView {
  const {
    parent: _p,
    controller: _c,
    shells: _s,
    fileState: _f,
    children: _ch,
    pending: _pe,
    messages: _m,
    done: _d,
    notified: _n,
    notifyTo: _t,
    unlinkParent: _u,
    config: _cf,
    isolation: _i,
    hooks: _h,
    ...view
  } = task
  return {
    ...view,
    usage: { ...view.usage },
    denied: [...view.denied],
    ...(view.worktree ? { worktree: { ...view.worktree } } : {})
  }
}
