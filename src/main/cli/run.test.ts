import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { ofType, runCli, tempWorkspace } from './cli.testkit'
import { workspaceSlug } from '../runtime/storage/paths'

let home: string
let work: string
let cleanup: () => void

beforeEach(() => {
  ;({ home, work, cleanup } = tempWorkspace())
})
afterEach(() => cleanup())

const env = (): Record<string, string> => ({ SWARMDESK_HOME: home, ANTHROPIC_API_KEY: '' })
function scenario(name: string, yaml: string): string {
  const file = join(home, name)
  writeFileSync(file, yaml)
  return file
}

describe('swarmdesk run', () => {
  it('runs a scripted session end to end: the event stream is valid, ordered and ends with run_finished', async () => {
    writeFileSync(join(work, 'hello.txt'), 'hello world\n')
    const file = scenario(
      's.yaml',
      `agents:\n  team-lead:\n    - text: "Reading."\n      tools: [{ name: Read, input: { file_path: "hello.txt" } }]\n    - text: "It says {{last_tool_result}}"\n`
    )
    const run = await runCli(['run', '--cwd', work, '--scenario', file, '--json', 'read hello.txt'], { env: env() })
    expect(run.stderr).toBe('')
    expect(run.code).toBe(0)
    const seqs = run.events.map((e) => e.seq)
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b))
    expect(run.events[0]).toMatchObject({ type: 'agent_started', agentType: 'main', depth: 0, agentName: 'team-lead' })
    expect(run.events.at(-1)).toMatchObject({ type: 'run_finished', status: 'ok' })
    expect(ofType(run.events, 'tool_result')[0]!.output).toContain('hello world')
    expect(ofType(run.events, 'usage')).toHaveLength(2)
    const finished = ofType(run.events, 'run_finished')[0]!
    expect(
      finished.usage.inputTokens + finished.usage.cacheReadInputTokens + finished.usage.cacheCreationInputTokens
    ).toBeGreaterThan(0)
    expect(finished.costUsd).toBeGreaterThan(0)
  })

  it('asks before an edit; --approve none denies it, the file is untouched and the model is told', async () => {
    writeFileSync(join(work, 'a.txt'), 'old\n')
    const file = scenario(
      's.yaml',
      `agents:\n  team-lead:\n    - tools: [{ name: Read, input: { file_path: "a.txt" } }]\n    - tools: [{ name: Edit, input: { file_path: "a.txt", old_string: "old", new_string: "new" } }]\n    - when: "Permission denied"\n      text: "denied: {{last_tool_result}}"\n    - text: "edited"\n`
    )
    const denied = await runCli(
      ['run', '--cwd', work, '--scenario', file, '--json', '--approve', 'none', 'edit a.txt'],
      { env: env() }
    )
    expect(denied.code).toBe(0)
    expect(readFileSync(join(work, 'a.txt'), 'utf8')).toBe('old\n')
    const request = ofType(denied.events, 'permission_request')[0]!
    expect(request).toMatchObject({ tool: 'Edit' })
    expect(ofType(denied.events, 'permission_decided')[0]).toMatchObject({
      requestId: request.requestId,
      decision: 'deny',
      by: 'approve-flag'
    })
    expect(ofType(denied.events, 'assistant_text').at(-1)!.text).toMatch(/^denied: Permission denied for Edit/)

    const allowed = await runCli(
      ['run', '--cwd', work, '--scenario', file, '--json', '--approve', 'all', 'edit a.txt'],
      { env: env() }
    )
    expect(allowed.code).toBe(0)
    expect(readFileSync(join(work, 'a.txt'), 'utf8')).toBe('new\n')
    expect(ofType(allowed.events, 'permission_decided')[0]).toMatchObject({ decision: 'allow', by: 'approve-flag' })
    // every decision is recorded in the session's permission log
    const sessionId = ofType(allowed.events, 'run_finished')[0]!.sessionId!
    const slug = workspaceSlug(work)
    const log = readFileSync(join(home, 'projects', slug, sessionId, 'permissions.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l))
    expect(log.map((r: { tool: string; decision: string; by: string }) => [r.tool, r.decision, r.by])).toEqual([
      ['Read', 'allow', 'mode'],
      ['Edit', 'allow', 'approve-flag']
    ])
  })

  it('exits 1 with a scenario_error when the script runs out', async () => {
    const file = scenario(
      's.yaml',
      `agents:\n  team-lead:\n    - tools: [{ name: Bash, input: { command: "true" } }]\n`
    )
    const run = await runCli(['run', '--cwd', work, '--scenario', file, '--json', '--approve', 'all', 'go'], {
      env: env()
    })
    expect(run.code).toBe(1)
    expect(ofType(run.events, 'scenario_error')[0]!.message).toContain('(scenario exhausted)')
    expect(run.events.at(-1)).toMatchObject({ type: 'run_finished', status: 'failed' })
  })

  it('exits 1 when --max-turns is reached', async () => {
    const file = scenario(
      's.yaml',
      `agents:\n  team-lead:\n    - tools: [{ name: Glob, input: { pattern: "*" } }]\n    - tools: [{ name: Glob, input: { pattern: "*" } }]\n    - text: done\n`
    )
    const run = await runCli(['run', '--cwd', work, '--scenario', file, '--max-turns', '1', 'go'], { env: env() })
    expect(run.code).toBe(1)
    expect(run.stdout).toContain('maximum of 1 turns')
  })

  it('exits 2 naming what was wrong for bad usage and bad input', async () => {
    const file = scenario('s.yaml', `agents:\n  team-lead:\n    - text: hi\n`)
    const cases: Array<[string[], RegExp]> = [
      [['run', '--bogus', 'x'], /Unknown option '--bogus'/],
      [
        ['run', '--cwd', work, '--scenario', file, '--permission-mode', 'yolo', 'x'],
        /--permission-mode must be one of/
      ],
      [['run', '--cwd', work, '--scenario', file, '--max-turns', '0', 'x'], /--max-turns must be a positive integer/],
      [['run', '--cwd', join(work, 'nope'), '--scenario', file, 'x'], /does not exist/],
      [['run', '--cwd', work, 'x'], /No API key/],
      [['run', '--cwd', work, '--scenario', join(work, 'missing.yaml'), 'x'], /missing\.yaml/],
      [['run', '--cwd', work, '--scenario', file, '--resume', 'no-such-session', 'x'], /No session no-such-session/],
      [['frobnicate'], /unknown command 'frobnicate'/]
    ]
    const runs = await Promise.all(cases.map(([args]) => runCli(args, { env: env() })))
    runs.forEach((run, i) => {
      const [args, message] = cases[i]!
      expect({ args, code: run.code }).toEqual({ args, code: 2 })
      expect(run.stderr).toMatch(message)
    })
  })

  it('fails closed on a malformed settings file, naming the file', async () => {
    const file = scenario('s.yaml', `agents:\n  team-lead:\n    - text: hi\n`)
    const settings = join(home, 'bad-settings.json')
    writeFileSync(settings, '{"permissions": {"deny": "Bash(rm:*)"}}')
    const run = await runCli(['run', '--cwd', work, '--scenario', file, '--settings', settings, 'x'], { env: env() })
    expect(run.code).toBe(2)
    expect(run.stderr).toContain(settings)
    expect(run.stderr).toContain('permissions.deny')
  })

  it('lists the sessions of a workspace', async () => {
    const file = scenario('s.yaml', `agents:\n  team-lead:\n    - text: hi\n`)
    const run = await runCli(['run', '--cwd', work, '--scenario', file, '--json', 'say hi'], { env: env() })
    const sessionId = ofType(run.events, 'run_finished')[0]!.sessionId
    const list = await runCli(['sessions', 'list', '--cwd', work, '--json'], { env: env() })
    expect(list.code).toBe(0)
    const sessions = JSON.parse(list.stdout) as Array<{ sessionId: string; firstPrompt: string; entries: number }>
    expect(sessions).toEqual([expect.objectContaining({ sessionId, firstPrompt: 'say hi', entries: 2 })])
  })
})
