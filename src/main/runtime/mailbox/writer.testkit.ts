/**
 * A mailbox writer for tests and benchmarks, run as a child process (`node writer.mjs …`) or a
 * worker thread (`new Worker(writer.mjs, {argv})`) once bundled with {@link bundleEntry}.
 * argv: `home team to from count [gapMs]`. Prints `ready`, then `ack <id>` after each send
 * resolves (the acknowledgement), then `done` — as stdout lines in a process, as messages to the
 * parent in a worker. A failed send prints `fail <error>` and carries on.
 */
import { isMainThread, parentPort } from 'node:worker_threads'
import { createMailbox } from './mailbox'

const [home, team, to, from, countText, gapText] = process.argv.slice(2)
const emit = (line: string): void => {
  if (isMainThread) process.stdout.write(line + '\n')
  else parentPort?.postMessage(line)
}

async function main(): Promise<void> {
  const mailbox = createMailbox({ home: home! })
  const count = Number(countText)
  const gap = Number(gapText ?? 0)
  emit('ready')
  for (let i = 0; i < count; i++) {
    try {
      const { id } = await mailbox.send(team!, to!, { from: from!, text: `${from} #${i}`, summary: `message ${i}` })
      emit(`ack ${id}`)
    } catch (error) {
      emit(`fail ${(error as Error).message}`)
    }
    if (gap > 0) await new Promise((r) => setTimeout(r, gap))
  }
  emit('done')
}

void main()
