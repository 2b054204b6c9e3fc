import type { TeammateBackend } from '../../src/main/runtime/teammates/executor'

/** What one benchmark child measures. */
export type Job =
  | {
      kind: 'spawn'
      backend: TeammateBackend
      teammates: number
      /** worker: keep the executor's spare (the default), or start cold. */
      warmSpare: boolean
      /** worker: the bundle's V8 code cache is there (primed first, as after the app's first worker of a build), or none is used. */
      codeCache: boolean
    }
  | { kind: 'bare'; backend: TeammateBackend; teammates: number }
  | { kind: 'permission'; backend: TeammateBackend; samples: number }
