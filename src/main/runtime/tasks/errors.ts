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
