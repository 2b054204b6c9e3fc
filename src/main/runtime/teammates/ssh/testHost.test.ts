import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { startTestHost, stopAllTestHosts, testHostsUnavailable } from './testHost.testkit'

const unavailable = testHostsUnavailable()
if (unavailable) console.warn(`skipping the test host tests: ${unavailable}`)

describe.skipIf(unavailable !== undefined)('test hosts (network namespace + mount namespace + sshd)', () => {
  const leaderDir = mkdtempSync(join(tmpdir(), 'swarmdesk-leader-'))
  afterAll(async () => {
    await stopAllTestHosts()
    rmSync(leaderDir, { recursive: true, force: true })
  })

  it('is reached over ssh, hides the leader folders, and is cut off by bringing its veth down', async () => {
    const home = join(leaderDir, 'home')
    const repo = join(leaderDir, 'repo')
    mkdirSync(home)
    mkdirSync(repo)
    writeFileSync(join(home, 'secret.txt'), 'leader only')
    writeFileSync(join(repo, 'README.md'), 'leader repo')
    const host = await startTestHost({ hide: [home, repo] })
    try {
      const who = await host.ssh(`hostname -I; ls -A ${home} ${repo}; cat ${join(home, 'secret.txt')} || echo NOFILE`)
      expect(who.stderr).not.toMatch(/Permission denied|Host key verification failed/)
      expect(who.stdout).toContain(host.address)
      expect(who.stdout).not.toContain(host.leaderAddress)
      expect(who.stdout).toContain('NOFILE')
      expect(who.stdout).not.toContain('README.md')
      // the test's side still sees them
      expect(await import('node:fs').then((fs) => fs.readFileSync(join(home, 'secret.txt'), 'utf8'))).toBe(
        'leader only'
      )
      // its own workspace folder is writable there
      const ws = await host.ssh(`echo hi > ${host.workspaceRoot}/x && cat ${host.workspaceRoot}/x`)
      expect(ws.stdout.trim()).toBe('hi')

      host.cut()
      const cut = await host.ssh('true', 20_000)
      expect(cut.code).not.toBe(0)
      host.restore()
      const back = await host.ssh('echo back')
      expect(back.stdout.trim()).toBe('back')
      expect(host.leftovers()).toEqual([])
    } finally {
      const ns = host.ns
      await host.stop()
      const { execFileSync } = await import('node:child_process')
      expect(execFileSync('ip', ['netns', 'list'], { encoding: 'utf8' })).not.toContain(ns)
    }
  }, 90_000)
})
