import { randomUUID } from 'node:crypto'
import { existsSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { TeammateSpawnConfig } from '../executor'
import { until, useWorkerTestbed } from './worker.testkit'

/** Handles that keep this process alive (a spare must add none). */
const liveHandles = (): number =>
  process.getActiveResourcesInfo().filter((r) => r === 'MessagePort' || r === 'Worker').length

describe("WorkerTeammateExecutor's spare worker", () => {
  const bed = useWorkerTestbed('swarmdesk-worker-spare')
  const prepare = async (team: string): Promise<TeammateSpawnConfig> =>
    (await bed.prepareTeam(team, { alice: [{ text: 'Ready.' }] }, 'Say that you are ready.'))[0]!
  const idleNotified = (team: string): Promise<boolean> => bed.allIdle(team, ['alice'])

  it('loads ahead without keeping the process alive, is taken by the next spawn, is refilled once that teammate runs, and is terminated on release', async () => {
    const workers = bed.executor()
    const handlesBefore = liveHandles()
    workers.prewarm()
    workers.prewarm() // one spare at most
    expect(await workers.whenSpareLoaded()).toBe(true)
    expect(liveHandles()).toBe(handlesBefore)

    const config = await prepare('warm')
    const handle = await workers.spawn(config)
    expect(workers.isAlive(config.agentId)).toBe(true)
    await until('alice idle after her first turn', () => idleNotified('warm'))
    // the refill: a new spare, loaded
    expect(await until('the refilled spare loaded', () => workers.whenSpareLoaded())).toBe(true)

    await workers.releaseSpare()
    expect(await workers.whenSpareLoaded()).toBe(false)
    await workers.kill(config.agentId)
    expect(await handle.exited).toMatchObject({ status: 'killed' })
  }, 60_000)

  it('a spare that dies is dropped, and the next spawn starts its teammate in a new thread', async () => {
    const trigger = join(bed.home, 'spare-dies')
    const prelude = join(bed.home, `dying-spare-${randomUUID()}.mjs`)
    // a spare (no teammate yet) exits once `trigger` exists
    writeFileSync(
      prelude,
      [
        "import { existsSync } from 'node:fs'",
        "import { MessagePort } from 'node:worker_threads'",
        'let teammate = false',
        'const post = MessagePort.prototype.postMessage',
        'MessagePort.prototype.postMessage = function (message, ...rest) {',
        "  if (message && message.type === 'ready') teammate = true",
        '  return post.call(this, message, ...rest)',
        '}',
        `const poll = setInterval(() => { if (!teammate && existsSync(${JSON.stringify(trigger)})) process.exit(7) }, 20)`,
        'poll.unref()'
      ].join('\n')
    )
    const workers = bed.executor({ prelude })
    workers.prewarm()
    expect(await workers.whenSpareLoaded()).toBe(true)
    writeFileSync(trigger, '')
    await until('the dead spare dropped', async () => !(await workers.whenSpareLoaded()))
    expect(existsSync(trigger)).toBe(true)
    rmSync(trigger)

    const config = await prepare('cold')
    await workers.spawn(config)
    await until('alice idle after her first turn', () => idleNotified('cold'))
    expect(workers.isAlive(config.agentId)).toBe(true)
  }, 60_000)
})
