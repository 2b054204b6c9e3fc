/**
 * The `worker` teammate backend (docs/design.md#process-model, docs/teams.md#agent-teams): one worker_thread per teammate, its shell commands
 * in the main thread's PTY host and its permission questions in the leader's queue, both over a
 * MessagePort RPC (see `protocol.ts`).
 */
export {
  WorkerTeammateExecutor,
  DEFAULT_HEARTBEAT_TIMEOUT_MS,
  DEFAULT_WORKER_RESOURCE_LIMITS,
  type WorkerTeammateExecutorOptions
} from './executor'
export { WORKER_PROTOCOL_VERSION, HEARTBEAT_INTERVAL_MS, WorkerProtocolError } from './protocol'
