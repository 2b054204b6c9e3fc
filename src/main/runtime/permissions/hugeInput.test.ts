/**
 * Model misbehaviour (issue 10): a tool input far larger than any real one — a multi-megabyte
 * path, command or chain of commands — is decided with a clear answer, without throwing out of
 * the engine and without resolving it piece by piece for minutes.
 */
import { symlinkSync } from 'node:fs'
import path from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { MAX_PATH_BYTES } from './paths'
import { makeWorkspace, type TestWorkspace } from './workspace.testkit'

describe('huge tool inputs', () => {
  let t: TestWorkspace
  beforeAll(async () => {
    t = await makeWorkspace()
  })

  it('refuses a path longer than PATH_MAX in every mode, naming the limit', async () => {
    for (const p of ['a/'.repeat(250_000) + 'x', 'b'.repeat(MAX_PATH_BYTES), '/' + 'c/'.repeat(3_000)]) {
      for (const mode of ['default', 'acceptEdits', 'bypassPermissions'] as const) {
        for (const kind of ['read', 'edit'] as const) {
          const d = await t.decide({ kind, path: p }, mode)
          expect(d.decision, `${kind} in ${mode}`).toBe('deny')
          expect(d.reason).toContain(`longer than the ${MAX_PATH_BYTES - 1} bytes a path may have`)
        }
      }
    }
  })

  it('still decides paths just under the limit', async () => {
    const p = 'src/' + 'd/'.repeat(1_000) + 'x.ts'
    expect(Buffer.byteLength(path.join(t.ws, p))).toBeLessThan(MAX_PATH_BYTES)
    expect((await t.decide({ kind: 'read', path: p }, 'default')).decision).toBe('allow')
    expect((await t.decide({ kind: 'edit', path: p }, 'acceptEdits')).decision).toBe('allow')
  })

  it('decides a multi-megabyte command and a 100,000-part chain without throwing', async () => {
    const echo = await t.decide({ kind: 'bash', command: `echo ${'a'.repeat(4_000_000)}` }, 'default')
    expect(echo.decision).toBe('allow')
    const chain = await t.decide(
      { kind: 'bash', command: Array.from({ length: 100_000 }, () => 'ls').join(' && ') + ' && rm -rf src' },
      'default'
    )
    expect(chain.decision).toBe('ask')
    const denied = await t.decide({ kind: 'bash', command: `cat ${'e/'.repeat(3_000)}f` }, 'bypassPermissions')
    expect(denied.decision).toBe('deny')
  })

  it('a cd into an unresolvable directory asks for the parts after it instead of throwing', async () => {
    symlinkSync('loop', path.join(t.ws, 'loop'))
    const d = await t.decide({ kind: 'bash', command: 'cd loop && ls' }, 'default')
    expect(d.decision).toBe('ask')
    const long = await t.decide({ kind: 'bash', command: `cd ${'g/'.repeat(3_000)} && ls` }, 'default')
    expect(long.decision).toBe('deny')
  })
})
