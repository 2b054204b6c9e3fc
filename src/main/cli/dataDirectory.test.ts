/**
 * A data directory Swarmdesk cannot write (SWARMDESK_HOME read-only, owned by another user, or
 * blocked by a file) is bad input: `serve`, `run`, `teammate`, and `tasks` and `mailbox send` on a
 * team's files, say which folder, why, and what to do, and exit 2 before anything runs — no stack
 * trace. `bin/swarmdesk` in a child process, as
 * a user runs it. Tests run as root, so permission bits alone do not stop writes: a regular file
 * in the path does (ENOTDIR), and `setpriv` to the unprivileged uid 65534 gives a real EACCES.
 */
import { execFileSync } from 'node:child_process'
import { chmodSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { TeamStore } from '../runtime/teams'
import { runCli, useTempWorkspace, type CliRun } from './cli.testkit'
import { workspaceSlug } from '../runtime/storage/paths'

/** The unprivileged `nobody` user (and group) of Debian. */
const NOBODY = 65534

const ws = useTempWorkspace()

const SCENARIO = 'agents:\n  team-lead:\n    - text: "never asked"\n'

/** Commands that write the data directory, as a person types them (`work` is the workspace). */
const COMMANDS: Array<[string, (work: string, scenario: string) => string[]]> = [
  ['serve', (work, scenario) => ['serve', '--cwd', work, '--port', '0', '--scenario', scenario]],
  [
    'serve --new-session',
    (work, scenario) => ['serve', '--cwd', work, '--port', '0', '--scenario', scenario, '--new-session']
  ],
  ['run', (work, scenario) => ['run', '--cwd', work, '--scenario', scenario, 'hello']],
  ['tasks create', () => ['tasks', 'create', '--team', 'crew', '--subject', 'Write the notes']],
  ['mailbox send', () => ['mailbox', 'send', '--team', 'crew', '--to', 'alice', '--from', 'team-lead', '--text', 'hi']]
]

function scenarioFile(): string {
  const file = join(ws.work, 'scenario.yaml')
  writeFileSync(file, SCENARIO)
  return file
}

/** The run failed as bad input naming `dir`, the reason and the way out, with no stack trace. */
function expectClearRefusal(run: CliRun, dir: string, reason: RegExp): void {
  expect(run.code, run.stderr).toBe(2)
  expect(run.stderr).toContain(`Cannot write Swarmdesk's data directory ${dir}: `)
  expect(run.stderr).toMatch(reason)
  expect(run.stderr).toContain('SWARMDESK_HOME')
  expect(run.stderr).not.toMatch(/^\s+at /m)
  expect(run.stdout).not.toContain('SWARMDESK_URL')
}

function hasSetpriv(): boolean {
  try {
    execFileSync('setpriv', [`--reuid=${NOBODY}`, `--regid=${NOBODY}`, '--clear-groups', 'true'], { stdio: 'ignore' })
    return true
  } catch {
    return false
  }
}

describe('a data directory Swarmdesk cannot write', () => {
  it.each(COMMANDS)(
    '%s: a SWARMDESK_HOME under a regular file is refused with the folder, ENOTDIR and what to do',
    async (_name, args) => {
      const blocker = join(ws.home, 'not-a-folder')
      writeFileSync(blocker, 'a file')
      const home = join(blocker, 'swarmdesk')
      const run = await runCli(args(ws.work, scenarioFile()), { env: { SWARMDESK_HOME: home } })
      expectClearRefusal(run, home, /part of the path is a file, not a folder \(ENOTDIR\)/)
    }
  )

  it('teammate: a projects folder blocked by a file is refused before the teammate starts', async () => {
    await new TeamStore(ws.home).create({
      name: 'crew',
      lead: { name: 'team-lead', agentType: 'main', model: 'claude-sonnet-5-5', backendType: 'main', cwd: ws.work }
    })
    await new TeamStore(ws.home).addMember('crew', {
      name: 'alice',
      agentType: 'general-purpose',
      model: 'claude-sonnet-5-5',
      backendType: 'process',
      cwd: ws.work
    })
    writeFileSync(join(ws.home, 'projects'), 'a file')
    const run = await runCli(['teammate', '--team', 'crew', '--name', 'alice', '--cwd', ws.work], {
      env: { SWARMDESK_HOME: ws.home }
    })
    expect(run.stderr).toMatch(/^swarmdesk teammate: /)
    expectClearRefusal(run, join(ws.home, 'projects', workspaceSlug(ws.work)), /\(ENOTDIR\)/)
  })

  const setpriv = hasSetpriv()
  it
    .skipIf(!setpriv)
    .each([
      ...COMMANDS,
      [
        'teammate',
        (work: string) => ['teammate', '--team', 'crew', '--name', 'alice', '--cwd', work]
      ] as (typeof COMMANDS)[number]
    ])(
    '%s as an unprivileged user: a home owned by root is refused with EACCES, and nothing is written there',
    async (_name, args) => {
      await new TeamStore(ws.home).create({
        name: 'crew',
        lead: { name: 'team-lead', agentType: 'main', model: 'claude-sonnet-5-5', backendType: 'main', cwd: ws.work }
      })
      await new TeamStore(ws.home).addMember('crew', {
        name: 'alice',
        agentType: 'general-purpose',
        model: 'claude-sonnet-5-5',
        backendType: 'process',
        cwd: ws.work
      })
      mkdirSync(join(ws.home, 'projects'))
      for (const dir of [ws.home, join(ws.home, 'projects'), ws.work]) chmodSync(dir, 0o755)
      const scenario = scenarioFile()
      chmodSync(scenario, 0o644)
      const before = readdirSync(ws.home).sort()
      const run = await runCli(args(ws.work, scenario), { env: { SWARMDESK_HOME: ws.home }, uid: NOBODY, cwd: ws.work })
      expectClearRefusal(run, ws.home, /permission denied \(EACCES\)/)
      expect(readdirSync(ws.home).sort()).toEqual(before)
      expect(readdirSync(join(ws.home, 'projects'))).toEqual([])
    }
  )
})
