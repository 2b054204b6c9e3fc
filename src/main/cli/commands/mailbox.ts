import { messageKind, parseMessageBody, type ProtocolBody } from '../../../shared/mailbox'
import { createMailbox, InvalidMessageError, InvalidNameError, type InboxEntry } from '../../runtime/mailbox'
import { swarmdeskHome } from '../../runtime/storage'
import { parseCommandArgs, UsageError } from '../io'
import { commandTransport, TEAM_TRANSPORT_FLAG, withCommandStore, writableHome } from '../teamTransport'

const USAGE = `Use: swarmdesk mailbox send --team T --to NAME --from NAME (--text S | --json OBJ) [--summary S] [--color C]
     swarmdesk mailbox read --team T --agent NAME [--unread] [--mark-read] [--json]
     both take --team-transport nats://host:port (default: the files, or SWARMDESK_TEAM_TRANSPORT)`

/** The flag a mailbox name error is about, for exit-2 messages that name the flag (docs/events.md#event-stream-and-command-line). */
const FLAG_OF: Record<string, string> = { team: '--team', to: '--to', agent: '--agent' }

function required(command: string, flag: string, value: string | undefined): string {
  if (value === undefined || value === '')
    throw new UsageError(`swarmdesk mailbox ${command}: ${flag} is required. ${USAGE}`)
  return value
}

/** Turns the mailbox's validation errors into usage errors naming the flag. */
function asUsage(command: string, error: unknown): never {
  if (error instanceof InvalidNameError)
    throw new UsageError(`swarmdesk mailbox ${command}: ${FLAG_OF[error.field] ?? error.field}: ${error.message}`)
  if (error instanceof InvalidMessageError) throw new UsageError(`swarmdesk mailbox ${command}: ${error.message}`)
  throw error
}

/** What `--json OBJ` sends: a protocol body checked by its schema, or any other JSON object as plain text. */
function jsonBody(raw: string): { text: string; body?: never } | { body: ProtocolBody; text?: never } {
  let value: unknown
  try {
    value = JSON.parse(raw)
  } catch (error) {
    throw new UsageError(`swarmdesk mailbox send: --json is not JSON: ${(error as Error).message}`)
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new UsageError(
      'swarmdesk mailbox send: --json must be a JSON object, e.g. {"type":"shutdown_request","requestId":"r1"}'
    )
  const text = JSON.stringify(value)
  const body = parseMessageBody(text)
  if (body.kind === 'invalid')
    throw new UsageError(`swarmdesk mailbox send: --json is not a valid ${body.type}: ${body.error}`)
  return body.kind === 'structured' ? { body: body.body } : { text }
}

/** What `--text S` sends: plain text, which may not pass for a protocol body. */
function plainText(text: string): { text: string; body?: never } {
  const kind = messageKind(text)
  if (kind !== 'plain')
    throw new UsageError(
      `swarmdesk mailbox send: --text is a JSON ${kind} body; send a structured message with --json instead.`
    )
  return { text }
}

async function send(argv: string[]): Promise<number> {
  const { values } = parseCommandArgs('mailbox send', argv, {
    team: { type: 'string' },
    to: { type: 'string' },
    from: { type: 'string' },
    text: { type: 'string' },
    json: { type: 'string' },
    summary: { type: 'string' },
    color: { type: 'string' },
    ...TEAM_TRANSPORT_FLAG
  })
  const team = required('send', '--team', values.team)
  const to = required('send', '--to', values.to)
  const from = required('send', '--from', values.from)
  if ((values.text === undefined) === (values.json === undefined))
    throw new UsageError(`swarmdesk mailbox send: give exactly one of --text or --json. ${USAGE}`)
  const content = values.text !== undefined ? plainText(values.text) : jsonBody(values.json!)
  const transport = commandTransport('mailbox send', values['team-transport'])
  const outgoing = {
    from,
    ...content,
    ...(values.summary !== undefined ? { summary: values.summary } : {}),
    ...(values.color !== undefined ? { color: values.color } : {})
  }
  if (transport.kind === 'nats')
    return withCommandStore('mailbox send', transport, async (store) => {
      const sent = await store.mailbox.send(team, to, outgoing).catch((error: unknown) => asUsage('send', error))
      return receipt(values.json !== undefined, content.body?.type ?? 'plain', { id: sent.id, team, to, from })
    })
  const mailbox = createMailbox({ home: writableHome('mailbox send') })
  const result = await mailbox.send(team, to, outgoing).catch((error: unknown) => asUsage('send', error))
  return receipt(values.json !== undefined, content.body?.type ?? 'plain', {
    id: result.id,
    team,
    to,
    from,
    path: result.path
  })
}

/** Prints a send's receipt: one JSON line for a structured message (`--json OBJ`, from a script), else a sentence. */
function receipt(
  asJson: boolean,
  kind: string,
  r: { id: string; team: string; to: string; from: string; path?: string }
): number {
  if (asJson)
    process.stdout.write(JSON.stringify({ id: r.id, team: r.team, to: r.to, from: r.from, kind, path: r.path }) + '\n')
  else
    process.stdout.write(
      `Sent ${kind === 'plain' ? 'a message' : `a ${kind}`} from ${r.from} to ${r.to} in team ${r.team} (${r.id}).\n`
    )
  return 0
}

function describeEntry(e: Pick<InboxEntry, 'message' | 'read'>): string {
  const kind = messageKind(e.message.text)
  const head = `${e.read ? '     ' : 'NEW  '}${e.message.timestamp}  ${e.message.from} → ${e.message.to}  ${kind}`
  return `${head}${e.message.summary ? `  "${e.message.summary}"` : ''}\n     ${e.message.text.replace(/\n/g, '\n     ')}\n`
}

/** What `read` needs of an inbox, on either transport. */
interface InboxReader {
  read(): Promise<{ messages: Pick<InboxEntry, 'message' | 'read'>[]; problems: { path: string; problem: string }[] }>
  markRead(ids: string[]): Promise<unknown>
}

async function read(argv: string[]): Promise<number> {
  const { values } = parseCommandArgs('mailbox read', argv, {
    team: { type: 'string' },
    agent: { type: 'string' },
    unread: { type: 'boolean' },
    'mark-read': { type: 'boolean' },
    json: { type: 'boolean' },
    ...TEAM_TRANSPORT_FLAG
  })
  const team = required('read', '--team', values.team)
  const agent = required('read', '--agent', values.agent)
  const unreadOnly = values.unread === true
  const transport = commandTransport('mailbox read', values['team-transport'])
  if (transport.kind === 'nats')
    return withCommandStore('mailbox read', transport, (store) =>
      printInbox(values, team, agent, {
        read: async () => ({ messages: await store.mailbox.read(team, agent, { unreadOnly }), problems: [] }),
        markRead: (ids) => store.mailbox.markRead(team, agent, ids)
      })
    )
  const mailbox = createMailbox({ home: swarmdeskHome() })
  return printInbox(values, team, agent, {
    read: () => mailbox.read(team, agent, { unreadOnly }),
    markRead: (ids) => mailbox.markRead(team, agent, ids)
  })
}

async function printInbox(
  values: { unread?: boolean; 'mark-read'?: boolean; json?: boolean },
  team: string,
  agent: string,
  inbox: InboxReader
): Promise<number> {
  const { messages, problems } = await inbox.read().catch((error: unknown) => asUsage('read', error))
  if (values['mark-read']) await inbox.markRead(messages.filter((e) => !e.read).map((e) => e.message.id))
  if (values.json) {
    const out = messages.map((e) => ({ ...e.message, read: e.read, kind: messageKind(e.message.text) }))
    process.stdout.write(JSON.stringify({ team, agent, messages: out, problems }) + '\n')
    return 0
  }
  for (const p of problems) process.stderr.write(`swarmdesk mailbox read: warning: skipped ${p.path}: ${p.problem}\n`)
  if (messages.length === 0)
    process.stdout.write(`No ${values.unread ? 'unread ' : ''}messages for ${agent} in team ${team}.\n`)
  for (const e of messages) process.stdout.write(describeEntry(e))
  return 0
}

/**
 * `swarmdesk mailbox send|read` (docs/events.md#event-stream-and-command-line). Needs no team config: an inbox is created on its first
 * message. `send` prints a sentence naming the message, or with `--json OBJ` (a structured message,
 * sent by a script) one JSON line `{id, team, to, from, kind, path}`; `read` prints the
 * messages oldest first (`--json`: one object `{team, agent, messages: [{…message, read, kind}],
 * problems: [{path, problem}]}`) and changes nothing unless `--mark-read`, which marks the
 * messages it printed as read. Home: SWARMDESK_HOME or ~/.swarmdesk.
 * @returns 0; @throws UsageError (exit 2) naming the flag for bad usage or a bad name/body.
 */
export async function mailboxCommand(argv: string[]): Promise<number> {
  const [sub, ...rest] = argv
  if (sub === 'send') return send(rest)
  if (sub === 'read') return read(rest)
  throw new UsageError(`swarmdesk mailbox: unknown subcommand '${sub ?? ''}'. ${USAGE}`)
}
