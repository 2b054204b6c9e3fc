import { formatCycle } from './cycles'

/** Errors of the task list; one base, subclassed by blame; `name` survives IPC. */
export class TaskError extends Error {
  override name = 'TaskError'
}

/** The caller named a task that does not exist (update, delete, a link target). */
export class TaskNotFoundError extends TaskError {
  override name = 'TaskNotFoundError'
  constructor(
    readonly team: string,
    readonly id: number
  ) {
    super(`Task #${id} does not exist in team '${team}'.`)
  }
}

/** Bad input from the caller: an invalid team name, an empty subject, a task linked to itself. */
export class TaskInputError extends TaskError {
  override name = 'TaskInputError'
}

/** A task file on disk that is not a valid task (hand-edited, or from a newer version). */
export class TaskFileError extends TaskError {
  override name = 'TaskFileError'
  constructor(
    readonly file: string,
    readonly problem: string
  ) {
    super(`${file}: ${problem}`)
  }
}

/**
 * A dependency change refused because it would close a cycle (each task in it would wait for
 * itself through the others, so none could ever be claimed). `cycle` runs from the changed task
 * back to it; the message names it as `#1 → #2 → #1`. Not a usage error: the ids were valid, the
 * list's state refuses them (the CLI exits 1, a tool call gets `is_error`).
 */
export class TaskCycleError extends TaskError {
  override name = 'TaskCycleError'
  constructor(
    readonly team: string,
    readonly cycle: number[]
  ) {
    super(
      `Refused: this dependency would close the cycle ${formatCycle(cycle)} (→ reads "waits for") in team '${team}', and no task in it could ever start. Nothing was changed; drop one of these links instead.`
    )
  }
}
