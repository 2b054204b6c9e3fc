import type { AgentView } from '../../../shared/ipc'
import { type Session, RESUME_PROMPT } from '../../runtime/session'
import { TeammateSpawnError } from '../../runtime/teammates'
import { RestoreError } from './controller'

/**
 * Resumes an interrupted teammate or subagent of `session` from its transcript (restore after
 * restart): a teammate is started again on its backend with its conversation and told to
 * continue (TeammateSupervisor.resume); a subagent is resumed as SendMessage resumes a stopped one
 * (docs/agents.md#messages-to-a-subagent), its result going to the leader as a task notification.
 * @throws RestoreError when the agent cannot be resumed (no team, no longer a member, subagents off), naming why.
 */
export async function resumeMember(session: Session, agent: AgentView): Promise<void> {
  if (agent.backend) {
    if (!session.teammates) throw new RestoreError('Teammates are not enabled in this workspace.')
    try {
      await session.teammates.resume(agent.agentName, RESUME_PROMPT)
    } catch (error) {
      if (error instanceof TeammateSpawnError) throw new RestoreError(error.message)
      throw error
    }
    return
  }
  const subagents = session.subagents
  if (!subagents) throw new RestoreError('Subagents are not enabled in this workspace.')
  try {
    await subagents.resumeFromTranscript({
      agentId: agent.agentId,
      agentName: agent.agentName,
      agentType: agent.agentType,
      parent: session.asParent(),
      message: RESUME_PROMPT
    })
  } catch (error) {
    throw new RestoreError(`${agent.agentName} cannot be resumed: ${(error as Error).message}`)
  }
}
