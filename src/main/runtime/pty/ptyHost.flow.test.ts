import { mkdtempSync, realpathSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createPtyHost } from './ptyHost'

let host: ReturnType<typeof createPtyHost>
let root: string

beforeAll(() => {
  host = createPtyHost()
  root = realpathSync(mkdtempSync(join(tmpdir(), 'pty-flow-')))
})

afterAll(async () => {
  await host.dispose()
  rmSync(root, { recursive: true, force: true })
})

/** 4,000,000 `a`s then `END`: far more than a PTY's kernel buffer holds. */
const BIG = "head -c 4000000 /dev/zero | tr '\\0' a; echo; echo END"

describe('PtyHost flow control', () => {
  it('names the delivering PTY inside its data callback only', async () => {
    const seen = new Set<number | undefined>()
    const result = await host.run({
      command: 'echo one; echo two',
      cwd: root,
      timeoutMs: 20_000,
      onData: () => seen.add(host.deliveringPid())
    })
    expect([...seen]).toEqual([result.pid])
    expect(host.deliveringPid()).toBeUndefined()
  })

  it('holds a paused PTY back and delivers every byte in order after it resumes', async () => {
    let pid: number | undefined
    let received = ''
    const running = host.run({
      command: BIG,
      cwd: root,
      timeoutMs: 60_000,
      onData: (data) => {
        received += data
        if (pid === undefined) {
          pid = host.deliveringPid()
          expect(host.pause(pid!)).toBe(true)
        }
      }
    })
    while (pid === undefined) await new Promise((r) => setTimeout(r, 5))
    const atPause = received.length
    // Time for the writer to fill the kernel's buffer and block; unpaused it would finish meanwhile.
    await new Promise((r) => setTimeout(r, 500))
    const duringPause = received.length - atPause
    expect(duringPause).toBeLessThan(256 << 10)
    host.resume(pid)
    const result = await running
    expect(result.exitCode).toBe(0)
    const text = received.replace(/\r\n/g, '\n')
    expect(text).toBe('a'.repeat(4_000_000) + '\nEND\n')
  })

  it('a paused PTY can still be killed: the run ends instead of waiting for its output to drain', async () => {
    const controller = new AbortController()
    let pid: number | undefined
    const running = host.run({
      command: BIG,
      cwd: root,
      timeoutMs: 60_000,
      signal: controller.signal,
      onData: () => {
        if (pid !== undefined) return
        pid = host.deliveringPid()
        host.pause(pid!)
      }
    })
    while (pid === undefined) await new Promise((r) => setTimeout(r, 5))
    controller.abort()
    const result = await running
    expect(result.aborted).toBe(true)
    expect(host.livePids()).not.toContain(pid)
    expect(host.pause(pid)).toBe(false)
  })
})
