import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { readLastSession } from '../../app/restore/stateFile'
import { canonicalFolder, legacyWorkspaceKey, READABLE_KEY_CHARS, workspaceKey } from './workspaceKey'
import { adoptLegacyStore, LAST_SESSION_FILE } from './workspaceStore'

// Issue 29, "Two folders never share a session store": the per-workspace key is injective, and a
// store an earlier version kept under the old (colliding) key is adopted by its own folder only.

let base: string
let home: string
beforeEach(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), 'swarmdesk-store-')))
  home = join(base, 'home')
})
afterEach(() => rmSync(base, { recursive: true, force: true }))

/** Folders whose old keys collide: punctuation, and non-ASCII letters of the same count. */
const COLLIDING = [
  ['/w/a.b', '/w/a-b', '/w/a b', '/w/a_b'],
  ['/w/проект', '/w/объект', '/w/项目工作区域', '/w/🚀🚀🚀']
]

/** A session folder as Session.open leaves it, under `<home>/projects/<key>`, with a transcript. */
function session(key: string, sessionId: string, cwd: string, lines = 3): string {
  const dir = join(home, 'projects', key, sessionId)
  mkdirSync(join(dir, 'agents'), { recursive: true })
  writeFileSync(
    join(dir, 'session.json'),
    JSON.stringify({
      schemaVersion: 1,
      sessionId,
      cwd,
      model: 'claude-sonnet-5-5',
      createdAt: '2026-01-01T00:00:00.000Z'
    })
  )
  writeFileSync(
    join(dir, 'transcript.jsonl'),
    Array.from({ length: lines }, (_, i) => JSON.stringify({ line: i, sessionId }) + '\n').join('')
  )
  writeFileSync(join(dir, 'agents', 'alice@crew.jsonl'), `{"of":"${sessionId}"}\n`)
  return dir
}

function lastSession(key: string, sessionId: string, updatedAt: string): void {
  mkdirSync(join(home, 'projects', key), { recursive: true })
  writeFileSync(
    join(home, 'projects', key, LAST_SESSION_FILE),
    JSON.stringify({ schemaVersion: 1, sessionId, updatedAt })
  )
}

const sessionsOf = (cwd: string): string[] => {
  try {
    return readdirSync(join(home, 'projects', workspaceKey(cwd)))
      .filter((n) => n !== LAST_SESSION_FILE)
      .sort()
  } catch {
    return []
  }
}

describe('workspaceKey', () => {
  it.each(COLLIDING)('gives folders that collided under the old key different keys (%s …)', (...folders) => {
    expect(new Set(folders.map(legacyWorkspaceKey)).size).toBe(1)
    expect(new Set(folders.map(workspaceKey)).size).toBe(folders.length)
  })

  it('is readable, stable, the same through a symbolic link, and short however deep the folder', () => {
    const real = join(base, 'My Project')
    mkdirSync(real)
    symlinkSync(real, join(base, 'link'))
    expect(workspaceKey(join(base, 'link'))).toBe(workspaceKey(real))
    expect(workspaceKey(real)).toBe(workspaceKey(real + '/'))
    expect(workspaceKey(real)).toMatch(/-My-Project_[0-9a-f]{12}$/)
    const deep = '/' + Array.from({ length: 60 }, (_, i) => `level${i}`).join('/')
    expect(workspaceKey(deep).length).toBeLessThanOrEqual(READABLE_KEY_CHARS + 13)
    expect(workspaceKey(deep)).toContain('level59_')
  })
})

describe('adopting a store kept under the old key', () => {
  it('moves each session to the folder its session.json names and never to another; the old folder goes once empty', () => {
    const [a, b] = ['/w/проект', '/w/объект']
    const old = legacyWorkspaceKey(a)
    session(old, 's-a1', a)
    session(old, 's-a2', a)
    session(old, 's-b1', b)
    const before = readFileSync(join(home, 'projects', old, 's-a1', 'transcript.jsonl'), 'utf8')
    expect(adoptLegacyStore(home, a)).toEqual([])
    expect(sessionsOf(a)).toEqual(['s-a1', 's-a2'])
    expect(sessionsOf(b)).toEqual([])
    expect(readdirSync(join(home, 'projects', old))).toEqual(['s-b1'])
    // every file came along, byte for byte
    expect(readFileSync(join(home, 'projects', workspaceKey(a), 's-a1', 'transcript.jsonl'), 'utf8')).toBe(before)
    expect(readFileSync(join(home, 'projects', workspaceKey(a), 's-a1', 'agents', 'alice@crew.jsonl'), 'utf8')).toBe(
      '{"of":"s-a1"}\n'
    )
    expect(adoptLegacyStore(home, b)).toEqual([])
    expect(sessionsOf(b)).toEqual(['s-b1'])
    expect(readdirSync(join(home, 'projects')).sort()).toEqual([workspaceKey(a), workspaceKey(b)].sort())
  })

  it('carries last-session.json only to the folder whose session it names, keeping the newer one', () => {
    const [a, b] = ['/w/a.b', '/w/a-b']
    const old = legacyWorkspaceKey(a)
    session(old, 's-a', a)
    session(old, 's-b', b)
    lastSession(old, 's-b', '2026-02-01T00:00:00.000Z')
    adoptLegacyStore(home, a)
    expect(readLastSession(home, a)).toBeUndefined() // it named b's session: left for b
    expect(readFileSync(join(home, 'projects', old, LAST_SESSION_FILE), 'utf8')).toContain('s-b')
    session(workspaceKey(b), 's-b-new', b)
    lastSession(workspaceKey(b), 's-b-new', '2026-01-01T00:00:00.000Z')
    adoptLegacyStore(home, b)
    expect(readLastSession(home, b)).toBe('s-b') // the old one was written later
    expect(readdirSync(join(home, 'projects')).sort()).toEqual([workspaceKey(a), workspaceKey(b)].sort())
  })

  it('picks up where a crash left it, and two processes adopting at once lose nothing', () => {
    const a = '/w/a.b'
    const old = legacyWorkspaceKey(a)
    for (let i = 0; i < 20; i++) session(old, `s-${i}`, a)
    lastSession(old, 's-3', '2026-01-01T00:00:00.000Z')
    // a crash after the first few moves and after last-session.json was written in its new place
    mkdirSync(join(home, 'projects', workspaceKey(a)), { recursive: true })
    for (const id of ['s-0', 's-1', 's-3']) session(workspaceKey(a), id, a)
    for (const id of ['s-0', 's-1', 's-3']) rmSync(join(home, 'projects', old, id), { recursive: true })
    lastSession(workspaceKey(a), 's-3', '2026-01-01T00:00:00.000Z')
    // two adopters at once see the same listing; each rename happens once
    expect([...adoptLegacyStore(home, a), ...adoptLegacyStore(home, a)]).toEqual([])
    expect(sessionsOf(a)).toEqual(Array.from({ length: 20 }, (_, i) => `s-${i}`).sort())
    for (const id of sessionsOf(a))
      expect(readFileSync(join(home, 'projects', workspaceKey(a), id, 'transcript.jsonl'), 'utf8')).toContain(
        `"sessionId":"${id}"`
      )
    expect(readLastSession(home, a)).toBe('s-3')
    expect(readdirSync(join(home, 'projects'))).toEqual([workspaceKey(a)])
  })

  it('leaves what it cannot attribute or cannot move where it is, and says why', () => {
    const a = '/w/a.b'
    const old = legacyWorkspaceKey(a)
    // no session.json: whose it is cannot be told
    mkdirSync(join(home, 'projects', old, 'orphan', 'agents'), { recursive: true })
    writeFileSync(join(home, 'projects', old, 'orphan', 'agents', 'x.jsonl'), 'kept\n')
    // the same session id already in the new folder: never replaced
    session(old, 's-dup', a, 5)
    session(workspaceKey(a), 's-dup', a, 1)
    const problems = adoptLegacyStore(home, a)
    expect(problems).toHaveLength(1)
    expect(problems[0]).toMatch(
      /Session s-dup of \/w\/a\.b could not move .* \((ENOTEMPTY|EEXIST)\); it stays where it is/
    )
    expect(readFileSync(join(home, 'projects', old, 'orphan', 'agents', 'x.jsonl'), 'utf8')).toBe('kept\n')
    expect(readFileSync(join(home, 'projects', old, 's-dup', 'transcript.jsonl'), 'utf8').split('\n')).toHaveLength(6)
    expect(
      readFileSync(join(home, 'projects', workspaceKey(a), 's-dup', 'transcript.jsonl'), 'utf8').split('\n')
    ).toHaveLength(2)
  })

  it('treats a folder that no longer exists by its absolute path', () => {
    expect(canonicalFolder('/no/such/folder/../here')).toBe('/no/such/here')
  })
})
