// What the team-transport benchmark and its child processes (child.ts) share: the commands, the
// reports and the clock. No side effects: the benchmark imports it without running a child.
import type { TeamTransport } from '../../src/main/runtime/teamStore'

/** The store a child opens and the team it works in. */
export interface StoreSpec {
  home: string
  transport: TeamTransport
}

/** The JSON argument of each role. */
export type ChildCommand =
  | { store: StoreSpec; team: string; agent: string; n: number; settleMs: number } // wait
  | { store: StoreSpec; team: string; agent: string; expect: number } // watch
  | { store: StoreSpec; team: string; ids: number[]; worker: number } // claim
  | { store: StoreSpec; team: string; to: string; from: string; n: number; sender: true } // send
  | { store: StoreSpec; team: string; to: string; from: string; n: number } // write

/** What one claimant reports. */
export interface ClaimReport {
  attempts: number
  /** Ids of the tasks this process won. */
  won: number[]
  alreadyClaimed: number
  /** Any other refusal (`blocked`, `agent_busy`, `not_found`): none is expected. */
  otherRefusals: number
  /** Claims that threw. */
  failed: number
}

/** Wall-clock ms with sub-ms resolution, comparable across processes. */
export const now = (): number => performance.timeOrigin + performance.now()
