import path from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { resolveToolSubject } from '../../cli/toolSubjects'
import { fill, fillInput, type BypassFixture } from './bypassFixture.testkit'
import type { BypassCase } from './bypassCases.testkit'
import { PermissionEngine } from './engine'
import { loadPermissionSettings, type LoadedSettings } from './settings'
import {
  makeSideEffectFixture,
  SIDE_EFFECT_CLASSES,
  SIDE_EFFECT_EXTRA,
  SIDE_EFFECT_MATRIX
} from './sideEffectsCases.testkit'
import { makeWorkspace } from './workspace.testkit'

/**
 * The side-effect suite through the API (docs/permissions.md#permissions: an allow rule covers the command, not its side
 * effects); the same table runs through the CLI in cli/commands/permissionsCheck.sideEffects.test.ts.
 */
let fx: BypassFixture
let settings: LoadedSettings

beforeAll(async () => {
  fx = await makeSideEffectFixture()
  settings = await loadPermissionSettings({
    cwd: fx.ws,
    home: fx.home,
    userHome: fx.userHome,
    extraSettingsFiles: [fx.sessionSettings]
  })
})

async function decideCase(c: BypassCase) {
  const subject = resolveToolSubject(c.tool, fillInput(c.input, fx), fx.ws)
  return new PermissionEngine(settings).decide(subject, { cwd: fx.ws, mode: c.mode ?? 'default', tool: c.tool })
}

const named = (c: BypassCase): string =>
  `${c.tool} ${JSON.stringify(c.input)} [${c.mode ?? 'default'}] → ${c.expect} (${c.why})`

describe('an allow rule covers the command, not the files it writes (API)', () => {
  it('has a class for every command the engine knows writes, each allowed by its own rule', () => {
    expect(SIDE_EFFECT_CLASSES.length).toBeGreaterThanOrEqual(80)
    expect(SIDE_EFFECT_MATRIX).toHaveLength(SIDE_EFFECT_CLASSES.length * 8)
  })

  it.each([...SIDE_EFFECT_MATRIX, ...SIDE_EFFECT_EXTRA].map((c) => [named(c), c] as const))('%s', async (_name, c) => {
    const d = await decideCase(c)
    expect({ decision: d.decision, reason: d.reason }).toEqual({ decision: c.expect, reason: expect.any(String) })
    if (c.reason) expect(d.reason).toContain(fill(c.reason, fx))
  })
})

describe('a recursive write that reaches a protected directory asks (API)', () => {
  it.each([
    ['rm -rf .', 'ask'],
    ['rm -r ./', 'ask'],
    ['find . -name "*.o" -delete', 'ask'],
    ['find . -exec rm {} +', 'ask'],
    ['chmod -R 777 .', 'ask'],
    ['chown -R nobody .', 'ask'],
    ['rsync -a --delete src/ ./', 'ask'],
    ['rm -rf src', 'allow'],
    ['find src -delete', 'allow'],
    ['chmod -R u+w src', 'allow']
  ] as const)('%s in acceptEdits → %s', async (command, expected) => {
    const t = await makeWorkspace()
    const file = await t.writeSettings(path.join(t.base, 'rules.json'), {
      permissions: { allow: ['Bash(rm:*)', 'Bash(find:*)', 'Bash(chmod:*)', 'Bash(chown:*)', 'Bash(rsync:*)'] }
    })
    const d = await t.decide({ kind: 'bash', command }, 'acceptEdits', { extraSettingsFiles: [file] })
    expect(d.decision, d.reason).toBe(expected)
    if (expected === 'ask') expect(d.reason).toContain('.git/ is protected')
  })
})
