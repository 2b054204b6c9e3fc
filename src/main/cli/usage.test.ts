import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { USER_PERMISSION_MODES } from '../../shared/permissions'
import { capture } from './commands/cliCapture'
import { USAGES } from './help'
import { main } from './index'
import { runCli, useTempWorkspace } from './cli.testkit'

const dirs = useTempWorkspace()
const env = (): Record<string, string> => ({ SWARMDESK_HOME: dirs.home, ANTHROPIC_API_KEY: '' })

/**
 * Runs each command line through the CLI's entry point in this process, one after another
 * (starting the bundle ~60 times would cost minutes on a shared machine); a few cases below go
 * through bin/swarmdesk to show the real process exits the same way.
 */
async function runAll(cases: string[][]): Promise<Array<{ code: number; stdout: string; stderr: string }>> {
  const out = []
  for (const args of cases) out.push(await capture(dirs.home, () => main(args)))
  return out
}

describe('swarmdesk --help and --version', () => {
  it('prints the usage of every command and subcommand for --help and -h, and exits 0', async () => {
    const keys = Object.keys(USAGES)
    const cases = keys.flatMap((key, i) => [
      [...key.split(' '), i % 2 ? '-h' : '--help'],
      ['help', ...key.split(' ')]
    ])
    const runs = await runAll(cases)
    runs.forEach((run, i) => {
      const key = keys[Math.floor(i / 2)]!
      expect({ args: cases[i], code: run.code, stderr: run.stderr }).toEqual({ args: cases[i], code: 0, stderr: '' })
      expect(run.stdout, cases[i]!.join(' ')).toBe(USAGES[key])
      expect(run.stdout.startsWith(`Usage: swarmdesk ${key}`)).toBe(true)
    })
    // through the real executable; a flag after other flags still asks for help, and nothing runs
    const [late, group] = await Promise.all([
      runCli(['run', '--cwd', dirs.work, 'do something', '--help'], { env: env() }),
      runCli(['tasks', '-h'], { env: env() })
    ])
    expect({ code: late.code, out: late.stdout }).toEqual({ code: 0, out: USAGES.run })
    expect({ code: group.code, out: group.stdout }).toEqual({ code: 0, out: USAGES.tasks })
  })

  it('explains the values of the flags that take a fixed set', () => {
    for (const key of ['run', 'serve']) {
      for (const mode of USER_PERMISSION_MODES) expect(USAGES[key]).toContain(mode)
    }
    for (const key of ['run', 'demo'])
      expect(USAGES[key]).toMatch(
        /--approve all\|none\|ask +who answers permission questions: all = allow each, none = deny each,\s+ask = ask you/
      )
    expect(USAGES['tasks update']).toMatch(/pending, in_progress or completed/)
  })

  it('the general help and --version', async () => {
    const [help, h, version, v] = [
      ...(await runAll([['--help'], ['-h'], ['--version']])),
      await runCli(['-V'], { env: env() })
    ]
    for (const run of [help, h]) {
      expect(run!.code).toBe(0)
      expect(run!.stdout).toMatch(/^swarmdesk — a workspace for teams of LLM agents/)
      expect(run!.stdout).toContain('swarmdesk COMMAND [SUBCOMMAND] --help')
    }
    const pkg = JSON.parse(readFileSync(join(__dirname, '../../../package.json'), 'utf8')) as { version: string }
    for (const run of [version, v])
      expect({ code: run!.code, out: run!.stdout }).toEqual({ code: 0, out: `swarmdesk ${pkg.version}\n` })
  })
})

describe('errors', () => {
  it('every error starts with "swarmdesk <command>:" and bad input exits 2', async () => {
    const scenario = join(dirs.home, 's.yaml')
    writeFileSync(scenario, 'agents:\n  team-lead:\n    - text: hi\n')
    const missing = join(dirs.work, 'no-such-folder')
    const cases: Array<[string, string[]]> = [
      ['swarmdesk run', ['run', '--max-turns', '0', 'x']],
      ['swarmdesk run', ['run', '--permission-mode', 'yolo', 'x']],
      ['swarmdesk run', ['run', '--approve', 'maybe', 'x']],
      ['swarmdesk run', ['run', '--cwd', missing, '--scenario', scenario, 'x']],
      ['swarmdesk run', ['run', '--scenario', join(dirs.home, 'none.yaml'), 'x']],
      ['swarmdesk run', ['run', '--bogus']],
      ['swarmdesk sessions list', ['sessions', 'list', '--cwd', missing]],
      ['swarmdesk sessions', ['sessions', 'bogus']],
      ['swarmdesk demo', ['demo', '--headless', '--approve', 'maybe']],
      ['swarmdesk serve', ['serve', '--permission-mode', 'yolo']],
      ['swarmdesk serve', ['serve', '--port', 'x']],
      ['swarmdesk scripted-server', ['scripted-server']],
      ['swarmdesk permissions check', ['permissions', 'check', '--tool', 'Bash']],
      ['swarmdesk permissions', ['permissions', 'bogus']],
      ['swarmdesk agents list', ['agents', 'list', '--cwd', missing]],
      ['swarmdesk mailbox send', ['mailbox', 'send', '--team', 'demo', '--from', 'x', '--text', 't']],
      ['swarmdesk mailbox read', ['mailbox', 'read', '--team', 'demo']],
      ['swarmdesk tasks create', ['tasks', 'create', '--subject', 's']],
      ['swarmdesk tasks claim', ['tasks', 'claim', 'x', '--team', 'demo', '--agent', 'a']],
      ['swarmdesk tasks update', ['tasks', 'update', '1', '--team', 'demo', '--status', 'done']],
      ['swarmdesk team show', ['team', 'show']],
      ['swarmdesk team show', ['team', 'show', '--team', 'no-such-team']],
      ['swarmdesk teammate', ['teammate', '--name', 'alice']],
      ['swarmdesk teammate', ['teammate', '--team', 'no-such-team', '--name', 'alice']]
    ]
    const runs = await runAll(cases.map(([, args]) => args))
    runs.forEach((run, i) => {
      const [prefix, args] = cases[i]!
      expect({ args, code: run.code, starts: run.stderr.startsWith(`${prefix}: `), stderr: run.stderr }).toEqual({
        args,
        code: 2,
        starts: true,
        stderr: run.stderr
      })
      expect(run.stderr.split('\n').filter((l) => l.trim() !== '').length, run.stderr).toBeLessThanOrEqual(12)
    })
    // the real executable exits 2 the same way
    const real = await runCli(['tasks', 'claim', 'x', '--team', 'demo', '--agent', 'a'], { env: env() })
    expect({ code: real.code, starts: real.stderr.startsWith('swarmdesk tasks claim: ') }).toEqual({
      code: 2,
      starts: true
    })
    // a teammate environment the schema refuses is bad usage, naming the variable, before anything runs
    const badEnv = await runCli(['teammate', '--team', 'demo', '--name', 'alice'], {
      env: { ...env(), SWARMDESK_PLAN_MODE_REQUIRED: 'sometimes' }
    })
    expect({ code: badEnv.code, stderr: badEnv.stderr }).toEqual({
      code: 2,
      stderr: expect.stringMatching(
        /^swarmdesk teammate: Invalid teammate environment: SWARMDESK_PLAN_MODE_REQUIRED .*"sometimes"/
      )
    })
  })
})
