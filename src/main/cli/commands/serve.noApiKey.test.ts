import { execFileSync } from 'node:child_process'
import { mkdtempSync, realpathSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { runCli, startCli } from '../cli.testkit'

/**
 * Issue 29 item 8, the command line: `serve` with neither ANTHROPIC_API_KEY nor `--scenario`
 * opens (its URL line, its page), while `run` still refuses to start without a key (exit 2).
 */

let root: string
let repo: string
beforeEach(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'swarmdesk-nokey-')))
  repo = join(root, 'repo')
  execFileSync('git', ['init', '-q', repo])
})
afterEach(() => rmSync(root, { recursive: true, force: true }))

const noKey = (): Record<string, string> => ({
  SWARMDESK_HOME: join(root, 'home'),
  ANTHROPIC_API_KEY: '',
  ANTHROPIC_BASE_URL: ''
})

describe('first run without an API key', () => {
  it('serve prints its SWARMDESK_URL line, serves the page, and exits 0 on SIGTERM', async () => {
    const child = startCli(['serve', '--cwd', repo, '--port', '0'], { env: noKey() })
    let stderr = ''
    child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()))
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve))
    let line = ''
    for await (const l of createInterface({ input: child.stdout! })) {
      line = l
      if (l.startsWith('SWARMDESK_URL ')) break
    }
    const url = /^SWARMDESK_URL (http:\/\/127\.0\.0\.1:\d+\/\?token=[0-9a-f]{64})$/.exec(line)
    expect(url, `stderr: ${stderr}`).not.toBeNull()
    expect([200, 503]).toContain((await fetch(url![1])).status)
    child.kill('SIGTERM')
    expect(await exited).toBe(0)
  }, 60_000)

  it('run still exits 2 naming the missing key', async () => {
    const run = await runCli(['run', '--cwd', repo, 'hello'], { env: noKey() })
    expect(run.code).toBe(2)
    expect(run.stderr).toMatch(/No API key: set ANTHROPIC_API_KEY/)
  })

  it('serve with a scenario file that is missing still exits 2', async () => {
    const run = await runCli(['serve', '--cwd', repo, '--port', '0', '--scenario', join(root, 'absent.yaml')], {
      env: noKey()
    })
    expect(run.code).toBe(2)
  })
})
