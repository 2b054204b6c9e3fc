import { spawnSync } from 'node:child_process'
import { mkdtemp, readFile, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { sandboxDefaults } from '../permissions'
import { blockedWrites, isExcludedCommand, sandboxAvailability, sandboxedCommand } from './bwrap'
import { sandboxRoute } from './route'

const run = (cmd: string) => spawnSync('bash', ['-c', cmd], { encoding: 'utf8' })

describe('the bubblewrap sandbox', () => {
  it.runIf(sandboxAvailability().ok)(
    'confines writes (children too) to the root and the temp folder, names the blocked path, keeps the network off',
    async () => {
      const base = await mkdtemp(path.join(os.tmpdir(), 'sbx-'))
      const root = await mkdtemp(path.join(base, 'root-'))
      const tmpDir = await mkdtemp(path.join(base, 'tmp-'))
      const outside = await mkdtemp(path.join(base, 'out-'))
      const secret = path.join(root, 'secret.txt')
      await writeFile(secret, 'hidden')
      const settings = sandboxDefaults()
      settings.filesystem.denyRead.push(secret)
      const scope = { root, tmpDir, settings }
      const inside = run(
        sandboxedCommand(`echo ok > in.txt && echo t > "$TMPDIR/t" && bash -c 'echo child > child.txt'`, scope)
      )
      expect(inside.status).toBe(0)
      expect(await readFile(path.join(root, 'child.txt'), 'utf8')).toBe('child\n')
      const out = run(sandboxedCommand(`bash -c 'touch ${outside}/x.txt'`, scope))
      expect(out.status).not.toBe(0)
      expect(blockedWrites(out.stderr)).toEqual([`${outside}/x.txt`])
      expect(run(sandboxedCommand('cat secret.txt', scope)).stdout).toBe('')
      expect(run(sandboxedCommand('echo > /dev/tcp/127.0.0.1/9 || echo blocked', scope)).stdout).toContain('blocked')
    }
  )

  it('matches excluded commands by whole words', () => {
    expect(isExcludedCommand('docker ps -a', ['docker'])).toBe(true)
    expect(isExcludedCommand('dockerd', ['docker'])).toBe(false)
    expect(isExcludedCommand('git push origin', ['git push:*'])).toBe(true)
  })
})

describe('where the sandbox cannot start', () => {
  it('names a missing bwrap and how to install it, and routes commands outside (never auto-allowed)', async () => {
    const empty = await mkdtemp(path.join(os.tmpdir(), 'sbx-nobwrap-'))
    const missing = sandboxAvailability(empty)
    expect(missing.ok).toBe(false)
    expect(missing.problem).toMatch(/bwrap\) is not installed .*apt-get install bubblewrap/)
    const settings = sandboxDefaults()
    settings.enabled = true
    expect(sandboxRoute('true', settings, false, empty)).toEqual({ kind: 'unavailable', problem: missing.problem })
    expect(sandboxRoute('true', sandboxDefaults(), false, empty)).toEqual({ kind: 'off' })
  })
})
