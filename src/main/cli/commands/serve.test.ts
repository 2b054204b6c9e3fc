import { execFileSync } from 'node:child_process'
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { runCli, startCli } from '../testing'

let root: string
let repo: string
let scenario: string
beforeEach(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'swarmdesk-serve-')))
  repo = join(root, 'repo')
  execFileSync('git', ['init', '-q', repo])
  scenario = join(root, 'scenario.json')
  writeFileSync(scenario, JSON.stringify({ agents: { 'team-lead': [{ text: 'hello' }] } }))
})
afterEach(() => rmSync(root, { recursive: true, force: true }))

describe('swarmdesk serve', () => {
  it('prints SWARMDESK_URL with a token, refuses requests without it, and exits 0 on SIGTERM', async () => {
    const child = startCli(['serve', '--cwd', repo, '--scenario', scenario, '--port', '0'], { env: { SWARMDESK_HOME: join(root, 'home') } })
    let stderr = ''
    child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()))
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve))
    const lines: string[] = []
    for await (const line of createInterface({ input: child.stdout! })) {
      lines.push(line)
      if (line.startsWith('SWARMDESK_URL ')) break
    }
    const url = /^SWARMDESK_URL (http:\/\/127\.0\.0\.1:(\d+)\/\?token=([0-9a-f]{64}))$/.exec(lines.at(-1) ?? '')
    expect(url, `stdout: ${lines.join('\n')}\nstderr: ${stderr}`).not.toBeNull()
    expect(lines.every((l) => /^(SCRIPTED_MODEL_URL|SWARMDESK_URL) http:\/\/127\.0\.0\.1:\d+/.test(l))).toBe(true)

    const origin = `http://127.0.0.1:${url![2]}`
    expect((await fetch(`${origin}/`)).status).toBe(401)
    // 200 with the built renderer, 503 (asking for `npm run build`) before the first build.
    const page = await fetch(url![1])
    expect([200, 503]).toContain(page.status)
    if (page.status === 503) expect(await page.text()).toContain('npm run build')

    child.kill('SIGTERM')
    expect(await exited).toBe(0)
    expect(stderr).toBe('')
  })

  it('exits 2 with a message naming the problem for bad input', async () => {
    const badPort = await runCli(['serve', '--cwd', repo, '--port', 'eighty'], { env: { SWARMDESK_HOME: join(root, 'home') } })
    expect(badPort.code).toBe(2)
    expect(badPort.stderr).toContain('--port must be an integer')
    const missing = await runCli(['serve', '--cwd', join(root, 'nope'), '--scenario', scenario], { env: { SWARMDESK_HOME: join(root, 'home') } })
    expect(missing.code).toBe(2)
    expect(missing.stderr).toContain('does not exist')
    const badMode = await runCli(['serve', '--cwd', repo, '--scenario', scenario, '--permission-mode', 'bubble'], { env: { SWARMDESK_HOME: join(root, 'home') } })
    expect(badMode.code).toBe(2)
    expect(badMode.stderr).toContain('--permission-mode')
    expect(badPort.stdout + missing.stdout + badMode.stdout).not.toContain('SWARMDESK_URL')
  })
})
