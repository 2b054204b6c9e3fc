import { type PtyProcess } from './types'
import { mkdtempSync, realpathSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { createPtyHost, PtySizeError } from './ptyHost'
import { waitFor } from './pty.testkit'

let host: ReturnType<typeof createPtyHost>
let root: string

beforeAll(() => {
  host = createPtyHost()
  root = realpathSync(mkdtempSync(join(tmpdir(), 'pty-resize-')))
})

afterAll(async () => {
  await host.dispose()
  rmSync(root, { recursive: true, force: true })
})

/**
 * A program that prints its terminal's size (`stty size`: rows, then columns) at start and again
 * on every SIGWINCH, then idles; its output is collected with CRLFs made LFs.
 */
function sizeReporter(size?: { cols: number; rows: number }): {
  proc: PtyProcess
  output: () => string
  exited: Promise<unknown>
} {
  let text = ''
  let exited!: (value: unknown) => void
  const done = new Promise((resolve) => (exited = resolve))
  const proc = host.spawn({
    // stdin is /dev/null (completionMarker.ts): stty asks the terminal itself
    command: `trap 'echo "winch $(stty size </dev/tty)"' WINCH; echo "start $(stty size </dev/tty)"; while :; do sleep 0.05; done`,
    cwd: root,
    ...size,
    onData: (data) => (text += data.replace(/\r\n/g, '\n')),
    onExit: exited
  })
  return { proc, output: () => text, exited: done }
}

describe('PtyProcess.resize', () => {
  it('changes the size the program inside sees, and the program is told (SIGWINCH)', async () => {
    const { proc, output } = sizeReporter()
    await waitFor(() => output().includes('start 40 120\n'))
    proc.resize!(200, 50)
    await waitFor(() => output().includes('winch 50 200\n'))
    proc.resize!(33, 7)
    await waitFor(() => output().includes('winch 7 33\n'))
    await proc.kill()
  })

  it('starts a spawned terminal at the size it is given', async () => {
    const { proc, output } = sizeReporter({ cols: 91, rows: 17 })
    await waitFor(() => output().includes('start 17 91\n'))
    await proc.kill()
  })

  it('refuses a size that is not whole, below 1 or absurdly large, saying what is allowed, and keeps the old size', async () => {
    const { proc, output } = sizeReporter()
    await waitFor(() => output().includes('start 40 120\n'))
    const bad: Array<[number, number, RegExp]> = [
      [80.5, 24, /cols must be a whole number from 1 to 2000, not 80\.5/],
      [0, 24, /cols must be a whole number from 1 to 2000, not 0/],
      [80, -3, /rows must be a whole number from 1 to 1000, not -3/],
      [2001, 24, /cols must be a whole number from 1 to 2000, not 2001/],
      [80, 1001, /rows must be a whole number from 1 to 1000, not 1001/],
      [Number.NaN, Number.POSITIVE_INFINITY, /cols must .* not NaN; rows must .* not Infinity/]
    ]
    for (const [cols, rows, message] of bad) {
      expect(() => proc.resize!(cols, rows)).toThrow(PtySizeError)
      expect(() => proc.resize!(cols, rows)).toThrow(message)
    }
    // the bounds themselves are allowed; the first size the program is told is the first good one
    proc.resize!(2000, 1000)
    await waitFor(() => output().includes('winch'))
    expect(output().match(/winch .*\n/g)?.[0]).toBe('winch 1000 2000\n')
    proc.resize!(1, 1)
    await waitFor(() => output().includes('winch 1 1\n'))
    await proc.kill()
  })

  it('refuses to start a terminal of a bad size', () => {
    expect(() => host.spawn({ command: 'true', cwd: root, cols: 0 })).toThrow(
      /Bad terminal size: cols must be a whole number from 1 to 2000, not 0/
    )
    expect(() => host.spawn({ command: 'true', cwd: root, rows: 5000 })).toThrow(PtySizeError)
  })

  it('is a no-op once the program has exited', async () => {
    let exited = false
    const proc = host.spawn({ command: 'echo bye', cwd: root, onExit: () => (exited = true) })
    await waitFor(() => exited)
    expect(() => proc.resize!(100, 30)).not.toThrow()
    // still refused: the size is checked first, whatever state the terminal is in
    expect(() => proc.resize!(0, 30)).toThrow(PtySizeError)
  })
})
