import { z } from 'zod'

/**
 * The shared task list's on-disk and wire shapes (docs/teams.md#shared-task-list). One file per task at
 * `<home>/tasks/{team}/{id}.json`; the UI receives the same objects in `task_updated` events.
 */

/** Version of the task file format; bump it (and migrate) when a field changes meaning. */
export const TASK_SCHEMA_VERSION = 1

/** A task's life: `pending` (claimable when unowned and unblocked) → `in_progress` → `completed`. */
export const TaskStatusSchema = z.enum(['pending', 'in_progress', 'completed'])
export type TaskStatus = z.infer<typeof TaskStatusSchema>

/** Task ids are small positive integers from the team's high-water mark, never reused. */
export const TaskIdSchema = z.number().int().positive()

/**
 * One task file. `blocks`/`blockedBy` are kept symmetric by the store (A in B.blockedBy ⇔ B in
 * A.blocks). `owner` is an agent name (`alice`, `team-lead`), not an agent id. Times are ISO 8601.
 */
export const TaskSchema = z.object({
  schemaVersion: z.literal(TASK_SCHEMA_VERSION),
  id: TaskIdSchema,
  subject: z.string().min(1),
  description: z.string(),
  /** Present-continuous label shown while in progress ("Running tests"). */
  activeForm: z.string().optional(),
  owner: z.string().min(1).optional(),
  status: TaskStatusSchema,
  blocks: z.array(TaskIdSchema),
  blockedBy: z.array(TaskIdSchema),
  createdAt: z.string(),
  updatedAt: z.string()
})
export type Task = z.infer<typeof TaskSchema>

/**
 * Why a claim failed (docs/teams.md#shared-task-list): `already_claimed` — another agent owns it, or it is completed;
 * `blocked` — a task in `blockedBy` is not completed; `agent_busy` — the claimant already owns
 * another `in_progress` task (one task at a time per agent, as Claude Code's claim with its busy
 * check); `not_found` — no such task.
 */
export const ClaimFailureReasonSchema = z.enum(['already_claimed', 'blocked', 'agent_busy', 'not_found'])
export type ClaimFailureReason = z.infer<typeof ClaimFailureReasonSchema>

/** Outcome of a claim: the claimed task, or the reason with whatever explains it. */
export const ClaimResultSchema = z.discriminatedUnion('ok', [
  z.object({ ok: z.literal(true), task: TaskSchema }),
  z.object({
    ok: z.literal(false),
    reason: ClaimFailureReasonSchema,
    /** The task as it stood when the claim was refused (absent for `not_found`). */
    task: TaskSchema.optional(),
    /** For `blocked`: the unfinished blockers. For `agent_busy`: the tasks the agent holds. */
    taskIds: z.array(TaskIdSchema).optional()
  })
])
export type ClaimResult = z.infer<typeof ClaimResultSchema>

/** A change to the task list, as delivered to subscribers: the whole task after it, or its deletion. */
export const TaskChangeSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('updated'), team: z.string(), task: TaskSchema }),
  z.object({ type: z.literal('deleted'), team: z.string(), id: TaskIdSchema })
])
export type TaskChange = z.infer<typeof TaskChangeSchema>

/** Whether a task can be claimed now: pending, unowned, and every blocker completed. */
export function isClaimable(task: Task, statusOf: (id: number) => TaskStatus | undefined): boolean {
  return (
    task.status === 'pending' &&
    task.owner === undefined &&
    task.blockedBy.every((b) => statusOf(b) === 'completed' || statusOf(b) === undefined)
  )
}
