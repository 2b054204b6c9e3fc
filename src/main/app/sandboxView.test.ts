/**
 * The Settings view's sandbox status where the sandbox cannot start (docs/sandbox.md#where-the-sandbox-cannot-start):
 * with bwrap and socat missing from the search path, it says so and what to install. Real probes
 * of an empty folder as PATH.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { sandboxDefaults } from '../runtime/permissions'
import { sandboxStatusOf } from './sandboxView'

describe('the sandbox status with nothing installed', () => {
  it('names the missing bubblewrap and socat and how to install them; user namespaces cannot be told', () => {
    const empty = mkdtempSync(join(tmpdir(), 'swarmdesk-nothing-'))
    try {
      const sandbox = { ...sandboxDefaults(), enabled: true }
      const status = sandboxStatusOf(
        {
          sandbox,
          rules: { allow: [], ask: [], deny: [] },
          sources: [],
          additionalDirectories: [],
          userHome: empty,
          workspace: empty
        },
        empty
      )
      expect(status).toMatchObject({ enabled: true, active: false, network: 'none' })
      expect(status.problem).toMatch(/bwrap\) is not installed/)
      expect(status.requirements).toEqual([
        { name: 'bubblewrap', ok: false, detail: 'not installed: apt-get install bubblewrap (Debian, Ubuntu)' },
        { name: 'user namespaces', ok: null, detail: 'not checked until bubblewrap is installed' },
        { name: 'socat', ok: false, detail: 'not installed: sandboxed commands have no network; apt-get install socat' }
      ])
    } finally {
      rmSync(empty, { recursive: true, force: true })
    }
  })
})
