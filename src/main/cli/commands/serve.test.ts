import { execFileSync } from 'node:child_process'
import { mkdtempSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { runCli, startCli } from '../cli.testkit'

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

/** Starts serve, reads its URL line, and returns the port, token and a stop that resolves the exit code. */
async function serveOnce(
  args: string[],
  home: string
): Promise<{ port: number; token: string; stderr: () => string; stop: () => Promise<number | null> }> {
  const child = startCli(['serve', ...args], { env: { SWARMDESK_HOME: home } })
  let stderr = ''
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()))
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve))
  for await (const line of createInterface({ input: child.stdout! })) {
    const url = /^SWARMDESK_URL http:\/\/127\.0\.0\.1:(\d+)\/\?token=([0-9a-f]{64})$/.exec(line)
    if (url) {
      child.stdout!.resume()
      return { port: Number(url[1]), token: url[2]!, stderr: () => stderr, stop: () => (child.kill('SIGTERM'), exited) }
    }
  }
  throw new Error(`serve printed no URL; stderr: ${stderr}`)
}

describe('swarmdesk serve across restarts', () => {
  it("listens where the workspace was served last, with the data directory's token, so an open tab reconnects", async () => {
    const home = join(root, 'home')
    const first = await serveOnce(['--cwd', repo, '--scenario', scenario], home)
    expect(await first.stop()).toBe(0)
    // the token file is the owner's alone
    expect(statSync(join(home, 'web-host-token')).mode & 0o777).toBe(0o600)
    const second = await serveOnce(['--cwd', repo, '--scenario', scenario], home)
    expect({ port: second.port, token: second.token }).toEqual({ port: first.port, token: first.token })
    expect(second.stderr()).toBe('')
    expect(await second.stop()).toBe(0)
  })

  it('takes a free port when the remembered one is taken, and --port 0 neither reuses nor records one', async () => {
    const home = join(root, 'home')
    const first = await serveOnce(['--cwd', repo, '--scenario', scenario], home)
    await first.stop()
    const squatter = createServer()
    await new Promise<void>((resolve) => squatter.listen(first.port, '127.0.0.1', resolve))
    try {
      const moved = await serveOnce(['--cwd', repo, '--scenario', scenario], home)
      expect(moved.port).not.toBe(first.port)
      expect(moved.token).toBe(first.token)
      expect(moved.stderr()).toContain(`port ${first.port}, where this workspace was served last, is taken`)
      await moved.stop()
      // the next start without --port goes where it moved to
      const again = await serveOnce(['--cwd', repo, '--scenario', scenario], home)
      expect(again.port).toBe(moved.port)
      await again.stop()
      const random = await serveOnce(['--cwd', repo, '--scenario', scenario, '--port', '0'], home)
      expect(random.port).not.toBe(moved.port)
      await random.stop()
      const after = await serveOnce(['--cwd', repo, '--scenario', scenario], home)
      expect(after.port).toBe(moved.port)
      await after.stop()
    } finally {
      squatter.close()
    }
  })
})

describe('swarmdesk serve', () => {
  it('prints SWARMDESK_URL with a token, refuses requests without it, and exits 0 on SIGTERM', async () => {
    const child = startCli(['serve', '--cwd', repo, '--scenario', scenario, '--port', '0'], {
      env: { SWARMDESK_HOME: join(root, 'home') }
    })
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
    const badPort = await runCli(['serve', '--cwd', repo, '--port', 'eighty'], {
      env: { SWARMDESK_HOME: join(root, 'home') }
    })
    expect(badPort.code).toBe(2)
    expect(badPort.stderr).toContain('--port must be an integer')
    const missing = await runCli(['serve', '--cwd', join(root, 'nope'), '--scenario', scenario], {
      env: { SWARMDESK_HOME: join(root, 'home') }
    })
    expect(missing.code).toBe(2)
    expect(missing.stderr).toContain('does not exist')
    const badMode = await runCli(['serve', '--cwd', repo, '--scenario', scenario, '--permission-mode', 'bubble'], {
      env: { SWARMDESK_HOME: join(root, 'home') }
    })
    expect(badMode.code).toBe(2)
    expect(badMode.stderr).toContain('--permission-mode')
    expect(badPort.stdout + missing.stdout + badMode.stdout).not.toContain('SWARMDESK_URL')
  })
})
