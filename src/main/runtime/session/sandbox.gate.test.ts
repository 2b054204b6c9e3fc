/**
 * The sandbox in the permission flow (docs/permissions.md#the-bash-sandbox): a sandboxed command
 * runs without asking (`autoAllowBashIfSandboxed`), `dangerouslyDisableSandbox` is its own
 * permission request (or ignored without `allowUnsandboxedCommands`), `excludedCommands` run
 * outside through the normal flow, `Edit(...)` allow rules widen where commands may write, and an
 * explicit ask rule still asks. The real Bash tool in a leader session, the scripted model over
 * HTTP, /usr/bin/bwrap.
 */
import { existsSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { EventOf } from '../../../shared/events'
import type { PermissionPromptRequest } from '../../../shared/permissions'
import { sandboxAvailability } from '../sandbox'
import { openTestSession } from './session.testkit'

const cleanups: Array<() => Promise<void> | void> = []
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c()
})

type Call = { command: string; dangerouslyDisableSandbox?: boolean }

/** Runs the leader's Bash `calls` in default mode with `settings` as the user's settings; `outside` is a folder outside the root. */
async function run(settings: (outside: string) => object, calls: (outside: string) => Call[]) {
  const outside = realpathSync(mkdtempSync(join(tmpdir(), 'swarmdesk-sandbox-out-')))
  const home = realpathSync(mkdtempSync(join(tmpdir(), 'swarmdesk-sandbox-home-')))
  writeFileSync(join(home, 'settings.json'), JSON.stringify(settings(outside)))
  const asked: PermissionPromptRequest[] = []
  const h = await openTestSession({
    home,
    subagents: false,
    prompter: {
      prompt: async (request) => {
        asked.push(request)
        return { decision: 'allow', by: 'user' }
      }
    },
    scenario: {
      agents: { 'team-lead': [{ tools: calls(outside).map((input) => ({ name: 'Bash', input })) }, { text: 'Done.' }] }
    }
  })
  cleanups.push(async () => {
    await h.close()
    rmSync(outside, { recursive: true, force: true })
    rmSync(home, { recursive: true, force: true })
  })
  await h.session.prompt('go')
  const resultEvents = h.events.filter((e): e is EventOf<'tool_result'> => e.type === 'tool_result')
  const results = resultEvents.map((e) => e.output)
  // each command's result event says how it ran (docs/sandbox.md#the-pane-mark)
  const marks = resultEvents.map((e) => e.sandbox)
  return { outside, asked, results, marks, has: (name: string) => existsSync(join(outside, name)) }
}

describe.runIf(sandboxAvailability().ok)('the sandbox in the permission flow', () => {
  it('runs a sandboxed command without asking, and asks before a dangerouslyDisableSandbox run outside', async () => {
    const r = await run(
      () => ({ sandbox: { enabled: true } }),
      (out) => [{ command: `touch ${out}/a.txt` }, { command: `touch ${out}/b.txt`, dangerouslyDisableSandbox: true }]
    )
    expect(r.has('a.txt')).toBe(false)
    expect(r.results[0]).toContain(`Sandbox blocked a write to ${r.outside}/a.txt`)
    expect(r.results[0]).toContain('dangerouslyDisableSandbox: true')
    expect(r.asked).toHaveLength(1)
    expect(r.asked[0]!.reason).toContain('outside the sandbox')
    expect(r.asked[0]!.suggestions).toEqual([])
    // the card says how it would run
    expect(r.asked[0]!.sandbox).toBe('unsandboxed')
    expect(r.has('b.txt')).toBe(true)
    expect(r.results[1]).toContain('Ran outside the sandbox')
    expect(r.marks).toEqual(['sandboxed', 'unsandboxed'])
  }, 60_000)

  it('asks for the same command with the sandbox off', async () => {
    const r = await run(
      () => ({}),
      (out) => [{ command: `touch ${out}/a.txt` }]
    )
    expect(r.asked).toHaveLength(1)
    expect(r.asked[0]!.sandbox).toBeUndefined()
    expect(r.has('a.txt')).toBe(true)
    expect(r.marks).toEqual([undefined])
  }, 60_000)

  it('ignores dangerouslyDisableSandbox when allowUnsandboxedCommands is false', async () => {
    const r = await run(
      () => ({ sandbox: { enabled: true, allowUnsandboxedCommands: false } }),
      (out) => [{ command: `touch ${out}/b.txt`, dangerouslyDisableSandbox: true }]
    )
    expect(r.asked).toHaveLength(0)
    expect(r.has('b.txt')).toBe(false)
    expect(r.results[0]).toContain('dangerouslyDisableSandbox was ignored')
    expect(r.results[0]).not.toContain('dangerouslyDisableSandbox: true')
    expect(r.marks).toEqual(['sandboxed'])
  }, 60_000)

  it('runs excludedCommands outside through the normal permission flow, and an ask rule still asks', async () => {
    const r = await run(
      () => ({ permissions: { ask: ['Bash(mkdir:*)'] }, sandbox: { enabled: true, excludedCommands: ['touch'] } }),
      (out) => [{ command: `touch ${out}/c.txt` }, { command: 'mkdir inside' }]
    )
    expect(r.asked.map((a) => (a.input as Call).command)).toEqual([`touch ${r.outside}/c.txt`, 'mkdir inside'])
    expect(r.asked.map((a) => a.sandbox)).toEqual(['excluded', 'sandboxed'])
    expect(r.has('c.txt')).toBe(true)
    expect(r.results[0]).toContain('excludedCommands')
    expect(r.marks).toEqual(['excluded', 'sandboxed'])
  }, 60_000)

  it('keeps a deny rule: a sandboxed command it names is refused, not auto-allowed', async () => {
    const r = await run(
      () => ({ permissions: { deny: ['Bash(touch:*)'] }, sandbox: { enabled: true } }),
      () => [{ command: 'touch inside.txt' }]
    )
    expect(r.asked).toHaveLength(0)
    expect(r.results[0]).toMatch(/^Permission denied for Bash/)
    // refused before it ran: no mark
    expect(r.marks).toEqual([undefined])
  }, 60_000)

  it('lets an Edit(...) allow rule widen where sandboxed commands may write', async () => {
    const r = await run(
      (out) => ({ permissions: { allow: [`Edit(/${out}/**)`] }, sandbox: { enabled: true } }),
      (out) => [{ command: `touch ${out}/d.txt` }]
    )
    expect(r.has('d.txt')).toBe(true)
    expect(r.results[0]).not.toContain('Sandbox blocked')
  }, 60_000)
})
