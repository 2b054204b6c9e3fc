/**
 * The PTY host (docs/design.md#process-model): every terminal of the process, the background shells of each agent,
 * (the /proc helpers that prove a killed process tree is gone are in processes/).
 */
export {
  createPtyHost,
  type PtyHostOptions,
  FIXED_PTY_ENV,
  PTY_TAG_VARIABLE,
  RUN_OUTPUT_HEAD_CHARS,
  RUN_OUTPUT_TAIL_CHARS
} from './ptyHost'
export { type PtyFlowControl, PtyHostDisposedError, PtySizeError } from './liveTerminal'
export { createBackgroundShells, type BackgroundShellsOptions } from './backgroundShells'
export { cleanTerminalOutput } from './terminalText'
export { HeadTailBuffer, TailBuffer, omittedNote } from './outputBuffers'
export * from './types'
