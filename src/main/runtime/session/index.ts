export { runHeadless, runUntilSettled, type HeadlessRunOptions, type HeadlessRunResult } from './headless'
export * from './permissionGate'
export * from './session'
export * from './setup'
