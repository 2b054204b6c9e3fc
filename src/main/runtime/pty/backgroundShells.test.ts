import { type BackgroundShells, type BackgroundShellStatus, type PtyHost } from './types'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { createBackgroundShells } from './backgroundShells'
import { isProcessAlive, listDescendantPids } from '../processes/procfs'
import { createPtyHost } from './ptyHost'
import { pidsWithCommandLine, sleepPids, uniqueSleepSeconds, waitFor } from './pty.testkit'

let host: PtyHost

beforeAll(() => {
  host = createPtyHost()
})

afterAll(async () => {
  await host.dispose()
})

/** Reads until the shell has ended, concatenating every read's new output. */
async function readUntilEnded(
  shells: BackgroundShells,
  shellId: string,
  filter?: RegExp
): Promise<{ last: BackgroundShellStatus; all: string }> {
  let all = ''
  for (;;) {
    const status = shells.read(shellId, filter) as BackgroundShellStatus
    all += status.newOutput
    if (status.status !== 'running') return { last: status, all }
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

describe('createBackgroundShells', () => {
  it('returns only the output produced since the previous read, then the final status', async () => {
    const shells = createBackgroundShells(host)
    const { shellId } = shells.start({ command: 'for i in 1 2 3; do echo tick $i; sleep 0.3; done', cwd: '/tmp' })
    expect(shellId).toBe('bash_1')
    expect(shells.runningCount()).toBe(1)
    let first = ''
    await waitFor(() => (first += (shells.read(shellId) as BackgroundShellStatus).newOutput).includes('tick 1'))
    expect(first).not.toContain('tick 3')
    const { last, all } = await readUntilEnded(shells, shellId)
    expect(first + all).toBe('tick 1\ntick 2\ntick 3\n')
    expect(last).toMatchObject({
      status: 'completed',
      exitCode: 0,
      command: 'for i in 1 2 3; do echo tick $i; sleep 0.3; done'
    })
    expect(shells.read(shellId)?.newOutput).toBe('')
    expect(shells.runningCount()).toBe(0)
  })

  it('reports a non-zero exit as failed with its code', async () => {
    const shells = createBackgroundShells(host)
    const { shellId } = shells.start({ command: 'echo bad; exit 4', cwd: '/tmp' })
    const { last, all } = await readUntilEnded(shells, shellId)
    expect(last).toMatchObject({ status: 'failed', exitCode: 4 })
    expect(all).toBe('bad\n')
  })

  it('keeps only lines matching the filter, ANSI-stripped', async () => {
    const shells = createBackgroundShells(host)
    const { shellId } = shells.start({ command: "printf 'a1\\n\\033[32mb2\\033[0m\\na3\\n'", cwd: '/tmp' })
    const { all } = await readUntilEnded(shells, shellId, /^a/g)
    expect(all).toBe('a1\na3\n')
  })

  it('drops the oldest unread output past its bound and says how much', async () => {
    const shells = createBackgroundShells(host, { maxBufferedChars: 1_000 })
    const { shellId } = shells.start({ command: 'seq 1 100000', cwd: '/tmp' })
    await waitFor(() => shells.runningCount() === 0)
    const all = shells.read(shellId)?.newOutput ?? ''
    expect(all).toMatch(/^\[\.\.\. \d+ earlier characters were dropped unread \.\.\.\]\n/)
    expect(all.length).toBeLessThan(1_100)
    expect(all.endsWith('99999\n100000\n')).toBe(true)
  })

  it('kills a shell: its whole tree is gone, status killed, a second kill is refused', async () => {
    const shells = createBackgroundShells(host)
    const secs = uniqueSleepSeconds()
    const { shellId } = shells.start({ command: `sleep ${secs} & setsid sleep ${secs} & wait`, cwd: '/tmp' })
    await waitFor(() => sleepPids(secs).length === 2)
    const tree = host.livePids().flatMap((pid) => [pid, ...listDescendantPids(pid)])
    expect(await shells.kill(shellId)).toBe(true)
    expect(tree.filter(isProcessAlive)).toEqual([])
    expect(pidsWithCommandLine(`sleep ${secs}`)).toEqual([])
    expect(shells.read(shellId)).toMatchObject({ status: 'killed' })
    expect(await shells.kill(shellId)).toBe(false)
    expect(await shells.kill('bash_99')).toBe(false)
  })

  it('killAll stops every running shell of the agent and leaves no process', async () => {
    const shells = createBackgroundShells(host)
    const secs = uniqueSleepSeconds()
    shells.start({ command: `sleep ${secs}`, cwd: '/tmp' })
    shells.start({ command: `sleep ${secs} & wait`, cwd: '/tmp' })
    shells.start({ command: 'true', cwd: '/tmp' })
    await waitFor(() => sleepPids(secs).length === 2)
    await shells.killAll()
    expect(shells.runningCount()).toBe(0)
    expect(pidsWithCommandLine(`sleep ${secs}`)).toEqual([])
    expect(shells.list?.().map((shell) => shell.shellId)).toEqual(['bash_1', 'bash_2', 'bash_3'])
  })

  it('numbers shells per registry and answers undefined for an unknown id', () => {
    const a = createBackgroundShells(host)
    const b = createBackgroundShells(host)
    expect(a.start({ command: 'true', cwd: '/tmp' }).shellId).toBe('bash_1')
    expect(a.start({ command: 'true', cwd: '/tmp' }).shellId).toBe('bash_2')
    expect(b.start({ command: 'true', cwd: '/tmp' }).shellId).toBe('bash_1')
    expect(a.read('bash_3')).toBeUndefined()
  })
})
