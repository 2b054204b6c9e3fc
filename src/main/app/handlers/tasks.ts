import type { taskChannels } from '../../../shared/ipc'
import { refusing } from '../requestError'
import * as taskBoard from '../taskBoard'
import type { FeatureHandlers, HandlerContext } from './context'

/** The task board's requests (src/shared/ipc/tasks.ts), answered by taskBoard.ts; a refusal is shown on the card. */
export function taskHandlers(ctx: HandlerContext): FeatureHandlers<typeof taskChannels> {
  const board = <T>(work: () => T | Promise<T>): Promise<T> => refusing([taskBoard.TaskBoardError], work)
  return {
    'tasks.list': () => board(() => taskBoard.listTasks(ctx.session())),
    'tasks.create': (payload) => board(() => taskBoard.createTask(ctx.session(), payload)),
    'tasks.update': (payload) => board(() => taskBoard.updateTask(ctx.session(), payload)),
    'tasks.assign': (payload) => board(() => taskBoard.assignTask(ctx.session(), payload.taskId, payload.owner))
  }
}
