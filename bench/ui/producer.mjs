// One agent's output in the UI benchmark: run by the agent's Bash command, so it writes into a
// real PTY of the workspace and travels the real pane pipeline (PTY → tool_output event → pane
// batcher → headless terminal + `pane.data` push → the page).
//
//   node producer.mjs <agent> <bytesPerSecond> <seconds> <dir>
//
// Writes <dir>/ready-<agent>, waits for <dir>/go (the epoch ms to start at), then writes
// bytesPerSecond × seconds bytes of benchLine()s paced by the clock. Writes to a TTY are
// synchronous on Linux, so while the workspace pauses the PTY (backpressure) this process blocks,
// then catches up, until 1.5 × seconds have passed: a producer held back longer stops there with
// fewer lines written (the benchmark then reports the rate it achieved). Finally <dir>/done-<agent>.json records what was
// written: {agent, lines, bytes, startedAt, endedAt} (epoch ms).
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { benchLine, LINE_BYTES } from './line.mjs'

const [agentArg, rateArg, secondsArg, dir] = process.argv.slice(2)
const agent = Number(agentArg)
const rate = Number(rateArg)
const seconds = Number(secondsArg)
if (!Number.isInteger(agent) || !(rate > 0) || !(seconds > 0) || !dir) {
  process.stderr.write('usage: node producer.mjs <agent> <bytesPerSecond> <seconds> <dir>\n')
  process.exit(2)
}
const totalLines = Math.floor((rate * seconds) / LINE_BYTES)
/** At most this many bytes per write, so a catch-up after a pause goes out in pieces. */
const MAX_WRITE = 64 * 1024
const TICK_MS = 10
/** Writing stops this long after the start even if lines are still due (held back by backpressure). */
const CUTOFF_MS = seconds * 1500

writeFileSync(join(dir, `ready-${agent}`), String(Date.now()))
const goFile = join(dir, 'go')
while (!existsSync(goFile)) await new Promise((r) => setTimeout(r, 10))
const startAt = Number(readFileSync(goFile, 'utf8'))
if (Date.now() < startAt) await new Promise((r) => setTimeout(r, startAt - Date.now()))

const startedAt = Date.now()
let seq = 0
while (seq < totalLines && Date.now() - startedAt < CUTOFF_MS) {
  const due = Math.min(totalLines, Math.floor((((Date.now() - startedAt) / 1000) * rate) / LINE_BYTES))
  let batch = ''
  while (seq < due && batch.length < MAX_WRITE) batch += benchLine(agent, seq++)
  if (batch) process.stdout.write(batch)
  if (seq < due) continue
  await new Promise((r) => setTimeout(r, TICK_MS))
}
const endedAt = Date.now()
writeFileSync(
  join(dir, `done-${agent}.json`),
  JSON.stringify({ agent, lines: seq, bytes: seq * LINE_BYTES, startedAt, endedAt })
)
