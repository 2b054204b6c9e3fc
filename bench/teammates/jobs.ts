import type { TeammateBackend } from '../../src/main/runtime/teammates/executor'

/** What one benchmark child measures. */
export type Job =
  | { kind: 'spawn'; backend: TeammateBackend; teammates: number; /** worker: keep the executor's spare (the default), or start cold. */ warmSpare: boolean }
  | { kind: 'bare'; backend: TeammateBackend; teammates: number }
  | { kind: 'permission'; backend: TeammateBackend; samples: number }
