import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs'
import { createInterface } from 'node:readline'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { ofType, runCli, startCli } from './cli.testkit'

let home: string
beforeEach(() => {
  home = realpathSync(mkdtempSync(join(tmpdir(), 'swarmdesk-home-')))
})
afterEach(() => rmSync(home, { recursive: true, force: true }))

describe('swarmdesk demo', () => {
  it('surveys the sample project, runs its tests in a PTY, asks before the edit, fixes the bug', async () => {
    const run = await runCli(['demo', '--json', '--keep'], { env: { SWARMDESK_HOME: home } })
    expect(run.code).toBe(0)
    const workspace = ofType(run.events, 'agent_started')[0]!.cwd!
    // --keep keeps the workspace and says where (on stderr: stdout is the event stream)
    expect(run.stderr).toBe(`Demo workspace kept at ${workspace} (remove it when done).\n`)
    try {
      const calls = ofType(run.events, 'tool_call').map((c) => c.name)
      expect(calls).toEqual(['Glob', 'Grep', 'Read', 'Bash', 'Bash', 'Read', 'Edit', 'Bash'])
      const results = ofType(run.events, 'tool_result')
      // only the first test run fails (exit code 1): that failure is what the agent fixes
      expect(results.map((r) => r.isError)).toEqual([false, false, false, false, true, false, false, false])
      // real git history with the fixed authorship, real test runs before and after the fix
      expect(results[3]!.output).toContain('Add tests for counting, ordering and formatting')
      expect(results[4]!.output).toContain('# fail 2')
      expect(results[7]!.output).toContain('# fail 0')
      // the pane gets the raw PTY output of the commands
      expect(
        ofType(run.events, 'tool_output')
          .map((o) => o.data)
          .join('')
      ).toContain('# pass 4')
      // the project's settings allow `npm test`; the edit is the one call that needs a person
      const asked = ofType(run.events, 'permission_request')
      expect(asked.map((r) => r.tool)).toEqual(['Edit'])
      expect(ofType(run.events, 'permission_decided')).toEqual([
        expect.objectContaining({ requestId: asked[0]!.requestId, decision: 'allow', by: 'approve-flag' })
      ])
      expect(readFileSync(join(workspace, 'src', 'wordfreq.js'), 'utf8')).toContain(
        'entries.sort((a, b) => b.count - a.count'
      )
      expect(ofType(run.events, 'assistant_text').at(-1)!.text).toMatch(/^Done\./)
      expect(run.events.at(-1)).toMatchObject({ type: 'run_finished', status: 'ok' })
    } finally {
      rmSync(workspace, { recursive: true, force: true })
    }
  })

  it('prints a readable stream for a person', async () => {
    const run = await runCli(['demo', '--headless'], { env: { SWARMDESK_HOME: home } })
    expect(run.code).toBe(0)
    const workspace = /Demo workspace: (\S+)/.exec(run.stdout)![1]!
    try {
      expect(run.stdout).toContain('scripted model')
      expect(run.stdout).toContain('● Bash(npm test)')
      expect(run.stdout).toContain('? Permission needed: Edit(')
      expect(run.stdout).toContain('✓ allowed by approve-flag')
      expect(run.stdout).toMatch(/✔ Run finished/)
      expect(run.stdout).not.toContain('\x1b[')
      // the throwaway copy under the temp folder is removed when the demo ends
      expect(existsSync(workspace)).toBe(false)
    } finally {
      rmSync(workspace, { recursive: true, force: true })
    }
  })

  it.each(['SIGINT', 'SIGTERM'] as const)('removes the demo workspace when stopped by %s mid-run', async (signal) => {
    const child = startCli(['demo', '--headless'], { env: { SWARMDESK_HOME: home } })
    child.stdin!.end()
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve))
    let workspace: string | undefined
    try {
      for await (const line of createInterface({ input: child.stdout! })) {
        workspace ??= /^Demo workspace: (\S+)$/.exec(line)?.[1]
        // stop it while the leader is at work, after its first tool call
        if (workspace && line.includes('●')) break
      }
      expect(workspace).toBeDefined()
      expect(existsSync(workspace!)).toBe(true)
      child.kill(signal)
      expect(await exited).not.toBeNull()
      expect(existsSync(workspace!)).toBe(false)
    } finally {
      child.kill('SIGKILL')
      if (workspace) rmSync(workspace, { recursive: true, force: true })
    }
  })
})
