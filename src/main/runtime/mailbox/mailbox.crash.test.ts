import { existsSync, readdirSync, rmSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createMailbox } from './mailbox'
import { bundledWriter, tempHome } from './fixtures.testkit'
import { spawnWriter } from './processes.testkit'

const TRIALS = 100
const PARALLEL = 4

describe('mailbox when a writer is killed with SIGKILL', () => {
  let script: string
  const { home, cleanup } = tempHome()
  beforeAll(async () => {
    script = await bundledWriter('crash')
  })
  afterAll(() => {
    cleanup()
    rmSync(script, { force: true })
  })

  /** One trial: a writer sends in a tight loop and is killed at a random instant after it starts sending. */
  async function trial(n: number): Promise<void> {
    const inbox = `victim-${n % PARALLEL}`
    let killAt: (() => void) | undefined
    const started = new Promise<void>((r) => (killAt = r))
    const w = spawnWriter(script, [home, 'crash', inbox, `writer-${n}`, '100000'], () => killAt?.())
    await started
    await new Promise((r) => setTimeout(r, Math.random() * 25))
    w.child.kill('SIGKILL')
    await w.exited
    expect(w.child.signalCode).toBe('SIGKILL')

    const mailbox = createMailbox({ home })
    const { messages, problems } = await mailbox.read('crash', inbox)
    expect(problems).toEqual([])
    const present = new Set(messages.map((m) => m.message.id))
    for (const id of w.report.acked) expect(present.has(id)).toBe(true)

    // no lock to wait out: the killed writer left nothing in the inbox but its folders (a
    // half-written file at most, in tmp/), so the next send goes straight through; killed before
    // its first send, it left no inbox at all
    const root = mailbox.paths('crash', inbox).root
    const left = existsSync(root) ? readdirSync(root) : []
    expect(left.filter((name) => !['cur', 'new', 'tmp'].includes(name))).toEqual([])
    const { id } = await mailbox.send('crash', inbox, { from: 'survivor', text: `after trial ${n}` })
    expect((await mailbox.read('crash', inbox)).messages.some((m) => m.message.id === id)).toBe(true)
  }

  it('keeps every acknowledged message and every inbox readable over 100 kills at random instants, and the next send never waits', async () => {
    let next = 0
    await Promise.all(
      Array.from({ length: PARALLEL }, async () => {
        while (next < TRIALS) await trial(next++)
      })
    )
    const mailbox = createMailbox({ home })
    let total = 0
    for (let i = 0; i < PARALLEL; i++) {
      const { messages, problems } = await mailbox.read('crash', `victim-${i}`)
      expect(problems).toEqual([])
      total += messages.length
    }
    expect(total).toBeGreaterThan(TRIALS)
    // whatever a killed writer left half-written is only ever in tmp/, which readers never list
    const leftovers = Array.from(
      { length: PARALLEL },
      (_, i) => readdirSync(mailbox.paths('crash', `victim-${i}`).tmp).length
    ).reduce((a, b) => a + b, 0)
    expect(leftovers).toBeLessThanOrEqual(TRIALS)
  }, 300_000)
})
