import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  writeFileSync
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { EventOf } from '../../shared/events'
import { legacyWorkspaceKey } from '../runtime/storage/workspaceKey'
import { workspaceSlug } from '../runtime/storage/paths'
import { runCli } from './cli.testkit'

// Issue 29, "Two folders never share a session store", through the command line: folders whose
// names differ only in punctuation or in non-ASCII letters keep their own sessions, and sessions
// an earlier version stored under the old shared folder are found again by their own folder only.

let base: string
let home: string
beforeEach(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), 'swarmdesk-stores-')))
  home = join(base, 'home')
  writeFileSync(
    join(base, 's.yaml'),
    'agents:\n  team-lead:\n    - text: "first answer"\n    - text: "second answer"\n'
  )
})
afterEach(() => rmSync(base, { recursive: true, force: true }))

function folder(name: string): string {
  const dir = join(base, name)
  mkdirSync(dir)
  return dir
}

async function run(
  cwd: string,
  ...extra: string[]
): Promise<{ code: number | null; stderr: string; sessionId: string | undefined }> {
  const r = await runCli(['run', '--cwd', cwd, '--scenario', join(base, 's.yaml'), '--json', ...extra], {
    env: { SWARMDESK_HOME: home }
  })
  const finished = r.events.at(-1) as EventOf<'run_finished'> | undefined
  return { code: r.code, stderr: r.stderr, sessionId: finished?.sessionId }
}

async function sessionIds(cwd: string): Promise<string[]> {
  const r = await runCli(['sessions', 'list', '--cwd', cwd, '--json'], { env: { SWARMDESK_HOME: home } })
  expect(r.code).toBe(0)
  return (JSON.parse(r.stdout) as Array<{ sessionId: string }>).map((s) => s.sessionId).sort()
}

describe.each([
  ['a.b', 'a-b'],
  ['проект', 'объект']
])('folders %s and %s', (first, second) => {
  it('never list, resume or write into each other’s sessions', async () => {
    const [a, b] = [folder(first), folder(second)]
    expect(legacyWorkspaceKey(a)).toBe(legacyWorkspaceKey(b)) // the old key mixed them up
    const made = await run(a, 'hello')
    expect(made.code).toBe(0)
    expect(await sessionIds(a)).toEqual([made.sessionId])
    expect(await sessionIds(b)).toEqual([])
    const stolen = await run(b, '--resume', made.sessionId!, 'carry on')
    expect(stolen.code).toBe(2)
    expect(stolen.stderr).toContain(`No session ${made.sessionId} for workspace ${b}`)
  }, 60_000)
})

describe('sessions stored by an earlier version under the old key', () => {
  it('are found again by their own folder, resumed with their whole conversation, and never by the other folder', async () => {
    const [a, b] = [folder('проект'), folder('объект')]
    const inA = await run(a, 'hello from a')
    const inB = await run(b, 'hello from b')
    expect([inA.code, inB.code]).toEqual([0, 0])
    // lay the two sessions out as an earlier version did: one folder for both, named by the old key
    const old = join(home, 'projects', legacyWorkspaceKey(a))
    mkdirSync(old)
    for (const [cwd, id] of [
      [a, inA.sessionId!],
      [b, inB.sessionId!]
    ] as const) {
      renameSync(join(home, 'projects', workspaceSlug(cwd), id), join(old, id))
      rmSync(join(home, 'projects', workspaceSlug(cwd)), { recursive: true })
    }
    writeFileSync(
      join(old, 'last-session.json'),
      JSON.stringify({ schemaVersion: 1, sessionId: inA.sessionId, updatedAt: new Date().toISOString() })
    )
    const transcriptA = readFileSync(join(old, inA.sessionId!, 'transcript.jsonl'), 'utf8')

    expect(await sessionIds(a)).toEqual([inA.sessionId])
    expect(readFileSync(join(home, 'projects', workspaceSlug(a), 'last-session.json'), 'utf8')).toContain(
      inA.sessionId!
    )
    const stolen = await run(b, '--resume', inA.sessionId!, 'carry on')
    expect(stolen.code).toBe(2)
    expect(await sessionIds(b)).toEqual([inB.sessionId])
    // every session has left the old folder, which is gone
    expect(readdirSync(join(home, 'projects')).sort()).toEqual([workspaceSlug(a), workspaceSlug(b)].sort())

    const resumed = await run(a, '--resume', inA.sessionId!, 'carry on')
    expect(resumed.stderr).toBe('')
    expect(resumed.code).toBe(0)
    const after = readFileSync(join(home, 'projects', workspaceSlug(a), inA.sessionId!, 'transcript.jsonl'), 'utf8')
    expect(after.startsWith(transcriptA)).toBe(true)
    expect(after).toContain('carry on')
  }, 90_000)
})
