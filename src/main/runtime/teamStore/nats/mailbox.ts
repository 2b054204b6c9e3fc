import { setTimeout as sleep } from 'node:timers/promises'
import { DeliverPolicy, type JsMsg } from '@nats-io/jetstream'
import { MailboxMessageSchema, messageKind, type MailboxMessage } from '../../../../shared/mailbox'
import { Emitter } from '../../base'
import { assertName, composeMessage, MailboxAbortError, TeamGoneError, type SentEvent } from '../../mailbox'
import type { MailboxPort, MailEvent, StoredMessage } from '../port'
import { isWrongRevision, MAIL_STREAM, type NatsHandles } from './connection'
import { followStream, startingWatch, orReconnect } from './ordered'
import { CONSUME_OPTIONS } from './retry'

/** How long a send keeps re-sending (same message id) through a lost connection before it fails, ms. */
export const SEND_RETRY_MS = 30_000

/** The inbox's subject. @throws InvalidNameError */
export function inboxSubject(team: string, agent: string): string {
  return `swarmdesk.mail.${assertName('team', team)}.${assertName('agent', agent)}`
}

/** A stored message and its place in the stream. */
interface Sequenced {
  seq: number
  message: MailboxMessage
}

/**
 * Inboxes on JetStream (docs/nats.md#mailbox): a message is one stream message on its inbox's
 * subject, published with its id as `Nats-Msg-Id`, so a send re-tried after a lost acknowledgement
 * is stored once. The publish acknowledgement (the stream stored it) is the send's. The read state
 * is the reader's acknowledgement of a message, one key `{team}.{agent}.{id}` in `swarmdesk-reads`.
 * A waiting reader holds an ordered consumer from the inbox's end: the server pushes the next message;
 * it, an inbox watch and a team's follow are made again at once after a reconnect ({@link followStream}).
 */
export function natsMailbox(h: NatsHandles): MailboxPort {
  const sent = new Emitter<SentEvent>()
  /**
   * Per inbox (`team/agent`): a stream sequence up to which every message of the inbox is read, as
   * this process has seen (a read mark is never taken back), and the creation time of the stream
   * it counts in. A wait starts just past it (docs/nats.md#mailbox).
   */
  const readUpTo = new Map<string, { seq: number; streamCreated: string }>()
  const publish = async (subject: string, message: MailboxMessage): Promise<void> => {
    const deadline = Date.now() + SEND_RETRY_MS
    for (let attempt = 0; ; attempt++) {
      try {
        // the connection back while the acknowledgement is awaited: sent again at once (stored once, by id)
        const sent = orReconnect(
          h.nc,
          h.js.publish(subject, JSON.stringify(message), { msgID: message.id, timeout: 2_000 })
        )
        if ((await sent) === 'reconnected') continue
        return
      } catch (error) {
        if (Date.now() > deadline || h.nc.isClosed()) throw error
        await sleep(Math.min(50 * 2 ** attempt, 500))
      }
    }
  }

  const scan = async (subject: string, fromSeq = 1): Promise<Sequenced[]> => {
    const last = await h.jsm.streams.getMessage(MAIL_STREAM, { last_by_subj: subject })
    if (!last || last.seq < fromSeq) return []
    const consumer = await h.js.consumers.get(MAIL_STREAM, {
      filter_subjects: subject,
      deliver_policy: DeliverPolicy.StartSequence,
      opt_start_seq: fromSeq
    })
    const out: Sequenced[] = []
    const iter = await consumer.consume(CONSUME_OPTIONS)
    try {
      for await (const m of iter) {
        const message = parse(m)
        if (message) out.push({ seq: m.seq, message })
        if (m.seq >= last.seq) break
      }
    } finally {
      iter.stop()
    }
    return out
  }

  const readIds = async (team: string, agent: string): Promise<Set<string>> => {
    const prefix = `${team}.${agent}.`
    const ids = new Set<string>()
    for await (const k of await h.reads.keys(`${prefix}>`)) ids.add(k.slice(prefix.length))
    return ids
  }

  const read = async (team: string, agent: string, unreadOnly: boolean): Promise<StoredMessage[]> => {
    const subject = inboxSubject(team, agent)
    const [messages, reads] = await Promise.all([scan(subject), readIds(team, agent)])
    const seen = new Set<string>()
    const out: StoredMessage[] = []
    for (const { message } of messages) {
      if (seen.has(message.id)) continue
      seen.add(message.id)
      const isRead = reads.has(message.id)
      if (!unreadOnly || !isRead) out.push({ message, read: isRead })
    }
    return out
  }

  const send = async (
    team: string,
    to: string,
    outgoing: Parameters<MailboxPort['send']>[2],
    opts: { existingTeamOnly?: boolean } = {}
  ) => {
    const subject = inboxSubject(team, to)
    const message = composeMessage(to, outgoing)
    if (opts.existingTeamOnly && (await h.teams.get(`${team}.config`))?.operation !== 'PUT')
      throw new TeamGoneError(team)
    await publish(subject, message)
    // the message is stored whatever a listener does (as the file mailbox's onDidSend)
    try {
      sent.fire({ team, message, kind: messageKind(message.text) })
    } catch (error) {
      setImmediate(() => {
        throw error
      })
    }
    return { id: message.id }
  }

  return {
    async broadcast(team, members, message) {
      const targets = [...new Set(members)].filter((m) => m !== message.from)
      for (const m of targets) assertName('to', m)
      return Promise.all(targets.map((m) => send(team, m, message)))
    },
    send,
    onDidSend: sent.event,
    read: (team, agent, opts = {}) => read(team, agent, opts.unreadOnly === true),
    unreadCount: async (team, agent) => (await read(team, agent, true)).length,
    async markRead(team, agent, ids) {
      inboxSubject(team, agent)
      const known = new Set((await read(team, agent, false)).map((e) => e.message.id))
      const marked: string[] = []
      const missing: string[] = []
      for (const id of ids) {
        if (!known.has(id)) {
          missing.push(id)
          continue
        }
        // created once, never rewritten: a rewrite while another reader lists the marks would
        // make that listing wait out its heartbeat (see tasks.ts `all`)
        try {
          await h.reads.create(`${team}.${agent}.${id}`, String(Date.now()))
        } catch (error) {
          if (!isWrongRevision(error) && !/exists/i.test((error as Error).message)) throw error
        }
        marked.push(id)
      }
      return { marked, missing }
    },
    async waitForMessage(team, agent, opts = {}) {
      const { signal } = opts
      if (signal?.aborted) throw new MailboxAbortError(signal.reason)
      const subject = inboxSubject(team, agent)
      const inbox = `${team}/${agent}`
      const stream = await h.jsm.streams.info(MAIL_STREAM)
      let known = readUpTo.get(inbox)
      // a stream made again (deleted by hand) numbers its messages from 1: the mark no longer holds
      if (known && known.streamCreated !== stream.created) known = undefined
      const advance = (seq: number): void => {
        const now = readUpTo.get(inbox)
        if (!now || now.streamCreated !== stream.created || now.seq < seq)
          readUpTo.set(inbox, { seq, streamCreated: stream.created })
      }
      if (!known) {
        // the first wait on this inbox here: one look at the whole inbox and its read marks. The
        // stream's end is noted before the look, so a message stored during it is pushed below
        const end = stream.state.last_seq
        const [messages, reads] = await Promise.all([scan(subject), readIds(team, agent)])
        const waiting = messages.find((m) => !reads.has(m.message.id))
        if (waiting) {
          advance(waiting.seq - 1)
          return { message: waiting.message, read: false }
        }
        advance(Math.max(end, messages.at(-1)?.seq ?? 0))
      }
      // every message of the inbox up to the mark is read (marks are never taken back): the
      // consumer starts just past it, so it is handed what came since, then pushed what comes
      const from = (readUpTo.get(inbox)?.seq ?? 0) + 1
      let onAbort = (): void => undefined
      try {
        return await new Promise<StoredMessage>((resolve, reject) => {
          const follow = followStream(
            h,
            MAIL_STREAM,
            subject,
            from,
            async (m) => {
              const message = parse(m)
              if (message && (await h.reads.get(`${team}.${agent}.${message.id}`))?.operation !== 'PUT') {
                follow.stop()
                resolve({ message, read: false })
                return
              }
              advance(m.seq)
            },
            { error: reject, closed: () => reject(new MailboxAbortError(signal?.reason)) }
          )
          follow.ready.catch(reject)
          onAbort = () => {
            follow.stop()
            reject(new MailboxAbortError(signal?.reason))
          }
          signal?.addEventListener('abort', onAbort, { once: true })
          if (signal?.aborted) onAbort()
        })
      } finally {
        signal?.removeEventListener('abort', onAbort)
      }
    },
    follow(team, listener) {
      const prefix = `swarmdesk.mail.${assertName('team', team)}.`
      return startingWatch(async (watch) => {
        const tell = (e: MailEvent): void => {
          if (watch.disposed()) return
          try {
            listener(e)
          } catch (error) {
            setImmediate(() => {
              throw error
            })
          }
        }
        const messages = followStream(h, MAIL_STREAM, `${prefix}*`, 1, (m) => {
          const message = parse(m)
          if (message && m.subject === `${prefix}${message.to}`) tell({ type: 'message', message })
        })
        watch.onStop(() => messages.stop())
        await messages.ready
        if (watch.disposed()) return
        const reads = await h.reads.watch({ key: `${team}.>` })
        watch.onStop(() => reads.stop())
        void (async () => {
          for await (const e of reads) {
            if (e.operation !== 'PUT') continue
            const [agent, ...id] = e.key.slice(team.length + 1).split('.')
            if (agent && id.length > 0) tell({ type: 'read', agent, id: id.join('.') })
          }
        })().catch(() => undefined)
      })
    },
    watch(team, agent, listener, opts = {}) {
      const subject = inboxSubject(team, agent)
      return startingWatch(async (watch) => {
        const seen = new Set<string>()
        const report = (message: MailboxMessage): void => {
          if (watch.disposed() || seen.has(message.id)) return
          seen.add(message.id)
          try {
            listener({ message, read: false })
          } catch (error) {
            setImmediate(() => {
              throw error
            })
          }
        }
        const failed = (error: unknown): void => void (watch.disposed() || opts.onError?.(error))
        try {
          // the stream's end before the scan: a message stored meanwhile is both scanned and
          // pushed, and reported once (by id)
          const from = (await lastSeq(h)) + 1
          const [messages, reads] = await Promise.all([scan(subject), readIds(team, agent)])
          for (const m of messages) if (!reads.has(m.message.id)) report(m.message)
          if (watch.disposed()) return
          const follow = followStream(
            h,
            MAIL_STREAM,
            subject,
            from,
            async (m) => {
              const message = parse(m)
              if (!message || seen.has(message.id)) return
              if ((await h.reads.get(`${team}.${agent}.${message.id}`))?.operation === 'PUT') return
              report(message)
            },
            { error: failed }
          )
          watch.onStop(() => follow.stop())
          await follow.ready
        } catch (error) {
          failed(error)
          throw error
        }
      })
    }
  }
}

/** The stream's last sequence: a waiting reader of an empty inbox starts after it. */
async function lastSeq(h: NatsHandles): Promise<number> {
  const info = await h.jsm.streams.info(MAIL_STREAM)
  return info.state.last_seq
}

/** A stream message as a mailbox message; `undefined` for anything that is not one (skipped). */
function parse(m: JsMsg): MailboxMessage | undefined {
  try {
    const parsed = MailboxMessageSchema.safeParse(m.json())
    return parsed.success ? parsed.data : undefined
  } catch {
    return undefined
  }
}
