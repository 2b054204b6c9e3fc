import { type PtyHost } from '../../pty/types'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { isProcessAlive, listDescendantPids } from '../../processes/procfs'
import { createPtyHost } from '../../pty/ptyHost'
import { pidsWithCommandLine, sleepPids, uniqueSleepSeconds, waitFor } from '../../pty/pty.testkit'
import { BashTool } from './bash'
import { BashOutputTool } from './bashOutput'
import { shellToolContext } from './bash.testkit'
import { KillShellTool } from './killShell'
import { ToolError } from '../types'

let host: PtyHost

beforeAll(() => {
  host = createPtyHost()
})

afterAll(async () => {
  await host.dispose()
})

describe('Bash run_in_background with BashOutput', () => {
  it('starts a shell, then reads its output incrementally and its final status', async () => {
    const ctx = shellToolContext(host, '/tmp')
    const started = await BashTool.call(
      { command: 'for i in 1 2 3; do echo tick $i; sleep 0.3; done', run_in_background: true },
      ctx
    )
    expect(started).toEqual({ content: 'Command running in background with ID: bash_1' })

    const reads: string[] = []
    for (;;) {
      const read = await BashOutputTool.call({ bash_id: 'bash_1' }, ctx)
      reads.push(read.content)
      if (!read.content.startsWith('<status>running</status>')) break
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
    const outputs = reads
      .map((read) => /<output>\n([\s\S]*)\n<\/output>$/.exec(read)?.[1])
      .filter((text) => text !== '(no new output)')
    expect(outputs.join('\n')).toBe('tick 1\ntick 2\ntick 3')
    expect(outputs.length).toBeGreaterThan(1) // incremental: no read returned everything
    expect(reads[reads.length - 1]).toMatch(/^<status>completed<\/status>\n<exit_code>0<\/exit_code>\n<output>\n/)

    const again = await BashOutputTool.call({ bash_id: 'bash_1' }, ctx)
    expect(again.content).toBe(
      '<status>completed</status>\n<exit_code>0</exit_code>\n<output>\n(no new output)\n</output>'
    )
  })

  it('reports a running shell without an exit code, and a failed one with its code', async () => {
    const ctx = shellToolContext(host, '/tmp')
    await BashTool.call({ command: 'sleep 0.5; echo late; exit 2', run_in_background: true }, ctx)
    expect((await BashOutputTool.call({ bash_id: 'bash_1' }, ctx)).content).toBe(
      '<status>running</status>\n<output>\n(no new output)\n</output>'
    )
    await waitFor(() => ctx.shells.runningCount() === 0)
    const result = await BashOutputTool.call({ bash_id: 'bash_1' }, ctx)
    expect(result).toEqual({ content: '<status>failed</status>\n<exit_code>2</exit_code>\n<output>\nlate\n</output>' })
  })

  it('filters new output by a regular expression', async () => {
    const ctx = shellToolContext(host, '/tmp')
    await BashTool.call({ command: 'printf "error: one\\ninfo: two\\nerror: three\\n"', run_in_background: true }, ctx)
    await waitFor(() => ctx.shells.runningCount() === 0)
    const result = await BashOutputTool.call({ bash_id: 'bash_1', filter: '^error' }, ctx)
    expect(result.content).toContain('<output>\nerror: one\nerror: three\n</output>')
  })

  it('rejects an invalid filter regex and an unknown shell id with a ToolError naming the shells', async () => {
    const ctx = shellToolContext(host, '/tmp')
    await expect(BashOutputTool.call({ bash_id: 'bash_1' }, ctx)).rejects.toThrow(
      'No background shell with ID "bash_1". This agent has no background shells.'
    )
    await BashTool.call({ command: 'echo hi', run_in_background: true }, ctx)
    await expect(BashOutputTool.call({ bash_id: 'bash_1', filter: '(' }, ctx)).rejects.toBeInstanceOf(ToolError)
    await expect(BashOutputTool.call({ bash_id: 'bash_1', filter: '(' }, ctx)).rejects.toThrow(
      /^Invalid filter regular expression "\("/
    )
    await expect(BashOutputTool.call({ bash_id: 'bash_7' }, ctx)).rejects.toThrow(
      /^No background shell with ID "bash_7"\. This agent's shells: bash_1 \((running|completed): echo hi\)$/
    )
  })
})

describe('KillShell', () => {
  it('kills a background shell and every process in it, then refuses a second kill', async () => {
    const ctx = shellToolContext(host, '/tmp')
    const secs = uniqueSleepSeconds()
    await BashTool.call({ command: `sleep ${secs} & setsid sleep ${secs} & wait`, run_in_background: true }, ctx)
    await waitFor(() => sleepPids(secs).length === 2)
    const tree = host.livePids().flatMap((pid) => [pid, ...listDescendantPids(pid)])
    const result = await KillShellTool.call({ shell_id: 'bash_1' }, ctx)
    expect(result).toEqual({
      content: `Killed shell bash_1 (sleep ${secs} & setsid sleep ${secs} & wait); all its processes are gone.`
    })
    expect(tree.filter(isProcessAlive)).toEqual([])
    expect(pidsWithCommandLine(`sleep ${secs}`)).toEqual([])
    expect((await BashOutputTool.call({ bash_id: 'bash_1' }, ctx)).content).toMatch(/^<status>killed<\/status>/)
    await expect(KillShellTool.call({ shell_id: 'bash_1' }, ctx)).rejects.toThrow(
      'Shell bash_1 is not running (killed).'
    )
    await expect(KillShellTool.call({ shell_id: 'bash_2' }, ctx)).rejects.toThrow(
      /^No background shell with ID "bash_2"\. This agent's shells: bash_1 \(killed: /
    )
  })

  it('needs no permission and validates its input', () => {
    expect(KillShellTool.permissionSubject({ shell_id: 'bash_1' }, { cwd: '/' })).toEqual({ kind: 'none' })
    expect(BashOutputTool.permissionSubject({ bash_id: 'bash_1' }, { cwd: '/' })).toEqual({ kind: 'none' })
    expect(KillShellTool.inputSchema.safeParse({}).success).toBe(false)
    expect(BashOutputTool.inputSchema.safeParse({ bash_id: 'bash_1', filter: 3 }).success).toBe(false)
  })
})
