import { type PtyHost } from './types'
import { mkdtempSync, realpathSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { RUN_OUTPUT_HEAD_CHARS, RUN_OUTPUT_TAIL_CHARS, createPtyHost } from './ptyHost'

let host: PtyHost
let root: string

beforeAll(() => {
  host = createPtyHost()
  root = realpathSync(mkdtempSync(join(tmpdir(), 'pty-run-')))
})

afterAll(async () => {
  await host.dispose()
  rmSync(root, { recursive: true, force: true })
})

const run = (command: string, extra: { env?: Record<string, string>; onData?: (d: string) => void } = {}) =>
  host.run({ command, cwd: root, timeoutMs: 20_000, ...extra })

describe('PtyHost.run', () => {
  it('returns the output and exit code 0 of a simple command', async () => {
    const result = await run('echo hello')
    expect(result).toMatchObject({ exitCode: 0, signal: null, timedOut: false, aborted: false })
    expect(result.output).toBe('hello\r\n')
    expect(result.pid).toBeGreaterThan(0)
  })

  it('reports a non-zero exit code', async () => {
    expect((await run('echo oops; exit 3')).exitCode).toBe(3)
  })

  it('runs in the given cwd and carries no directory or variable to the next call', async () => {
    expect((await run('pwd')).output.trim()).toBe(root)
    await run('cd /tmp && export SWARMDESK_TEST_X=1')
    expect((await run('pwd')).output.trim()).toBe(root)
    expect((await run('echo "[$SWARMDESK_TEST_X]"')).output.trim()).toBe('[]')
  })

  it('sets the pager, git prompt and terminal variables, and the extra env on top', async () => {
    const result = await run('echo "$PAGER|$GIT_PAGER|$GIT_TERMINAL_PROMPT|$TERM|$EXTRA"', { env: { EXTRA: 'yes' } })
    expect(result.output.trim()).toBe('cat|cat|0|xterm-256color|yes')
  })

  it('streams raw output with ANSI sequences to onData', async () => {
    let streamed = ''
    const result = await run("printf '\\033[31mred\\033[0m\\n'", { onData: (d) => (streamed += d) })
    expect(streamed).toContain('\x1b[31mred\x1b[0m')
    expect(result.output).toBe(streamed)
  })

  it('keeps a bounded head and tail of huge output while streaming all of it', async () => {
    let streamedChars = 0
    const result = await run('seq 1 2000000', { onData: (d) => (streamedChars += d.length) })
    let expected = 0
    for (let n = 1; n <= 2_000_000; n++) expected += String(n).length + 2 // "\r\n" from the PTY
    expect(streamedChars).toBe(expected)
    expect(result.output.length).toBeLessThan(RUN_OUTPUT_HEAD_CHARS + RUN_OUTPUT_TAIL_CHARS + 100)
    const rawOmitted = expected - RUN_OUTPUT_HEAD_CHARS - RUN_OUTPUT_TAIL_CHARS
    // Not counting \r: about one per omitted line of ~8 characters.
    expect(result.omittedChars).toBeLessThan(rawOmitted * 0.92)
    expect(result.omittedChars).toBeGreaterThan(rawOmitted * 0.85)
    expect(result.output.startsWith('1\r\n2\r\n')).toBe(true)
    expect(result.output.endsWith('1999999\r\n2000000\r\n')).toBe(true)
    expect(result.output).toContain(`[... ${result.omittedChars} characters of output omitted ...]`)
  })

  it('delivers the last bytes of a fast, large command every time (node-pty drops them without the end marker)', async () => {
    for (let i = 0; i < 8; i++) {
      const result = await run('seq 1 100000; printf "the end"; exit 7')
      expect(result.exitCode).toBe(7)
      expect(result.output.endsWith('99999\r\n100000\r\nthe end')).toBe(true)
    }
  })

  it('reports an exit code from inside the command, not the wrapper', async () => {
    expect((await run('exit 0; echo never')).exitCode).toBe(0)
    expect((await run('kill -TERM $$')).exitCode).toBe(143)
  })

  it('gives commands EOF on stdin so prompts end at once, while stdout stays a terminal', async () => {
    const started = Date.now()
    const result = await run('cat; read -p "name? " x; echo "[$x] $?"; test -t 1 && echo tty')
    expect(Date.now() - started).toBeLessThan(5_000)
    expect(result.output).toContain('[] 1')
    expect(result.output).toContain('tty')
  })

  it('has no live pty once a run resolves', async () => {
    await run('echo done')
    expect(host.livePids()).toEqual([])
  })
})

describe('environment of commands', () => {
  it('withholds the model credentials from agents commands', async () => {
    const { createPtyHost } = await import('./ptyHost')
    const host = createPtyHost()
    const saved = process.env.ANTHROPIC_API_KEY
    process.env.ANTHROPIC_API_KEY = 'sk-secret-for-test'
    try {
      const result = await host.run({ command: 'env', cwd: '/tmp', timeoutMs: 10_000 })
      expect(result.output).not.toContain('sk-secret-for-test')
      expect(result.output).toContain('GIT_PAGER=cat')
    } finally {
      if (saved === undefined) delete process.env.ANTHROPIC_API_KEY
      else process.env.ANTHROPIC_API_KEY = saved
      await host.dispose()
    }
  })
})
