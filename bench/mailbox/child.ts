/**
 * The other processes of the mailbox benchmark, one role per run (bundled by the benchmark):
 * - `recv-ours HOME TEAM AGENT N` / `recv-base FILE N`: an idle recipient; prints `{ready}`, then,
 *   after N messages, `{latencies}` (ms from the send time carried in each text to receipt);
 * - `writer HOME FROM`: prints `{ready}`, then runs each burst command read from stdin (one JSON
 *   line `{system: "ours", team, to, n}` or `{system: "base", file, n}`): sends n messages, prints
 *   `{acked, failed}`;
 * - `hold-base FILE`: takes the baseline's lock, prints `{locked}` and waits to be killed;
 * - `loop-ours HOME TEAM TO FROM`: sends in a tight loop until killed, printing `{ready}` first.
 */
import { createInterface } from 'node:readline'
import { createMailbox } from '../../src/main/runtime/mailbox'
import { baselineHoldLock, baselineRead, baselineSend, BASELINE_POLL_MS } from './baseline'

const out = (o: object): void => void process.stdout.write(JSON.stringify(o) + '\n')
/** Wall-clock ms with sub-ms resolution, comparable across processes. */
const now = (): number => performance.timeOrigin + performance.now()
const sentAt = (text: string): number => Number(text.split(' ')[1])

async function recvOurs(home: string, team: string, agent: string, n: number): Promise<void> {
  const mailbox = createMailbox({ home })
  const latencies: number[] = []
  const sub = mailbox.onDidReceive(team, agent, (e) => {
    latencies.push(now() - sentAt(e.message.text))
    void mailbox.markRead(team, agent, [e.message.id])
    if (latencies.length === n) {
      sub.dispose()
      out({ latencies })
    }
  })
  await sub.ready
  out({ ready: true })
}

async function recvBase(file: string, n: number): Promise<void> {
  const latencies: number[] = []
  let seen = 0
  const timer = setInterval(() => {
    void baselineRead(file).then((list) => {
      for (; seen < list.length; seen++) latencies.push(now() - sentAt(list[seen]!.text))
      if (latencies.length >= n) {
        clearInterval(timer)
        out({ latencies })
      }
    })
  }, BASELINE_POLL_MS)
  out({ ready: true })
}

/** A burst command from the benchmark. */
type BurstCommand =
  { system: 'ours'; team: string; to: string; n: number } | { system: 'base'; file: string; n: number }

function writer(home: string, from: string): void {
  const mailbox = createMailbox({ home })
  const stamp = (i: number): string => `${from}-${i} ${now()}`
  const sendOne = async (c: BurstCommand, i: number): Promise<string> => {
    if (c.system === 'ours') return (await mailbox.send(c.team, c.to, { from, text: stamp(i) })).id
    const id = `${from}-${i}`
    await baselineSend(c.file, { id, from, text: stamp(i), timestamp: new Date().toISOString(), read: false })
    return id
  }
  let queue = Promise.resolve()
  createInterface({ input: process.stdin }).on('line', (line) => {
    const command = JSON.parse(line) as BurstCommand
    queue = queue.then(async () => {
      const acked: string[] = []
      let failed = 0
      for (let i = 0; i < command.n; i++) {
        try {
          acked.push(await sendOne(command, i))
        } catch {
          failed++
        }
      }
      out({ acked, failed })
    })
  })
  out({ ready: true })
}

const [role, ...a] = process.argv.slice(2)
switch (role) {
  case 'recv-ours':
    void recvOurs(a[0]!, a[1]!, a[2]!, Number(a[3]))
    break
  case 'recv-base':
    void recvBase(a[0]!, Number(a[1]))
    break
  case 'writer':
    writer(a[0]!, a[1]!)
    break
  case 'hold-base':
    void baselineHoldLock(a[0]!).then(() => {
      out({ locked: true })
      setInterval(() => undefined, 60_000)
    })
    break
  case 'loop-ours': {
    const mailbox = createMailbox({ home: a[0]! })
    out({ ready: true })
    void (async () => {
      for (let i = 0; ; i++) await mailbox.send(a[1]!, a[2]!, { from: a[3]!, text: `${a[3]}-${i} ${now()}` })
    })()
    break
  }
  default:
    process.stderr.write(`unknown role ${role}\n`)
    process.exit(2)
}
