import { z } from 'zod'
import { Empty, Ok } from './common'

// Claude Code's agent teams as the workspace shows them (docs/claude-code-teams.md):
// read from Claude Code's config folder, recorded as they change, and acted on with its protocol.

/** A file of Claude Code's that does not parse as 2.1.197 writes it: the path and what failed. */
export const ClaudeUnreadableSchema = z.object({ path: z.string(), reason: z.string() })

/**
 * A member: `active` while `config.json` lists it (Claude Code removes it on shutdown), `gone` once
 * removed or when seen only in a task owner, an inbox name or a transcript. Times are ISO 8601.
 */
export const ClaudeTeamMemberSchema = z.object({
  name: z.string(),
  status: z.enum(['active', 'gone']),
  agentId: z.string().optional(),
  color: z.string().optional(),
  model: z.string().optional(),
  backendType: z.string().optional(),
  cwd: z.string().optional(),
  joinedAt: z.string().optional(),
  planModeRequired: z.boolean().optional(),
  mode: z.string().optional(),
  /** Its transcript (`projects/<slug>/<session>/subagents/agent-….jsonl`), when found: its pane's text comes from it. */
  transcript: z.string().optional()
})
export type ClaudeTeamMember = z.infer<typeof ClaudeTeamMemberSchema>

/** A task as last seen; `wiped` once Claude Code removed the list (it does so 5 s after all complete). */
export const ClaudeTeamTaskSchema = z.object({
  id: z.string(),
  subject: z.string(),
  description: z.string(),
  activeForm: z.string().optional(),
  owner: z.string().optional(),
  status: z.enum(['pending', 'in_progress', 'completed']),
  blocks: z.array(z.string()),
  /** As Claude Code keeps it: never cleared when a blocker completes. `waitingFor` is what still blocks. */
  blockedBy: z.array(z.string()),
  waitingFor: z.array(z.string()),
  wiped: z.boolean()
})
export type ClaudeTeamTask = z.infer<typeof ClaudeTeamTaskSchema>

/**
 * A message as recorded when it appeared in an inbox (Claude Code removes delivered ones, so
 * `delivered` marks those no longer there). `kind`: `plain` or the protocol `type` inside `text`;
 * `summary`: the sender's, else a readable line made from the body, never JSON.
 */
export const ClaudeTeamMessageSchema = z.object({
  /** `msg_id` when the message has one, else a hash of sender, time and text (Claude Code's own identity). */
  key: z.string(),
  to: z.string(),
  from: z.string(),
  timestamp: z.string(),
  color: z.string().optional(),
  kind: z.string(),
  summary: z.string(),
  text: z.string(),
  read: z.boolean(),
  delivered: z.boolean(),
  invalid: z.string().optional(),
  rev: z.number().int().positive()
})
export type ClaudeTeamMessage = z.infer<typeof ClaudeTeamMessageSchema>

/**
 * A subagent of the team's session (an agent started with the Agent tool, not a teammate), with
 * who started it, when its Agent call has been found: `parent` names a member (`team-lead` for
 * the lead session itself), `parentAgentId` another subagent. The UI nests it there.
 */
export const ClaudeSubagentSchema = z.object({
  agentId: z.string(),
  transcript: z.string(),
  agentType: z.string().optional(),
  description: z.string().optional(),
  parent: z.string().optional(),
  parentAgentId: z.string().optional()
})
export type ClaudeSubagent = z.infer<typeof ClaudeSubagentSchema>

/** One Claude Code team: `live` while its config exists and its session runs; `ended` teams are read-only. */
export const ClaudeTeamViewSchema = z.object({
  name: z.string(),
  status: z.enum(['live', 'ended']),
  createdAt: z.string().optional(),
  leadAgentId: z.string().optional(),
  leadSessionId: z.string().optional(),
  members: z.array(ClaudeTeamMemberSchema),
  tasks: z.array(ClaudeTeamTaskSchema),
  messages: z.array(ClaudeTeamMessageSchema),
  /** The session's subagents, in the order first seen. */
  subagents: z.array(ClaudeSubagentSchema),
  unreadable: z.array(ClaudeUnreadableSchema)
})
export type ClaudeTeamView = z.infer<typeof ClaudeTeamViewSchema>

/** Every Claude Code team seen: the folder watched, and the teams, live first. */
export const ClaudeTeamsSchema = z.object({ configDir: z.string(), teams: z.array(ClaudeTeamViewSchema) })
export type ClaudeTeams = z.infer<typeof ClaudeTeamsSchema>

const Team = z.string().min(1).max(200)
const Name = z.string().min(1).max(200)

/** The requests on Claude Code's teams (docs/claude-code-teams.md). Each write refuses an ended team. */
export const claudeTeamsChannels = {
  /** Every team seen under Claude Code's config folder (watching starts with the first call); changes come as `claudeTeams.changed`. */
  'claudeTeams.list': { request: Empty, response: ClaudeTeamsSchema },
  /**
   * A teammate's pane text, rendered from its transcript (`text`: lines of plain text); with
   * `subagent` (its agent id), that subagent's instead.
   */
  'claudeTeams.transcript': {
    request: z
      .object({ team: Team, name: Name.optional(), subagent: z.string().min(1).max(200).optional() })
      .strict()
      .refine((r) => (r.name === undefined) !== (r.subagent === undefined), 'give either name or subagent'),
    response: z.object({ path: z.string(), text: z.string() })
  },
  /** Drag-to-assign: sets the task's owner in its file and writes a `task_assignment` to the owner's inbox. */
  'claudeTeams.assign': {
    request: z.object({ team: Team, taskId: z.string().min(1).max(20), owner: Name }).strict(),
    response: ClaudeTeamTaskSchema
  },
  /** A person's message to a teammate, written to its inbox from `team-lead`. */
  'claudeTeams.message': {
    request: z
      .object({ team: Team, to: Name, text: z.string().trim().min(1, 'the message is empty').max(100_000) })
      .strict(),
    response: Ok
  },
  /** Asks a teammate to shut down: a `shutdown_request` in its inbox (it may reject it). */
  'claudeTeams.shutdown': {
    request: z.object({ team: Team, name: Name, reason: z.string().max(2000).optional() }).strict(),
    response: z.object({ requestId: z.string() })
  },
  /** Answers a teammate's `plan_approval_request` (by its `requestId`): approve, or reject with feedback. */
  'claudeTeams.answerPlan': {
    request: z
      .object({
        team: Team,
        name: Name,
        requestId: z.string().min(1),
        approve: z.boolean(),
        feedback: z.string().max(20_000).optional()
      })
      .strict(),
    response: Ok
  }
} as const
