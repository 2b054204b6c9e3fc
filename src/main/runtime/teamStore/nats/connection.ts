import { readFileSync } from 'node:fs'
import { connect, credsAuthenticator, type NatsConnection } from '@nats-io/transport-node'
import {
  jetstream,
  jetstreamManager,
  JetStreamApiError,
  StorageType,
  type JetStreamClient,
  type JetStreamManager
} from '@nats-io/jetstream'
import { Kvm, type KV } from '@nats-io/kv'
import { describeTransport, type TeamTransport } from '../transport'
import {
  DEDUP_WINDOW_MS,
  DEFAULT_LIVENESS_TTL_MS,
  LOCK_TTL_MS,
  MAIL_STREAM,
  TeamStoreUnavailableError,
  type NatsOpenOptions
} from './shared'

export {
  DEDUP_WINDOW_MS,
  DEFAULT_LIVENESS_TTL_MS,
  LOCK_TTL_MS,
  MAIL_STREAM,
  TeamStoreUnavailableError,
  type NatsOpenOptions
} from './shared'

/** An open connection and the buckets of the team store. */
export interface NatsHandles {
  nc: NatsConnection
  js: JetStreamClient
  jsm: JetStreamManager
  tasks: KV
  teams: KV
  reads: KV
  locks: KV
  live: KV
  livenessTtlMs: number
}

/**
 * Connects to the transport's servers, checks that JetStream is on, and makes (or binds) the mail
 * stream and the KV buckets. Reconnects for ever once connected; credentials never appear in an error.
 * @throws TeamStoreUnavailableError when the server is unreachable, refuses the credentials or has JetStream off.
 */
export async function openNats(
  transport: Extract<TeamTransport, { kind: 'nats' }>,
  opts: NatsOpenOptions = {}
): Promise<NatsHandles> {
  const where = describeTransport(transport)
  const a = transport.auth
  let nc: NatsConnection
  try {
    nc = await connect({
      servers: transport.servers,
      name: 'swarmdesk',
      timeout: opts.timeoutMs ?? 3_000,
      maxReconnectAttempts: -1,
      reconnectTimeWait: 250,
      ...(a && 'token' in a ? { token: a.token } : {}),
      ...(a && 'user' in a ? { user: a.user, pass: a.password } : {}),
      ...(a && 'credsFile' in a ? { authenticator: credsAuthenticator(readCreds(a.credsFile)) } : {})
    })
  } catch (error) {
    const why = (error as Error).message
    if (/auth/i.test(why))
      throw new TeamStoreUnavailableError(`team transport ${where}: the server refused the credentials (${why})`)
    throw new TeamStoreUnavailableError(
      `team transport ${where}: cannot reach the NATS server (${why}); start nats-server with -js, or fix --team-transport`
    )
  }
  try {
    const jsm = await jetstreamManager(nc, { timeout: opts.timeoutMs ?? 3_000 })
    const js = jetstream(nc)
    const replicas = opts.replicas ?? 1
    await ensureMailStream(jsm, replicas)
    const kvm = new Kvm(nc)
    // a bucket made earlier with other settings (another TTL, replicas) is used as it is
    const bucket = (name: string, ttl?: number): Promise<KV> =>
      kvm
        .create(name, { history: 1, replicas, storage: StorageType.File, ...(ttl ? { ttl } : {}) })
        .catch(() => kvm.open(name, { bindOnly: true }))
    const livenessTtlMs = opts.livenessTtlMs ?? DEFAULT_LIVENESS_TTL_MS
    const [tasks, teams, reads, locks, live] = await Promise.all([
      bucket('swarmdesk-tasks'),
      bucket('swarmdesk-teams'),
      bucket('swarmdesk-reads'),
      bucket('swarmdesk-locks', LOCK_TTL_MS),
      bucket('swarmdesk-live', livenessTtlMs)
    ])
    const status = await live.status()
    return { nc, js, jsm, tasks, teams, reads, locks, live, livenessTtlMs: status.ttl || livenessTtlMs }
  } catch (error) {
    await nc.close().catch(() => undefined)
    const why = (error as Error).message
    if (/jetstream|no responders|503/i.test(why) || (error as Error).name === 'JetStreamNotEnabled')
      throw new TeamStoreUnavailableError(
        `team transport ${where}: JetStream is off on this server (${why}); start nats-server with -js (and -sd <dir> for its store)`
      )
    throw error
  }
}

function readCreds(file: string): Uint8Array {
  try {
    return readFileSync(file)
  } catch (error) {
    throw new TeamStoreUnavailableError(
      `team transport: cannot read the NATS creds file ${file} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`
    )
  }
}

async function ensureMailStream(jsm: JetStreamManager, replicas: number): Promise<void> {
  try {
    await jsm.streams.info(MAIL_STREAM)
    return
  } catch (error) {
    if (!(error instanceof JetStreamApiError) || error.code !== 10059) throw error
  }
  try {
    await jsm.streams.add({
      name: MAIL_STREAM,
      subjects: ['swarmdesk.mail.*.*'],
      storage: StorageType.File,
      num_replicas: replicas,
      duplicate_window: DEDUP_WINDOW_MS * 1_000_000
    })
  } catch (error) {
    // another process made it meanwhile
    await jsm.streams.info(MAIL_STREAM).catch(() => {
      throw error
    })
  }
}

/** Whether `error` is a compare-and-set that lost: the key changed since the revision given. */
export function isWrongRevision(error: unknown): boolean {
  if (error instanceof JetStreamApiError) return error.code === 10071 || error.code === 10164
  return /wrong last sequence|key exists/i.test((error as Error)?.message ?? '')
}
