export { killProcessTree, waitUntilGone, type KillTreeOptions, type KillTreeResult } from './killTree'
export {
  isProcessAlive,
  listDescendantPids,
  listTreeFromChildren,
  findPidsWithEnv,
  snapshotProcesses,
  readProcEntry,
  type ProcEntry
} from './procfs'
