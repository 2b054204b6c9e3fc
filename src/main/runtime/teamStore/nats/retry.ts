import { setTimeout as sleep } from 'node:timers/promises'
import { JetStreamApiError } from '@nats-io/jetstream'
import type { KV } from '@nats-io/kv'
import { isWrongRevision, type NatsHandles } from './connection'

/**
 * How long a store operation keeps trying through a lost connection (a server restarting, a
 * dropped link) before its error is the caller's, ms: the mail send's bound (mailbox.ts
 * `SEND_RETRY_MS`), so a server back within it loses no operation (docs/nats.md#a-server-restart).
 */
export const OPERATION_RETRY_MS = 30_000

/**
 * Whether `error` says the server could not be asked just now — a request that timed out, no
 * responder (JetStream not up yet after a restart), JetStream temporarily unavailable, a
 * disconnection — rather than an answer (a wrong revision, a missing key). A closed connection is
 * final: it is never transient.
 */
export function isTransient(error: unknown): boolean {
  const e = error as Error | undefined
  if (!e || isWrongRevision(error)) return false
  if (e.name === 'ClosedConnectionError' || e.name === 'DrainingConnectionError') return false
  if (e instanceof JetStreamApiError) return e.code === 10008 || e.status === 503
  if (['TimeoutError', 'NoRespondersError', 'ConnectionError'].includes(e.name)) return true
  const cause = (e as { cause?: unknown }).cause
  if (cause && cause !== error && isTransient(cause)) return true
  return /timeout|timed out|no responders|503|disconnect|temporarily unavailable/i.test(e.message ?? '')
}

/**
 * Runs `attempt` until it answers, retrying a {@link isTransient} failure with a growing pause (up to
 * 500 ms) for `bound` ms; `recover` may turn the error of a retry into its answer (a write whose
 * acknowledgement was lost but which the server stored). @throws the last error, or at once a
 * non-transient one.
 */
export async function retrying<T>(
  nc: NatsHandles['nc'],
  attempt: () => Promise<T>,
  recover?: (error: unknown) => Promise<{ answer: T } | undefined>,
  bound = OPERATION_RETRY_MS
): Promise<T> {
  const deadline = Date.now() + bound
  for (let n = 0; ; n++) {
    try {
      return await attempt()
    } catch (error) {
      if (n > 0 && recover) {
        const recovered = await recover(error).catch(() => undefined)
        if (recovered) return recovered.answer
      }
      if (!isTransient(error) || Date.now() > deadline || nc.isClosed()) throw error
      await sleep(Math.min(50 * 2 ** n, 500))
    }
  }
}

/**
 * `h` with every request of the team store retried through a lost connection
 * ({@link OPERATION_RETRY_MS}): the KV buckets' reads and writes, the stream lookups and purges, the
 * making of consumers. A write retried after its acknowledgement was lost finds its own value
 * stored and counts as done, so a compare-and-set (a claim, a counter) still has one winner and an
 * id is never handed out twice (docs/nats.md#a-server-restart).
 */
export function withRetries(h: NatsHandles): NatsHandles {
  const kv = (bucket: KV): KV => retryingKv(h.nc, bucket)
  const streams = override(h.jsm.streams, methods(h.nc, h.jsm.streams, ['info', 'getMessage', 'purge']))
  const consumers = override(h.js.consumers, methods(h.nc, h.js.consumers, ['get']))
  return {
    ...h,
    tasks: kv(h.tasks),
    teams: kv(h.teams),
    reads: kv(h.reads),
    locks: kv(h.locks),
    live: kv(h.live),
    jsm: override(h.jsm, { streams }),
    js: override(h.js, { consumers })
  }
}

/** `bucket` with its requests retried; a lost acknowledgement of a create/update/delete recovered by reading the key. */
function retryingKv(nc: NatsHandles['nc'], bucket: KV): KV {
  const stored = async (key: string, value: string): Promise<{ answer: number } | undefined> => {
    const e = await bucket.get(key)
    return e && e.operation === 'PUT' && e.string() === value ? { answer: e.revision } : undefined
  }
  const text = (v: unknown): string => (typeof v === 'string' ? v : new TextDecoder().decode(v as Uint8Array))
  return override(bucket, {
    ...methods(nc, bucket, ['get', 'put', 'keys', 'watch', 'status', 'purge']),
    create: (key: string, value: string | Uint8Array) =>
      retrying(
        nc,
        () => bucket.create(key, value),
        () => stored(key, text(value))
      ),
    update: (key: string, value: string | Uint8Array, revision: number) =>
      retrying(
        nc,
        () => bucket.update(key, value, revision),
        () => stored(key, text(value))
      ),
    delete: (key: string, opts?: Parameters<KV['delete']>[1]) =>
      retrying(
        nc,
        () => bucket.delete(key, opts),
        async () => ((await bucket.get(key))?.operation === 'PUT' ? undefined : { answer: undefined })
      )
  } as Partial<KV>)
}

/** The methods `names` of `target`, each retried by {@link retrying}. */
function methods<T extends object>(nc: NatsHandles['nc'], target: T, names: string[]): Partial<T> {
  const out: Record<string, unknown> = {}
  for (const name of names) {
    const fn = (target as Record<string, unknown>)[name] as (...args: unknown[]) => Promise<unknown>
    out[name] = (...args: unknown[]) => retrying(nc, () => fn.apply(target, args))
  }
  return out as Partial<T>
}

/** `target` with the properties of `over` in place of its own; everything else its own, bound to it. */
function override<T extends object>(target: T, over: Partial<T>): T {
  return new Proxy(target, {
    get(t, prop) {
      if (Object.prototype.hasOwnProperty.call(over, prop)) return (over as Record<string | symbol, unknown>)[prop]
      const value = Reflect.get(t, prop, t) as unknown
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(t) : value
    }
  })
}

/**
 * Options of every follower's `consume()`: a pull that expires after 5 s, so the server's idle
 * heartbeats come every 2.5 s. After a server restart `followStream` (ordered.ts) makes a fresh
 * consumer as soon as the connection is back; the client's own re-make after two missed
 * heartbeats is only the fallback (docs/nats.md#a-server-restart).
 */
export const CONSUME_OPTIONS = { expires: 5_000 } as const
