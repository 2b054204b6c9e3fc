export { killProcessTree, waitUntilGone, type KillTreeOptions, type KillTreeResult } from './killTree'
export {
  isProcessAlive,
  listDescendantPids,
  listTreeFromChildren,
  findPidsWithEnv,
  snapshotProcesses,
  readProcEntry,
  readProcRange,
  lastPid,
  type ProcEntry
} from './procfs'
