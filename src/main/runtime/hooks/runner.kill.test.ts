import { getEventListeners } from 'node:events'
import { describe, expect, it } from 'vitest'
import { createHookRunner } from './runner'
import { eventually, oneHook, pidsWithCmdline, useTempDirs, uniqueSleep } from './hooks.testkit'

const tempDir = useTempDirs()
const TASK = { task_id: '1', task_subject: 's', team_name: 't' }

describe('hook runner: timeouts and aborts end the whole process group', () => {
  it('kills the hook and the children it started when it runs past its timeout', async () => {
    const dir = await tempDir()
    const a = uniqueSleep()
    const b = uniqueSleep()
    // The timeout leaves room for a loaded machine to start both sleeps before it fires.
    const cmd = `${a} & ${b} & wait`
    const runner = createHookRunner({
      hooks: [{ source: 's.json', hooks: oneHook('TaskCompleted', cmd, { timeout: 3 }) }],
      cwd: dir,
      sessionId: 's'
    })
    const running = runner.run('TaskCompleted', TASK)
    expect(
      await eventually(async () => (await pidsWithCmdline(a)).length === 1 && (await pidsWithCmdline(b)).length === 1)
    ).toBe(true)
    const outcome = await running
    expect(outcome.kind).toBe('continue')
    expect(outcome.results[0].end).toEqual({ kind: 'timed_out', afterMs: 3000 })
    expect(outcome.warnings[0]).toContain('timed out after 3 s')
    expect(
      await eventually(async () => (await pidsWithCmdline(a)).length + (await pidsWithCmdline(b)).length === 0)
    ).toBe(true)
  })

  it('kills a running hook and its children when the caller aborts, and resolves without blocking', async () => {
    const dir = await tempDir()
    const a = uniqueSleep()
    const runner = createHookRunner({
      hooks: [{ source: 's.json', hooks: oneHook('TaskCreated', `${a} & wait; exit 2`) }],
      cwd: dir,
      sessionId: 's'
    })
    const controller = new AbortController()
    const running = runner.run('TaskCreated', TASK, { signal: controller.signal })
    expect(await eventually(async () => (await pidsWithCmdline(a)).length === 1)).toBe(true)
    const t0 = Date.now()
    controller.abort()
    const outcome = await running
    expect(Date.now() - t0).toBeLessThan(2000)
    expect(outcome.kind).toBe('continue')
    expect(outcome.results[0].end).toEqual({ kind: 'aborted' })
    expect(await eventually(async () => (await pidsWithCmdline(a)).length === 0)).toBe(true)
  })

  it('starts nothing when the signal is already aborted', async () => {
    const dir = await tempDir()
    const runner = createHookRunner({
      hooks: [{ source: 's.json', hooks: oneHook('TaskCreated', `touch "${dir}/ran"`) }],
      cwd: dir,
      sessionId: 's'
    })
    const outcome = await runner.run('TaskCreated', TASK, { signal: AbortSignal.abort() })
    expect(outcome.results[0].end).toEqual({ kind: 'aborted' })
    await expect(import('node:fs/promises').then((fs) => fs.access(`${dir}/ran`))).rejects.toThrow()
  })

  it('does not wait for a background process a finished hook left holding its output', async () => {
    const dir = await tempDir()
    const a = uniqueSleep()
    const runner = createHookRunner({
      hooks: [{ source: 's.json', hooks: oneHook('TaskCreated', `${a} & echo started`) }],
      cwd: dir,
      sessionId: 's'
    })
    const t0 = Date.now()
    try {
      const outcome = await runner.run('TaskCreated', TASK)
      expect(Date.now() - t0).toBeLessThan(2000)
      expect(outcome).toMatchObject({ kind: 'continue', warnings: [] })
      expect(outcome.results[0].stdout).toBe('started\n')
    } finally {
      for (const pid of await pidsWithCmdline(a)) process.kill(pid, 'SIGKILL')
    }
  })

  it('removes its abort listeners when the run ends', async () => {
    const dir = await tempDir()
    const hooks = {
      TaskCreated: [
        {
          hooks: [
            { type: 'command', command: 'true' },
            { type: 'command', command: 'exit 1' }
          ]
        }
      ]
    }
    const runner = createHookRunner({ hooks: [{ source: 's.json', hooks }], cwd: dir, sessionId: 's' })
    const controller = new AbortController()
    for (let i = 0; i < 3; i++) await runner.run('TaskCreated', TASK, { signal: controller.signal })
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0)
  })
})
