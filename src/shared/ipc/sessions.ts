import { z } from 'zod'
import { Empty } from './common'

/**
 * One session of the workspace as the top bar's Sessions menu lists it (`sessions.list`): when it
 * started and was last active (ISO times), what it was asked first, the team it leads, whether it
 * is the session this workspace has open, and whether another Swarmdesk process has it open (it
 * cannot be opened here then: two processes writing one transcript would interleave it).
 */
export const SessionListEntrySchema = z.object({
  sessionId: z.string().min(1),
  createdAt: z.string(),
  lastActivity: z.string(),
  /** The first prompt, cut at 80 characters; absent while the session has none. */
  firstPrompt: z.string().optional(),
  /** The team the session led when it last saved its state (`workspace.json`, docs/storage.md#restore-files). */
  team: z.string().optional(),
  /** Transcript lines: 0 for a session that never got a prompt. */
  entries: z.number().int().nonnegative(),
  current: z.boolean(),
  /** The pid of another live process that has the session open. */
  openElsewhere: z.number().int().positive().optional()
})
export type SessionListEntry = z.infer<typeof SessionListEntrySchema>

/** `sessions.list`'s answer: the workspace's sessions, most recently active first. */
export const SessionListSchema = z.object({ sessions: z.array(SessionListEntrySchema) })
export type SessionList = z.infer<typeof SessionListSchema>

/** `workspace.openSession`'s request: the session to reopen in place of the current one. */
export const OpenSessionSchema = z
  .object({ sessionId: z.string().trim().min(1, 'name the session to open (its id, from sessions.list)').max(200) })
  .strict()

/**
 * The top bar's Sessions menu (docs/ui.md#the-first-screen): the workspace's sessions, and
 * reopening one of them in place of the current one (src/main/app/restore/controller.ts).
 */
export const sessionsChannels = {
  /** The workspace's sessions, most recently active first. */
  'sessions.list': { request: Empty, response: SessionListSchema },
  /**
   * Ends the current session (as New session does) and reopens `sessionId` of this workspace: its
   * leader from its transcript, its panes with their scrollback, its team; agents that were working
   * shown `interrupted`. Refused while the leader works, for an unknown session, a session id with
   * a path in it, or one another process has open. Answers its id; the UI reloads.
   */
  'workspace.openSession': { request: OpenSessionSchema, response: z.object({ sessionId: z.string() }) }
} as const
