import { TeamTransportError } from '../transport'

/**
 * What the rest of the runtime names of the NATS team store without loading the NATS client: its
 * constants, its error and its options. The client itself (`connection.ts`, `store.ts` and the
 * `@nats-io` packages) loads only when a store on a server is opened (`open.ts`), so a worker
 * teammate of a team on the files never loads it (docs/teams.md#worker-teammate-start-up).
 */

/** The stream holding every inbox, one subject per inbox: `swarmdesk.mail.{team}.{agent}`. */
export const MAIL_STREAM = 'SWARMDESK_MAIL'
/** How long JetStream remembers a message id to drop a re-sent duplicate, ms (a retried send lands within it). */
export const DEDUP_WINDOW_MS = 120_000
/** TTL of the liveness bucket, ms: a teammate whose last heartbeat is older is gone (docs/nats.md#liveness). */
export const DEFAULT_LIVENESS_TTL_MS = 5_000
/** TTL of the lock bucket, ms: a lock whose holder vanished is gone by then at the latest. */
export const LOCK_TTL_MS = 30_000

/** The server could not be used: unreachable, refused the credentials, or has JetStream off. Says which and what to do. */
export class TeamStoreUnavailableError extends TeamTransportError {
  override name = 'TeamStoreUnavailableError'
}

/** Options of `openNats` (connection.ts). */
export interface NatsOpenOptions {
  /** Replicas of the stream and buckets when they are first made (1 on a single server). */
  replicas?: number
  /** TTL of the liveness bucket when it is first made, ms (default {@link DEFAULT_LIVENESS_TTL_MS}). */
  livenessTtlMs?: number
  /** Connect timeout, ms (default 3,000). */
  timeoutMs?: number
}
