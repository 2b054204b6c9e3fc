import { rmSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createMailbox } from './mailbox'
import { bundledWriter, tempHome } from './fixtures.testkit'
import { spawnWriter, startWorkerWriter } from './processes.testkit'

describe('mailbox under concurrent writers', () => {
  let script: string
  const { home, cleanup } = tempHome()
  beforeAll(async () => {
    script = await bundledWriter('concurrency')
  })
  afterAll(() => {
    cleanup()
    rmSync(script, { force: true })
  })

  it('delivers 1,600 messages from 16 worker threads and 16 processes, none lost, duplicated or torn', async () => {
    const args = (i: number): string[] => [home, 'crowd', 'lead', `writer-${i}`, '50']
    const writers = [
      ...Array.from({ length: 16 }, (_, i) => startWorkerWriter(script, args(i))),
      ...Array.from({ length: 16 }, (_, i) => spawnWriter(script, args(16 + i)))
    ]
    await Promise.all(writers.map((w) => w.exited))
    const acked = writers.flatMap((w) => w.report.acked)
    expect(writers.flatMap((w) => w.report.failed)).toEqual([])
    expect(writers.every((w) => w.report.done)).toBe(true)
    expect(acked).toHaveLength(1600)

    const { messages, problems } = await createMailbox({ home }).read('crowd', 'lead')
    expect(problems).toEqual([])
    expect(messages).toHaveLength(1600)
    expect(new Set(messages.map((m) => m.message.id)).size).toBe(1600)
    expect(new Set(messages.map((m) => m.message.text)).size).toBe(1600)
    expect(new Set(acked)).toEqual(new Set(messages.map((m) => m.message.id)))
    // each writer's messages arrive in the order it sent them
    for (let i = 0; i < 32; i++) {
      const own = messages.filter((m) => m.message.from === `writer-${i}`).map((m) => m.message.text)
      expect(own).toEqual(Array.from({ length: 50 }, (_, n) => `writer-${i} #${n}`))
    }
  }, 60_000)
})
