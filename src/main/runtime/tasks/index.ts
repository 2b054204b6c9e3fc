export { TaskStore, type NewTask, type TaskListing, type TaskPatch, type UpdateResult } from './store'
export { TaskError, TaskFileError, TaskInputError, TaskNotFoundError } from './errors'
export { taskDir } from './files'
export type { TaskChangeListener } from './watch'
