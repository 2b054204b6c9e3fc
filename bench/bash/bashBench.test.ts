import { mkdtempSync, realpathSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { measureBashSteps } from './steps'

describe('bash benchmark', () => {
  it('does the work it reports: every step of a Bash `true` was timed over the rounds asked for', async () => {
    const dir = realpathSync(mkdtempSync(join(tmpdir(), 'swarmdesk-bench-bash-test-')))
    try {
      const steps = await measureBashSteps(dir, join(dir, 'home'), 2)
      expect(steps.rounds).toBe(2)
      for (const name of [
        'childProcessMs',
        'ptyBareMs',
        'ptyToMarkerMs',
        'sweepMs',
        'procSnapshotMs',
        'ptyRunMs',
        'spareRunMs',
        'permissionMs',
        'permissionFirstMs',
        'formatMs',
        'bashToolMs'
      ] as const)
        expect(steps[name], name).toBeGreaterThan(0)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
