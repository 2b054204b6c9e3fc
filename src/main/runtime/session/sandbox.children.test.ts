/**
 * Confinement follows the process tree (docs/sandbox.md#what-is-confined): the children and
 * grandchildren of a sandboxed command are confined as it is, background ones too, and the
 * children of an `excludedCommands` command run outside as it does. The real Bash tool in a
 * leader session, the scripted model over HTTP, real PTYs, /usr/bin/bwrap.
 */
import { existsSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { EventOf } from '../../../shared/events'
import { sandboxAvailability } from '../sandbox'
import { openTestSession } from './session.testkit'

describe.runIf(sandboxAvailability().ok)('the children of a command', () => {
  it('of a sandboxed command stay sandboxed; of an excluded command run outside', async () => {
    const out = realpathSync(mkdtempSync(join(tmpdir(), 'swarmdesk-sandbox-children-')))
    const home = realpathSync(mkdtempSync(join(tmpdir(), 'swarmdesk-sandbox-home-')))
    writeFileSync(join(home, 'settings.json'), JSON.stringify({ sandbox: { enabled: true, excludedCommands: ['sh'] } }))
    const commands = [
      // excluded by its first word: it and everything it starts run outside
      `sh -c 'bash -c "touch ${out}/excluded-grandchild.txt"; touch ${out}/excluded-child.txt'`,
      // sandboxed: a child, a grandchild through an excluded command's name, and a background job
      `bash -c 'touch ${out}/child.txt'; bash -c 'sh -c "touch ${out}/grandchild.txt"'; (touch ${out}/background.txt) & wait; echo confined`
    ]
    const h = await openTestSession({
      home,
      subagents: false,
      scenario: {
        agents: {
          'team-lead': [{ tools: commands.map((command) => ({ name: 'Bash', input: { command } })) }, { text: 'Done.' }]
        }
      }
    })
    try {
      await h.session.prompt('go')
      const results = h.events.filter((e): e is EventOf<'tool_result'> => e.type === 'tool_result').map((e) => e.output)
      expect(results[0]).toContain('Ran outside the sandbox (excludedCommands)')
      expect(existsSync(join(out, 'excluded-child.txt'))).toBe(true)
      expect(existsSync(join(out, 'excluded-grandchild.txt'))).toBe(true)
      expect(results[1]).toContain('confined')
      for (const name of ['child.txt', 'grandchild.txt', 'background.txt']) {
        expect(existsSync(join(out, name)), name).toBe(false)
        expect(results[1], name).toContain(`Sandbox blocked a write to ${out}/${name}`)
      }
    } finally {
      await h.close()
      rmSync(out, { recursive: true, force: true })
      rmSync(home, { recursive: true, force: true })
    }
  }, 60_000)
})
