import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { ClaudeNotFoundError, findClaude } from './binary'
import { claudeConfigDir, readSessionRecord, stateOfStatus } from './record'
import { readSavedSessions, writeSavedSessions } from './saved'

/** The files Claude Code sessions are read from and saved in, and how claude is found (docs/claude-code.md). */
const dir = mkdtempSync(join(tmpdir(), 'swarmdesk-ccrec-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe('the session record', () => {
  it('maps Claude Code status words to dashboard states, and leaves an unknown word alone', () => {
    expect(stateOfStatus('busy')).toBe('running')
    expect(stateOfStatus('shell')).toBe('running')
    expect(stateOfStatus('waiting')).toBe('awaiting_permission')
    expect(stateOfStatus('idle')).toBe('idle')
    expect(stateOfStatus('pondering')).toBeUndefined()
    expect(stateOfStatus(undefined)).toBeUndefined()
  })

  it('reads CLAUDE_CONFIG_DIR, else ~/.claude', () => {
    expect(claudeConfigDir({ CLAUDE_CONFIG_DIR: '/x/cfg', HOME: '/h' })).toBe('/x/cfg')
    expect(claudeConfigDir({ HOME: '/h' })).toBe('/h/.claude')
  })

  it('reads a record, calls a missing or half-written one missing, and names a wrong-shaped one by path', async () => {
    const cfg = join(dir, 'cfg')
    mkdirSync(join(cfg, 'sessions'), { recursive: true })
    writeFileSync(
      join(cfg, 'sessions', '41.json'),
      JSON.stringify({ pid: 41, sessionId: 's-1', cwd: '/w', status: 'waiting', waitingFor: 'permission prompt', x: 1 })
    )
    writeFileSync(join(cfg, 'sessions', '42.json'), '{"pid": 42, "sessi')
    writeFileSync(join(cfg, 'sessions', '43.json'), JSON.stringify({ pid: 'forty-three' }))
    expect(await readSessionRecord(cfg, 41)).toEqual({
      record: expect.objectContaining({ pid: 41, sessionId: 's-1', status: 'waiting', waitingFor: 'permission prompt' })
    })
    expect(await readSessionRecord(cfg, 40)).toEqual({ missing: true })
    expect(await readSessionRecord(cfg, 42)).toEqual({ missing: true })
    const bad = await readSessionRecord(cfg, 43)
    expect('invalid' in bad && bad.invalid).toMatch(/sessions\/43\.json: pid/)
  })
})

describe('the saved sessions', () => {
  it('round-trips the list, and ignores a file that does not parse with a warning naming it', () => {
    const path = join(dir, 'ws', 'claude-sessions.json')
    writeSavedSessions(path, [
      { paneId: 'claude-1', sessionId: 'abc', cwd: '/w' },
      { paneId: 'claude-2', cwd: '/w/t' }
    ])
    expect(readSavedSessions(path).sessions).toEqual([
      { paneId: 'claude-1', sessionId: 'abc', cwd: '/w' },
      { paneId: 'claude-2', cwd: '/w/t' }
    ])
    expect(readSavedSessions(join(dir, 'none.json'))).toEqual({ sessions: [] })
    writeFileSync(path, '{"schemaVersion": 2}')
    const read = readSavedSessions(path)
    expect(read.sessions).toEqual([])
    expect(read.warning).toContain(path)
  })
})

describe('findClaude', () => {
  const bin = join(dir, 'bin')
  mkdirSync(bin, { recursive: true })
  writeFileSync(join(bin, 'claude'), '#!/bin/sh\n')
  chmodSync(join(bin, 'claude'), 0o755)
  writeFileSync(join(dir, 'plain'), '')

  it('takes the configured path when it is an executable file, else says what is wrong', () => {
    expect(findClaude(join(bin, 'claude'), {})).toBe(join(bin, 'claude'))
    expect(() => findClaude('claude', {})).toThrow(/not absolute/)
    expect(() => findClaude(join(dir, 'plain'), {})).toThrow(ClaudeNotFoundError)
    expect(() => findClaude(bin, {})).toThrow(/not an executable file/)
  })

  it('finds claude on PATH, and says how to install it when there is none', () => {
    expect(findClaude(undefined, { PATH: `/nonexistent:${bin}` })).toBe(join(bin, 'claude'))
    expect(() => findClaude(undefined, { PATH: '/nonexistent' })).toThrow(/No claude program on PATH.*--claude-path/)
  })
})
