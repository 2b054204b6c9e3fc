import { type PtyHost } from './types'
import { getEventListeners } from 'node:events'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { isProcessAlive, listDescendantPids, readProcEntry } from '../processes/procfs'
import { PtyHostDisposedError, createPtyHost } from './ptyHost'
import { pidsWithCommandLine, sleepPids, uniqueSleepSeconds, waitFor } from './pty.testkit'

let host: PtyHost

beforeAll(() => {
  host = createPtyHost()
})

afterAll(async () => {
  await host.dispose()
})

/**
 * Runs `command` (which prints `ready` once it has started its children) and snapshots the run's
 * process tree before anything is killed. `ready` can reach us before a backgrounded child has
 * exec'd `sleep`, so with `sleepers` the snapshot waits (up to 3 s) until that many sleeps exist.
 */
async function runAndCollect(
  command: string,
  options: { timeoutMs: number; signal?: AbortSignal; onReady?: () => void; sleepSeconds?: string; sleepers?: number }
) {
  let leader = 0
  let tree: number[] = []
  let sleepers: Array<{ pid: number; pgid: number | undefined }> = []
  let seen = ''
  let snapshot: Promise<void> = Promise.resolve()
  const result = await host.run({
    command,
    cwd: '/tmp',
    timeoutMs: options.timeoutMs,
    signal: options.signal,
    onData: (data) => {
      seen += data
      if (leader === 0 && seen.includes('ready')) {
        leader = host.livePids()[0]
        const secs = options.sleepSeconds
        snapshot = (async () => {
          if (secs && options.sleepers)
            await waitFor(() => sleepPids(secs).length >= options.sleepers!, 3_000).catch(() => {})
          tree = listDescendantPids(leader)
          if (secs) sleepers = sleepPids(secs).map((pid) => ({ pid, pgid: readProcEntry(pid)?.pgid }))
          options.onReady?.()
        })()
      }
    }
  })
  await snapshot
  return { result, leader, tree, sleepers }
}

describe('PtyHost kills whole process trees', () => {
  it('kills the process group of a command that outlives its timeout, leaving no orphan', async () => {
    const secs = uniqueSleepSeconds()
    const started = Date.now()
    const { result, leader, tree, sleepers } = await runAndCollect(`sleep ${secs} & sleep ${secs} & echo ready; wait`, {
      timeoutMs: 2_000,
      sleepSeconds: secs,
      sleepers: 2
    })
    expect(result.timedOut).toBe(true)
    expect(result.aborted).toBe(false)
    expect(Date.now() - started).toBeLessThan(8_000)
    expect(sleepers).toHaveLength(2)
    expect(sleepers.every((sleeper) => sleeper.pgid === leader && tree.includes(sleeper.pid))).toBe(true)
    expect(tree.filter(isProcessAlive)).toEqual([])
    expect(isProcessAlive(leader)).toBe(false)
    expect(pidsWithCommandLine(`sleep ${secs}`)).toEqual([])
  })

  it('also kills a child that left the process group with setsid', async () => {
    const secs = uniqueSleepSeconds()
    const { result, leader, tree, sleepers } = await runAndCollect(
      `setsid sleep ${secs} & sleep 0.2; echo ready; sleep 30`,
      {
        timeoutMs: 2_500,
        sleepSeconds: secs,
        sleepers: 1
      }
    )
    expect(result.timedOut).toBe(true)
    // Only meaningful if it really escaped: alive at the timeout, in a group of its own.
    expect(sleepers).toHaveLength(1)
    expect(sleepers[0].pgid).not.toBe(leader)
    expect(tree).toContain(sleepers[0].pid)
    expect(isProcessAlive(sleepers[0].pid)).toBe(false)
    expect(pidsWithCommandLine(`sleep ${secs}`)).toEqual([])
  })

  it('kills a setsid escapee whose parent already exited when the command ends normally', async () => {
    const secs = uniqueSleepSeconds()
    let escapedGroup = false
    const result = await host.run({
      command: `(setsid sleep ${secs} &); sleep 0.3; echo started`,
      cwd: '/tmp',
      timeoutMs: 10_000,
      onData: () => {
        for (const pid of pidsWithCommandLine(`sleep ${secs}`)) {
          const row = readProcEntry(pid)
          if (row && row.pgid !== host.livePids()[0]) escapedGroup = true
        }
      }
    })
    expect(result.exitCode).toBe(0)
    expect(escapedGroup).toBe(true)
    expect(pidsWithCommandLine(`sleep ${secs}`)).toEqual([])
  })

  it('kills background jobs a command leaves behind when it ends normally', async () => {
    const secs = uniqueSleepSeconds()
    const result = await host.run({ command: `sleep ${secs} & echo left`, cwd: '/tmp', timeoutMs: 10_000 })
    expect(result.exitCode).toBe(0)
    expect(pidsWithCommandLine(`sleep ${secs}`)).toEqual([])
  })

  it('stops on abort, kills the group, resolves promptly and removes its abort listener', async () => {
    const secs = uniqueSleepSeconds()
    const controller = new AbortController()
    let abortedAt = 0
    const { result, tree, sleepers } = await runAndCollect(`sleep ${secs} & setsid sleep ${secs} & echo ready; wait`, {
      timeoutMs: 60_000,
      sleepSeconds: secs,
      sleepers: 2,
      signal: controller.signal,
      onReady: () =>
        setTimeout(() => {
          abortedAt = Date.now()
          controller.abort()
        }, 100)
    })
    expect(result).toMatchObject({ aborted: true, timedOut: false })
    expect(Date.now() - abortedAt).toBeLessThan(3_000)
    expect(sleepers).toHaveLength(2)
    expect(tree.filter(isProcessAlive)).toEqual([])
    expect(pidsWithCommandLine(`sleep ${secs}`)).toEqual([])
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0)
  })

  it('removes its abort listener when the command ends normally', async () => {
    const controller = new AbortController()
    await host.run({ command: 'true', cwd: '/tmp', timeoutMs: 10_000, signal: controller.signal })
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0)
  })

  it('starts nothing when the signal is already aborted', async () => {
    const controller = new AbortController()
    controller.abort()
    const result = await host.run({ command: 'echo no', cwd: '/tmp', timeoutMs: 10_000, signal: controller.signal })
    expect(result).toMatchObject({ pid: 0, aborted: true, output: '' })
  })
})

describe('PtyHost.dispose', () => {
  it('kills every PTY it owns and leaves zero live processes', async () => {
    const own = createPtyHost()
    const secs = uniqueSleepSeconds()
    const shells = [0, 1, 2].map(() =>
      own.spawn({ command: `sleep ${secs} & setsid sleep ${secs} & wait`, cwd: '/tmp' })
    )
    const pending = own.run({ command: `sleep ${secs}`, cwd: '/tmp', timeoutMs: 60_000 })
    await waitFor(() => pidsWithCommandLine(`sleep ${secs}`).length >= 7)
    const trees = own.livePids().flatMap((pid) => [pid, ...listDescendantPids(pid)])
    expect(own.livePids()).toHaveLength(4)
    await own.dispose()
    expect(own.livePids()).toEqual([])
    expect(trees.filter(isProcessAlive)).toEqual([])
    expect(pidsWithCommandLine(`sleep ${secs}`)).toEqual([])
    expect((await pending).exitCode).toBeNull()
    expect(shells.every((shell) => !isProcessAlive(shell.pid))).toBe(true)
    await expect(own.run({ command: 'true', cwd: '/tmp', timeoutMs: 1_000 })).rejects.toBeInstanceOf(
      PtyHostDisposedError
    )
  })
})
