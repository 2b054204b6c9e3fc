import { afterAll, describe, expect, it } from 'vitest'
import { createPtyHost } from './ptyHost'
import { until } from './pty.testkit'

/** `open`: an interactive program with the terminal as its stdin (a Claude Code session's pane). */
describe('PtyHost.open', () => {
  const host = createPtyHost()
  afterAll(() => host.dispose())

  it('runs the program as is, with the terminal as stdin: keys written reach it, and it sees only the env given', async () => {
    let out = ''
    let exit: { exitCode: number | null } | undefined
    const pty = host.open({
      file: '/bin/bash',
      args: ['--noprofile', '--norc', '-c', 'read -r line; echo "got:$line:${ONLY_THIS:-unset}:${PAGER:-nopager}"'],
      cwd: '/',
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', ONLY_THIS: 'yes' },
      onData: (d) => (out += d),
      onExit: (e) => (exit = e)
    })
    pty.write('typed keys\r')
    await until('the echo', () => /got:typed keys:yes:nopager/.test(out))
    await until('the exit', () => exit)
    expect(exit!.exitCode).toBe(0)
  })

  it('resizes and kills its whole group', async () => {
    let out = ''
    const pty = host.open({
      file: '/bin/bash',
      args: ['--noprofile', '--norc', '-c', 'trap "stty size" WINCH; echo ready; while :; do sleep 0.05; done'],
      cwd: '/',
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
      cols: 80,
      rows: 24,
      onData: (d) => (out += d)
    })
    await until('ready', () => out.includes('ready'))
    pty.resize(91, 33)
    await until('the new size', () => out.includes('33 91'))
    await pty.kill()
    expect(host.livePids()).not.toContain(pty.pid)
    // a write after the end is a no-op, not a throw
    pty.write('x')
  })
})
