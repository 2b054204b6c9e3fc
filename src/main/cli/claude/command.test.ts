import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { installClaudeCode, runClaude } from '../../runtime/scripted/claudeCode.testkit'
import { parseScenario, startScriptedServer } from '../../runtime/scripted'
import { startCli } from '../cli.testkit'

const dirs: string[] = []
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })))
function scratchDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'swarmdesk-cc-tree-'))
  dirs.push(dir)
  return dir
}
function write(root: string, path: string, data: unknown): void {
  mkdirSync(join(root, path, '..'), { recursive: true })
  writeFileSync(join(root, path), typeof data === 'string' ? data : JSON.stringify(data))
}
/** `swarmdesk claude ARGS` with `root` as Claude Code's config folder: its exit code, stdout and stderr. */
function cli(root: string, args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = startCli(['claude', ...args], { env: { CLAUDE_CONFIG_DIR: root } })
    let stdout = ''
    let stderr = ''
    child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()))
    child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()))
    child.on('error', reject)
    child.on('close', (code) => resolve({ code, stdout, stderr }))
    child.stdin!.end()
  })
}

describe('swarmdesk claude on hand-made trees', () => {
  it('shows a live team: members from the config and, marked gone, from tasks, inboxes and transcripts; tasks and messages', async () => {
    const root = scratchDir()
    write(root, 'teams/session-1a2b3c4d/config.json', {
      name: 'session-1a2b3c4d',
      createdAt: 1796213627739,
      leadAgentId: 'team-lead@session-1a2b3c4d',
      leadSessionId: '1a2b3c4d-0000',
      members: [
        {
          agentId: 'team-lead@session-1a2b3c4d',
          name: 'team-lead',
          joinedAt: 1796213627739,
          cwd: '/w',
          backendType: 'in-process'
        },
        {
          agentId: 'researcher@session-1a2b3c4d',
          name: 'researcher',
          color: 'blue',
          joinedAt: 1796213628000,
          cwd: '/w',
          backendType: 'in-process',
          model: 'claude-opus-4-8'
        }
      ]
    })
    // a pruned inbox: delivered messages are gone, one protocol message is left
    write(root, 'teams/session-1a2b3c4d/inboxes/team-lead.json', [
      {
        from: 'tester',
        text: JSON.stringify({ type: 'idle_notification', from: 'tester', idleReason: 'available' }),
        timestamp: '2026-12-02T10:00:01.000Z',
        msgV: 1,
        msg_id: 'm2',
        type: 'message',
        read: false
      }
    ])
    write(root, 'teams/session-1a2b3c4d/inboxes/writer.json', [])
    write(root, 'tasks/session-1a2b3c4d/1.json', {
      id: '1',
      subject: 'Parse',
      description: 'd',
      owner: 'researcher',
      status: 'completed',
      blocks: ['2'],
      blockedBy: []
    })
    write(root, 'tasks/session-1a2b3c4d/2.json', {
      id: '2',
      subject: 'Test',
      description: 'd',
      owner: 'tester',
      status: 'pending',
      blocks: [],
      blockedBy: ['1']
    })
    write(root, 'tasks/session-1a2b3c4d/.highwatermark', '2')
    write(root, 'projects/-w/1a2b3c4d-0000/subagents/agent-areviewer-0123.meta.json', {
      taskKind: 'in_process_teammate',
      name: 'reviewer',
      team: 'session-1a2b3c4d',
      color: 'green'
    })

    const shown = await cli(root, ['teams', 'show', 'session-1a2b3c4d', '--json'])
    expect(shown.stderr).toBe('')
    expect(shown.code).toBe(0)
    const team = JSON.parse(shown.stdout)
    expect(team).toMatchObject({
      name: 'session-1a2b3c4d',
      status: 'live',
      leadSessionId: '1a2b3c4d-0000',
      createdAt: new Date(1796213627739).toISOString()
    })
    expect(team.members.map((m: { name: string; status: string }) => `${m.name}:${m.status}`)).toEqual([
      'team-lead:active',
      'researcher:active',
      'tester:gone',
      'writer:gone',
      'reviewer:gone'
    ])
    expect(team.members.find((m: { name: string }) => m.name === 'tester').seenIn).toEqual(['task owner'])
    expect(team.tasks).toEqual([
      { id: '1', subject: 'Parse', status: 'completed', owner: 'researcher', blocks: ['2'], blockedBy: [] },
      { id: '2', subject: 'Test', status: 'pending', owner: 'tester', blocks: [], blockedBy: ['1'] }
    ])
    expect(team.messages).toEqual([
      expect.objectContaining({ to: 'team-lead', from: 'tester', protocol: 'idle_notification', read: false })
    ])
  })

  it('lists an ended team by its wiped task list, and names a file mid-write on stderr without guessing', async () => {
    const root = scratchDir()
    write(root, 'tasks/session-deadbeef/.highwatermark', '4') // wiped: only the high-water mark stays
    write(root, 'teams/session-live0001/config.json', { name: 'session-live0001', members: [] })
    write(root, 'teams/session-live0001/inboxes/team-lead.json', '[{"from":"a","text":"hal') // mid-write
    const listed = await cli(root, ['teams', 'list', '--json'])
    expect(listed.code).toBe(0)
    const teams = JSON.parse(listed.stdout)
    expect(
      teams.map((t: { name: string; status: string; tasks: unknown[] }) => [t.name, t.status, t.tasks.length])
    ).toEqual([
      ['session-deadbeef', 'ended', 0],
      ['session-live0001', 'live', 0]
    ])
    expect(listed.stderr).toContain(`warning: ${join(root, 'teams/session-live0001/inboxes/team-lead.json')}: not JSON`)
    expect(teams[1].unreadable[0].path).toBe(join(root, 'teams/session-live0001/inboxes/team-lead.json'))
    expect(teams[1].messages).toEqual([])
    expect(teams[1].members.map((m: { name: string; status: string }) => `${m.name}:${m.status}`)).toEqual([
      'team-lead:gone'
    ])

    const missing = await cli(root, ['teams', 'show', 'nope', '--json'])
    expect(missing.code).toBe(1)
    expect(missing.stdout).toBe('null\n')
    expect(missing.stderr).toContain("no team 'nope'")
    expect((await cli(root, ['teams', 'frobnicate'])).code).toBe(2)
  })

  it('lists a live session by its pid file and an ended one by its transcript', async () => {
    const root = scratchDir()
    write(root, 'sessions/' + process.pid + '.json', {
      pid: process.pid,
      sessionId: 'live-session',
      cwd: '/w',
      status: 'busy',
      version: '2.1.197'
    })
    write(root, 'sessions/999999999.json', { pid: 999999999, sessionId: 'crashed-session', cwd: '/x', status: 'idle' })
    write(root, 'sessions/123.json', '{"pid":12')
    write(
      root,
      'projects/-old/old-session.jsonl',
      JSON.stringify({ type: 'user', cwd: '/old', sessionId: 'old-session' }) + '\n{"torn'
    )
    const listed = await cli(root, ['sessions', 'list', '--json'])
    expect(listed.code).toBe(0)
    const sessions = JSON.parse(listed.stdout)
    expect(
      sessions.map((s: { sessionId: string; status: string; cwd?: string }) => [s.sessionId, s.status, s.cwd])
    ).toEqual([
      ['live-session', 'live', '/w'],
      ['crashed-session', 'ended', '/x'],
      ['old-session', 'ended', '/old']
    ])
    expect(listed.stderr).toContain(join(root, 'sessions/123.json'))
  })
})

const install = await installClaudeCode()
describe.skipIf(install.skip !== undefined)(
  `swarmdesk claude on the tree the real claude -p writes${install.skip ? ` (skipped: ${install.skip})` : ''}`,
  () => {
    it('lists the ended -p session with its transcript and cwd, and the team of its task list', async () => {
      const dir = scratchDir()
      mkdirSync(join(dir, 'home'))
      mkdirSync(join(dir, 'work'))
      const server = await startScriptedServer({
        scenario: parseScenario(
          `agents:\n  team-lead:\n    - tools: [ { name: TaskCreate, input: { subject: "Write the parser", description: "Parse the input" } } ]\n    - text: "created"\n`,
          'tasks.yaml'
        )
      })
      try {
        const run = await runClaude(install.bin!, ['-p', '--dangerously-skip-permissions', 'plan it'], {
          baseUrl: server.url,
          cwd: join(dir, 'work'),
          home: join(dir, 'home')
        })
        expect(run.stdout.trim()).toBe('created')
      } finally {
        await server.close()
      }
      const root = join(dir, 'home', '.claude')
      const sessions = await cli(root, ['sessions', 'list', '--json'])
      expect(sessions.code).toBe(0)
      const [session] = JSON.parse(sessions.stdout)
      expect(session).toMatchObject({ status: 'ended', cwd: join(dir, 'work') })
      expect(session.transcript).toBe(
        join(root, 'projects', join(dir, 'work').replace(/[^A-Za-z0-9]/g, '-'), `${session.sessionId}.jsonl`)
      )
      const teams = JSON.parse((await cli(root, ['teams', 'list', '--json'])).stdout)
      const withTask = teams.find((t: { tasks: Array<{ subject: string }> }) =>
        t.tasks.some((k) => k.subject === 'Write the parser')
      )
      expect(withTask).toMatchObject({
        status: 'ended',
        tasks: [{ id: '1', subject: 'Write the parser', status: 'pending', blocks: [], blockedBy: [] }]
      })
    }, 120_000)
  }
)
