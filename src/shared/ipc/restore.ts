import { z } from 'zod'
import { Empty, Ok } from './common'

/** Restore after restart (issue 8, src/main/app/restore/): resuming an interrupted agent, a new session. */
export const restoreChannels = {
  /**
   * Continues an agent shown `interrupted` (it was working when the workspace's process ended) from
   * its transcript: the leader continues its turn, a teammate is started again with its
   * conversation, a subagent is resumed as SendMessage resumes a stopped one. Refused for an agent
   * that is not interrupted.
   */
  'agent.resume': { request: z.object({ agentId: z.string().min(1) }).strict(), response: Ok },
  /**
   * Ends the current session (its agents are stopped, its transcript kept) and opens a new, empty
   * one in the same workspace; the next start reopens the new one. Answers its id; the UI reloads.
   */
  'workspace.newSession': { request: Empty, response: z.object({ sessionId: z.string() }) }
} as const
