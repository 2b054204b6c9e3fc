import { execFileSync } from 'node:child_process'
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { parseRunFlags } from './commands/run'
import { parseServeFlags } from './commands/serve'
import { ofType, runCli, startCli, useTempWorkspace } from './cli.testkit'

const dirs = useTempWorkspace()
const started = process.cwd()
afterEach(() => process.chdir(started))

describe('relative path flags resolve against the directory the command was run from', () => {
  it('run: --cwd, --settings and --scenario are all read from the shell directory, not from --cwd', async () => {
    // the shell is in `work`; the workspace is work/proj; both files sit beside the shell, not in proj
    const proj = join(dirs.work, 'proj')
    mkdirSync(proj)
    execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: proj })
    writeFileSync(join(dirs.work, 'hooks.json'), JSON.stringify({ permissions: { deny: ['Bash(echo:*)'] } }))
    writeFileSync(
      join(dirs.work, 's.yaml'),
      `agents:\n  team-lead:\n    - tools: [{ name: Bash, input: { command: "echo hi" } }]\n    - text: "saw {{last_tool_result}} in {{cwd}}"\n`
    )
    const run = await runCli(
      ['run', '--cwd', 'proj', '--settings', 'hooks.json', '--scenario', 's.yaml', '--json', '--approve', 'all', 'go'],
      {
        cwd: dirs.work,
        env: { SWARMDESK_HOME: dirs.home, ANTHROPIC_API_KEY: '' }
      }
    )
    expect(run.stderr).toBe('')
    expect(run.code).toBe(0)
    // the deny rule of hooks.json applied: the settings file was found beside the shell
    expect(ofType(run.events, 'tool_result')[0]).toMatchObject({ isError: true })
    expect(ofType(run.events, 'tool_result')[0]!.output).toMatch(/denied/i)
    expect(ofType(run.events, 'agent_started')[0]!.cwd).toBe(proj)
  })

  it('run and serve parse every path flag to an absolute path under the shell directory', () => {
    process.chdir(dirs.work)
    const run = parseRunFlags([
      '--cwd',
      'proj',
      '--settings',
      'a.json',
      '--settings',
      '../b.json',
      '--scenario',
      's.yaml',
      'go'
    ])
    expect(run).toMatchObject({
      cwd: join(dirs.work, 'proj'),
      settingsFiles: [join(dirs.work, 'a.json'), join(dirs.work, '..', 'b.json')],
      scenario: join(dirs.work, 's.yaml')
    })
    const serve = parseServeFlags([
      '--cwd',
      'proj',
      '--settings',
      'a.json',
      '--scenario',
      's.yaml',
      '--claude-session',
      '--claude-path',
      'bin/claude'
    ])
    expect(serve).toMatchObject({
      cwd: join(dirs.work, 'proj'),
      settingsFiles: [join(dirs.work, 'a.json')],
      scenario: join(dirs.work, 's.yaml'),
      claudeSession: true,
      claudePath: join(dirs.work, 'bin', 'claude')
    })
  })

  it('permissions check: --settings and --batch are read from the shell directory; --cwd too', async () => {
    const proj = join(dirs.work, 'proj')
    mkdirSync(proj)
    writeFileSync(join(dirs.work, 'rules.json'), JSON.stringify({ permissions: { deny: ['Read'] } }))
    writeFileSync(
      join(dirs.work, 'calls.jsonl'),
      JSON.stringify({ tool: 'Read', input: { file_path: 'x.txt' } }) + '\n'
    )
    const child = startCli(
      ['permissions', 'check', '--cwd', 'proj', '--settings', 'rules.json', '--batch', 'calls.jsonl'],
      { cwd: dirs.work, env: { SWARMDESK_HOME: dirs.home } }
    )
    child.stdin!.end()
    const run = { stdout: '', stderr: '', code: null as number | null }
    child.stdout!.on('data', (d: Buffer) => (run.stdout += d.toString()))
    child.stderr!.on('data', (d: Buffer) => (run.stderr += d.toString()))
    run.code = await new Promise<number | null>((resolve) => child.on('close', resolve))
    expect(run.stderr).toBe('')
    expect(run.code).toBe(0)
    expect(JSON.parse(run.stdout)).toMatchObject({ decision: 'deny' })
  })
})
