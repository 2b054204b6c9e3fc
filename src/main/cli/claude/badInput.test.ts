import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { startCli } from '../cli.testkit'

/**
 * `swarmdesk claude` on bad input (docs/events.md#claude-code-sessions-and-teams): every message
 * names the whole subcommand, says what was wrong and what to do; a file of the wrong shape is
 * named by path, never crashes the command or is shown as if it were data.
 */
const dirs: string[] = []
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })))
function scratchDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "swarmdesk-cc bad 'ü'-"))
  dirs.push(dir)
  return dir
}
function write(root: string, path: string, data: unknown): void {
  mkdirSync(join(root, path, '..'), { recursive: true })
  writeFileSync(join(root, path), typeof data === 'string' ? data : JSON.stringify(data))
}
/** `swarmdesk claude ARGS` with `env` added: its exit code, stdout and stderr. */
function cli(
  env: Record<string, string>,
  args: string[]
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = startCli(['claude', ...args], { env })
    let stdout = ''
    let stderr = ''
    child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()))
    child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()))
    child.on('error', reject)
    child.on('close', (code) => resolve({ code, stdout, stderr }))
    child.stdin!.end()
  })
}

// each case spawns the CLI (about a second each, more on a loaded machine)
describe('swarmdesk claude on bad input', { timeout: 120_000 }, () => {
  it('names the subcommand it lacks or does not know, and what the choices are', async () => {
    const env = { CLAUDE_CONFIG_DIR: scratchDir() }
    const cases: Array<[string[], string]> = [
      [[], 'swarmdesk claude: give a subcommand: sessions list, teams list or teams show TEAM.'],
      [['frob'], "swarmdesk claude: unknown subcommand 'frob' (use sessions or teams)."],
      [['sessions'], 'swarmdesk claude sessions: give a subcommand: list.'],
      [['teams', 'shw'], "swarmdesk claude teams: unknown subcommand 'shw' (use list or show)."],
      [['teams', 'show'], 'swarmdesk claude teams show: give one TEAM, got none (see: swarmdesk claude teams list).'],
      [['teams', 'show', 'a', 'b'], "swarmdesk claude teams show: give one TEAM, got 'a' 'b'"],
      [['sessions', 'list', 'x'], "swarmdesk claude sessions list: unexpected argument 'x'."]
    ]
    for (const [args, message] of cases) {
      const result = await cli(env, args)
      expect([args, result.code, result.stderr.split('\n')[0]]).toEqual([args, 2, expect.stringContaining(message)])
      expect(result.stderr.startsWith(message)).toBe(true)
      expect(result.stdout).toBe('')
    }
  })

  it('refuses a CLAUDE_CONFIG_DIR that names no folder; warns, by the subcommand, of a missing ~/.claude', async () => {
    const dir = scratchDir()
    const missing = join(dir, 'no such dir')
    const listed = await cli({ CLAUDE_CONFIG_DIR: missing }, ['sessions', 'list', '--json'])
    expect(listed.code).toBe(2)
    expect(listed.stdout).toBe('')
    expect(listed.stderr).toBe(
      `swarmdesk claude sessions list: CLAUDE_CONFIG_DIR is ${missing}, which does not exist. Set it to the folder Claude Code writes its sessions/, projects/ and teams/ to, or unset it to read ${join(
        process.env.HOME!,
        '.claude'
      )}.\n`
    )
    write(dir, 'a-file', 'x')
    const file = await cli({ CLAUDE_CONFIG_DIR: join(dir, 'a-file') }, ['teams', 'list'])
    expect(file.code).toBe(2)
    expect(file.stderr).toContain(
      `swarmdesk claude teams list: CLAUDE_CONFIG_DIR is ${join(dir, 'a-file')}, which is not a folder.`
    )

    // no CLAUDE_CONFIG_DIR and a home where Claude Code never ran: nothing found, and why
    const home = join(dir, 'home')
    mkdirSync(home)
    const unset = await cli({ CLAUDE_CONFIG_DIR: '', HOME: home }, ['teams', 'list', '--json'])
    expect(unset.code).toBe(0)
    expect(JSON.parse(unset.stdout)).toEqual([])
    expect(unset.stderr).toBe(
      `swarmdesk claude teams list: warning: ${join(home, '.claude')} does not exist: has Claude Code run as this user? If its config folder is elsewhere, set CLAUDE_CONFIG_DIR to it.\n`
    )
  })

  it('names session, task, config and inbox files of the wrong shape by path, and lists the rest', async () => {
    const root = scratchDir()
    write(root, 'sessions/1.json', 'null')
    write(root, 'sessions/2.json', [])
    write(root, 'projects/-w/good-session.jsonl', JSON.stringify({ type: 'user', cwd: '/w' }) + '\n')
    const sessions = await cli({ CLAUDE_CONFIG_DIR: root }, ['sessions', 'list', '--json'])
    expect(sessions.code).toBe(0)
    expect(JSON.parse(sessions.stdout).map((s: { sessionId: string }) => s.sessionId)).toEqual(['good-session'])
    expect(sessions.stderr).toBe(
      `swarmdesk claude sessions list: warning: ${join(root, 'sessions/1.json')}: not a JSON object (found null)\n` +
        `swarmdesk claude sessions list: warning: ${join(root, 'sessions/2.json')}: not a JSON object (found an array)\n`
    )

    write(root, 'teams/session-0badf00d/config.json', [])
    write(root, 'teams/session-0badf00d/inboxes/team-lead.json', [
      null,
      5,
      { from: 'researcher', summary: 'no text' },
      { from: 'researcher', text: 'kept', timestamp: '2026-12-02T10:00:00.000Z' }
    ])
    write(root, 'tasks/session-0badf00d/1.json', 'null')
    write(root, 'tasks/session-0badf00d/2.json', {
      id: '2',
      subject: 'Kept',
      status: 'pending',
      blocks: [],
      blockedBy: []
    })
    const shown = await cli({ CLAUDE_CONFIG_DIR: root }, ['teams', 'show', 'session-0badf00d', '--json'])
    expect(shown.code).toBe(0)
    const team = JSON.parse(shown.stdout)
    expect(team.tasks.map((t: { subject: string }) => t.subject)).toEqual(['Kept'])
    expect(team.messages.map((m: { text: string }) => m.text)).toEqual(['kept'])
    const inbox = join(root, 'teams/session-0badf00d/inboxes/team-lead.json')
    expect(team.unreadable).toEqual([
      { path: join(root, 'teams/session-0badf00d/config.json'), reason: 'not a JSON object (found an array)' },
      { path: join(root, 'tasks/session-0badf00d/1.json'), reason: 'not a JSON object (found null)' },
      { path: inbox, reason: 'message 1 is not a message (an object with string from and text): null' },
      { path: inbox, reason: 'message 2 is not a message (an object with string from and text): 5' },
      {
        path: inbox,
        reason:
          'message 3 is not a message (an object with string from and text): {"from":"researcher","summary":"no text"}'
      }
    ])
    expect(shown.stderr.split('\n').filter(Boolean)).toHaveLength(5)
    expect(
      shown.stderr
        .split('\n')
        .filter(Boolean)
        .every((l) => l.startsWith('swarmdesk claude teams show: warning: '))
    ).toBe(true)
  })

  it('finds no team by a name that is not a folder under teams/ or tasks/ (.., a path)', async () => {
    const root = scratchDir()
    write(root, '.claude.json', {})
    write(root, 'tasks/session-1/1.json', { id: '1', subject: 's', status: 'pending', blocks: [], blockedBy: [] })
    for (const name of ['..', '../tasks', 'session-1/..']) {
      const shown = await cli({ CLAUDE_CONFIG_DIR: root }, ['teams', 'show', name, '--json'])
      expect([name, shown.code, shown.stdout]).toEqual([name, 1, 'null\n'])
      expect(shown.stderr).toContain(`swarmdesk claude teams show: no team '${name}' under ${root}/teams`)
    }
  })
})
