import { createSubagentHookPairing } from '../hooks'
import { Budget } from '../loop'
import { protocolBody } from '../../../shared/mailbox'
import type { PermissionPrompter } from '../permissions'
import type { ProjectContext, TurnEnd } from '../runner'
import { SubagentRuntime, loadSubagentWiring, type AgentMcp, type SubagentDefinition } from '../subagents'
import { readTeammateEnv } from './env'
import type { AgentParts } from './agent'

/** Characters of the last text kept as an idle notification's summary. */
const SUMMARY_CHARS = 200

/**
 * The runtime of the teammate's subagents: the leader session's machinery (definitions loaded as
 * the leader loads them, docs/agents.md#agent-definitions's tool filtering and model precedence, SubagentStart/Stop hooks)
 * with background work disabled — every spawn is sync and never auto-backgrounded (docs/teams.md#spawning-a-teammate) —
 * and no forks. Its subagents share the teammate's bus (events in their own names, the teammate
 * as parent), PTY host (a worker's RPC client of the main thread's host), permission engine and
 * prompter (their questions go to the leader tagged with the teammate, the reason naming the
 * subagent), and write their transcripts beside the teammate's. `agentMcp` gives them their
 * definitions' `mcpServers` as the leader's subagents get theirs (docs/tools.md#mcp-servers). Also
 * returns the teammate's own definition (its `agentType`), when one is defined.
 */
export async function createTeammateSubagents(
  parts: AgentParts,
  prompter: PermissionPrompter,
  context: ProjectContext,
  agentMcp: AgentMcp
): Promise<{ subagents: SubagentRuntime; definition: SubagentDefinition | undefined }> {
  const { identity, teamContext } = parts
  const { subagents: wiring } = await loadSubagentWiring({
    cwd: identity.cwd,
    home: teamContext.home,
    env: parts.env ?? process.env,
    trustProject: readTeammateEnv(parts.env ?? process.env).trustProject
  })
  const asking = prompter
  // its own type's definition: the MCP servers it names or defines (docs/tools.md#mcp-servers)
  const definition = wiring.definitions().get(parts.member.agentType || 'general-purpose')
  const subagents = new SubagentRuntime({
    ...wiring,
    cwd: identity.cwd,
    home: teamContext.home,
    sessionId: teamContext.sessionId,
    bus: parts.bus,
    client: parts.client.client,
    engine: parts.engine,
    prompter: {
      prompt: (request, signal) =>
        asking.prompt(
          {
            ...request,
            reason: `${request.reason} (asked by ${identity.name}'s subagent ${request.agentName}, ${request.agentId})`
          },
          signal
        )
    },
    pty: parts.pty,
    budget: new Budget(),
    projectContext: context,
    ...(teamContext.hooks ? { hooks: createSubagentHookPairing(teamContext.hooks) } : {}),
    backgroundDisabled: true,
    autoBackgroundMs: 0,
    forkEnabled: false,
    coordinator: false,
    agentMcp
  })
  return { subagents, definition }
}

/**
 * Tells the leader the turn ended (docs/teams.md#teammate-life-cycle): an `idle_notification` with a
 * summary of its last text, why it went idle, the failure's reason and the task it completed.
 */
export async function notifyIdle(
  parts: AgentParts,
  end: TurnEnd,
  taskId: string | undefined,
  failure: string | undefined
): Promise<void> {
  const { identity, mailbox, team, leader, teamContext } = parts
  const completed =
    taskId !== undefined &&
    (await teamContext.store.tasks.get(teamContext.taskListName(), Number(taskId)))?.status === 'completed'
  const summary = end.finalText.trim().replace(/\s+/g, ' ').slice(0, SUMMARY_CHARS)
  const idle = protocolBody('idle_notification', {
    from: identity.name,
    idleReason: end.reason === 'completed' ? 'available' : end.reason === 'aborted' ? 'interrupted' : 'failed',
    ...(summary ? { summary } : {}),
    // Claude Code's field: the leader (and a process teammate's pane in the workspace) learn why
    ...((end.reason === 'model_error' || end.reason === 'failed') && failure
      ? { failureReason: failure, failureKind: end.reason === 'failed' ? 'turn' : 'model' }
      : {}),
    ...(completed ? { completedTaskId: taskId } : {})
  })
  await mailbox.send(team, leader, {
    from: identity.name,
    body: idle,
    ...(parts.member.color ? { color: parts.member.color } : {})
  })
}
