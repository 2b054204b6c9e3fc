/**
 * The other processes of the team-transport benchmark, one role per process (bundled by the
 * benchmark): `node child.mjs ROLE JSON`, JSON a {@link ChildCommand} naming the team store to open
 * (`openTeamStore`: the files of a data directory, or a JetStream server). Each prints JSON lines:
 * - `wait`: an idle recipient, as a teammate between turns: `n` times, it starts
 *   `mailbox.waitForMessage`, prints `{idle: i}` `settleMs` later, and on the message notes the
 *   latency (its receipt time − the send time carried in the text) and marks it read; then prints
 *   `{latencies, ids}`;
 * - `watch`: a leader's inbox (`mailbox.watch`): prints `{ready}` once watching, then
 *   `{received, lastAt}` (ids in arrival order, wall-clock ms of the last) once `expect` messages
 *   came, or at once when told `report` on stdin;
 * - `claim`: prints `{ready}`, on `go` claims every task of `ids` in order as agent `w{worker}-{id}`,
 *   then prints a {@link ClaimReport};
 * - `write`: prints `{ready}`, on `go` sends `n` messages one after another, then prints
 *   `{acked, failed}` (the acknowledged ids, the count of sends that threw);
 * - `send`: a sender elsewhere than the benchmark's process: prints `{ready}`, then for each `send`
 *   line sends one message `lat-i <send start>` to `to` and prints `{sent: id}`.
 * A child whose stdin ends (the benchmark, or the ssh that started it on another host, is gone)
 * exits.
 * Times are wall-clock ms (`performance.timeOrigin + performance.now()`), compared across
 * processes: exact on one machine, and as good as the hosts' clock sync across machines.
 */
import { createInterface } from 'node:readline'
import { setTimeout as sleep } from 'node:timers/promises'
import { openTeamStore, type TeamStorePort } from '../../src/main/runtime/teamStore'
import { now, type ChildCommand, type ClaimReport } from './protocol'

const out = (o: object): void => void process.stdout.write(JSON.stringify(o) + '\n')
const sentAt = (text: string): number => Number(text.split(' ')[1])

/** Lines told on stdin and not taken yet, and who waits for the next. */
const told: string[] = []
let onTold: (() => void) | undefined
createInterface({ input: process.stdin })
  .on('line', (line) => {
    told.push(line.trim())
    onTold?.()
  })
  .on('close', () => process.exit(0))

/** Resolves on the first stdin line (told since the start and not taken yet) equal to `word`, and takes it. */
async function heard(word: string): Promise<void> {
  for (;;) {
    const at = told.indexOf(word)
    if (at >= 0) {
      told.splice(at, 1)
      return
    }
    await new Promise<void>((resolve) => (onTold = resolve))
  }
}

async function wait(store: TeamStorePort, c: Extract<ChildCommand, { settleMs: number }>): Promise<void> {
  const latencies: number[] = []
  const ids: string[] = []
  for (let i = 0; i < c.n; i++) {
    const waiting = store.mailbox.waitForMessage(c.team, c.agent)
    await sleep(c.settleMs)
    out({ idle: i })
    const { message } = await waiting
    latencies.push(now() - sentAt(message.text))
    ids.push(message.id)
    await store.mailbox.markRead(c.team, c.agent, [message.id])
  }
  out({ latencies, ids })
}

async function watch(store: TeamStorePort, c: Extract<ChildCommand, { expect: number }>): Promise<void> {
  const received: string[] = []
  let lastAt = 0
  let reported = false
  const report = (): void => {
    if (reported) return
    reported = true
    out({ received, lastAt })
  }
  const w = store.mailbox.watch(c.team, c.agent, (e) => {
    received.push(e.message.id)
    lastAt = now()
    if (received.length >= c.expect) report()
  })
  await w.ready
  out({ ready: true })
  await heard('report')
  report()
}

async function claim(store: TeamStorePort, c: Extract<ChildCommand, { worker: number }>): Promise<void> {
  const r: ClaimReport = { attempts: 0, won: [], alreadyClaimed: 0, otherRefusals: 0, failed: 0 }
  out({ ready: true })
  await heard('go')
  for (const id of c.ids) {
    r.attempts++
    try {
      const result = await store.tasks.claim(c.team, id, `w${c.worker}-${id}`)
      if (result.ok) r.won.push(id)
      else if (result.reason === 'already_claimed') r.alreadyClaimed++
      else r.otherRefusals++
    } catch {
      r.failed++
    }
  }
  out({ report: r })
}

async function write(store: TeamStorePort, c: Extract<ChildCommand, { from: string }>): Promise<void> {
  out({ ready: true })
  await heard('go')
  const acked: string[] = []
  let failed = 0
  for (let i = 0; i < c.n; i++) {
    try {
      acked.push((await store.mailbox.send(c.team, c.to, { from: c.from, text: `${c.from}-${i} ${now()}` })).id)
    } catch {
      failed++
    }
  }
  out({ acked, failed })
}

async function send(store: TeamStorePort, c: Extract<ChildCommand, { sender: true }>): Promise<void> {
  out({ ready: true })
  for (let i = 0; i < c.n; i++) {
    await heard('send')
    out({ sent: (await store.mailbox.send(c.team, c.to, { from: c.from, text: `lat-${i} ${now()}` })).id })
  }
}

async function main(role: string, c: ChildCommand): Promise<void> {
  const store = await openTeamStore(c.store.home, c.store.transport)
  if (role === 'wait' && 'settleMs' in c) await wait(store, c)
  else if (role === 'watch' && 'expect' in c) await watch(store, c)
  else if (role === 'claim' && 'worker' in c) await claim(store, c)
  else if (role === 'send' && 'sender' in c) await send(store, c)
  else if (role === 'write' && 'from' in c) await write(store, c)
  else throw new Error(`unknown role ${role}`)
  await store.close()
}

const [role, json] = process.argv.slice(2)
// done: stays until the benchmark kills it (an exit could overtake the last line on its way)
main(role!, JSON.parse(json!) as ChildCommand).then(
  () => void setInterval(() => undefined, 60_000),
  (error: unknown) => {
    process.stderr.write(`team-transport bench child ${role}: ${(error as Error).stack ?? String(error)}\n`)
    process.exit(1)
  }
)
