import { spawn } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, expect, it } from 'vitest'
import { ClaudeInboxSchema } from './formats'
import { member, scratchConfig, writeConfig, writeSession } from './ccFiles.testkit'
import { appendToInbox } from './writer'

// Swarmdesk and Claude Code writing one inbox at the same moment. The other process runs Claude
// Code 2.1.197's inbox writer as its code has it: create the file `[]` exclusively, take
// proper-lockfile's lock (`<file>.lock` directory, 10 retries, 5–100 ms), read the array, push
// the message with msgV/msg_id/type/read, write `<file>.tmp.<8 hex>` and rename it over the inbox.
const CLAUDE_CODE_WRITER = `
const fs = require('node:fs/promises')
const crypto = require('node:crypto')
const lockfile = require('proper-lockfile')
const [path, count] = [process.argv[1], Number(process.argv[2])]
async function send(i) {
  try { await fs.writeFile(path, '[]', { encoding: 'utf8', flag: 'wx' }) } catch (e) { if (e.code !== 'EEXIST') throw e }
  let release
  try {
    release = await lockfile.lock(path, { lockfilePath: path + '.lock', retries: { retries: 10, minTimeout: 5, maxTimeout: 100 } })
    const messages = JSON.parse(await fs.readFile(path, 'utf8'))
    messages.push({ from: 'alice', text: 'cc ' + i, timestamp: new Date().toISOString(), msgV: 1, msg_id: crypto.randomUUID(), type: 'message', read: false })
    const tmp = path + '.tmp.' + crypto.randomBytes(4).toString('hex')
    await fs.writeFile(tmp, JSON.stringify(messages, null, 2), 'utf8')
    await fs.rename(tmp, path)
    return true
  } catch (e) {
    process.stderr.write('send ' + i + ' failed: ' + e.code + ' ' + e.message + '\\n') // Claude Code logs and drops it
    return false
  } finally { if (release) await release() }
}
;(async () => { let failed = 0; for (let i = 0; i < count; i++) if (!(await send(i))) failed++; process.stdout.write(String(failed)) })()
`

const SESSION = '9c8d7e6f-0000-4000-8000-000000000003'
const TEAM = 'session-9c8d7e6f'
let root: string
let cleanup: () => void

beforeEach(() => {
  ;({ root, cleanup } = scratchConfig())
  writeSession(root, SESSION)
  writeConfig(root, TEAM, SESSION, [member('alice'), member('bob')])
})
afterEach(() => cleanup())

it('Claude Code’s writer in another process and Swarmdesk’s writer append to one inbox at once: nothing is lost, the file always parses', async () => {
  const N = 80
  const path = join(root, 'teams', TEAM, 'inboxes', 'team-lead.json')
  // the inbox as the leader's spawn leaves it (Claude Code's own exclusive create is empty for an instant)
  writeFileSync(path, '[]')
  const child = spawn(process.execPath, ['-e', CLAUDE_CODE_WRITER, path, String(N)], { cwd: process.cwd() })
  let out = ''
  let err = ''
  child.stdout.on('data', (d: Buffer) => (out += d.toString()))
  child.stderr.on('data', (d: Buffer) => (err += d.toString()))
  const exited = new Promise<number | null>((r) => child.on('exit', r))

  // a reader all along: every look at the file finds a whole array
  let looks = 0
  let torn = 0
  let tornSample: string | undefined
  let reading = true
  const reader = (async () => {
    while (reading) {
      try {
        const text = readFileSync(path, 'utf8')
        looks++
        try {
          JSON.parse(text)
        } catch {
          torn++
          tornSample ??= `${text.length} bytes: ${text.slice(0, 40)}…${text.slice(-40)}`
        }
      } catch {
        // not created yet
      }
      await new Promise((r) => setImmediate(r))
    }
  })()
  for (let i = 0; i < N; i++) await appendToInbox(root, TEAM, 'team-lead', { from: 'team-lead', text: `sd ${i}` })
  expect(await exited, err).toBe(0)
  reading = false
  await reader

  expect(out, err).toBe('0') // none of Claude Code's sends gave up on the lock either
  const messages = ClaudeInboxSchema.parse(JSON.parse(readFileSync(path, 'utf8')))
  const texts = new Set(messages.map((m) => m.text))
  for (let i = 0; i < N; i++) {
    expect(texts.has(`sd ${i}`), `sd ${i}`).toBe(true)
    expect(texts.has(`cc ${i}`), `cc ${i}`).toBe(true)
  }
  expect(messages).toHaveLength(2 * N)
  expect(new Set(messages.map((m) => m.msg_id)).size).toBe(2 * N)
  expect(torn, tornSample).toBe(0)
  expect(looks).toBeGreaterThan(0)
}, 60_000)
