export { killProcessTree, waitUntilGone, type KillTreeOptions, type KillTreeResult } from './killTree'
export {
  isProcessAlive,
  listDescendantPids,
  findPidsWithEnv,
  snapshotProcesses,
  readProcEntry,
  type ProcEntry
} from './procfs'
