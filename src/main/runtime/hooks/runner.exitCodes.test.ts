import { readFile } from 'node:fs/promises'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { HookInputSchemas } from './events'
import { createHookRunner } from './runner'
import { oneHook, readJsonLines, script, useTempDirs } from './hooks.testkit'

const tempDir = useTempDirs()

const TASK = { task_id: '7', task_subject: 'Write the parser', team_name: 'alpha' }

describe('hook runner: stdin payload and environment', () => {
  it("writes Claude Code's keys as JSON on stdin, runs in the session cwd with the project dir in env", async () => {
    const dir = await tempDir()
    const hook = await script(
      dir,
      'capture.sh',
      `cat > "${dir}/in.json"; printf '%s\\n%s\\n%s\\n' "$PWD" "$CLAUDE_PROJECT_DIR" "$SWARMDESK_PROJECT_DIR" > "${dir}/env.txt"`
    )
    const runner = createHookRunner({
      hooks: [{ source: 's.json', hooks: oneHook('SubagentStop', hook) }],
      cwd: dir,
      sessionId: 'sess-1',
      transcriptPath: '/t/sess-1.jsonl'
    })
    const outcome = await runner.run('SubagentStop', {
      agent_id: 'a1',
      agent_type: 'Explore',
      agent_transcript_path: '/t/a1.jsonl',
      last_assistant_message: 'done',
      stop_hook_active: false
    })
    expect(outcome.kind).toBe('continue')
    expect(JSON.parse(await readFile(path.join(dir, 'in.json'), 'utf8'))).toEqual({
      hook_event_name: 'SubagentStop',
      session_id: 'sess-1',
      cwd: dir,
      transcript_path: '/t/sess-1.jsonl',
      agent_id: 'a1',
      agent_type: 'Explore',
      agent_transcript_path: '/t/a1.jsonl',
      last_assistant_message: 'done',
      stop_hook_active: false
    })
    HookInputSchemas.SubagentStop.parse(JSON.parse(await readFile(path.join(dir, 'in.json'), 'utf8')))
    expect((await readFile(path.join(dir, 'env.txt'), 'utf8')).split('\n').slice(0, 3)).toEqual([dir, dir, dir])
  })

  it('sends the team and task keys for TeammateIdle, TaskCreated and TaskCompleted', async () => {
    const dir = await tempDir()
    const log = path.join(dir, 'log.jsonl')
    const hook = await script(dir, 'log.sh', `cat >> "${log}"; echo >> "${log}"`)
    const hooks = {
      TeammateIdle: [{ hooks: [{ type: 'command', command: hook }] }],
      TaskCreated: [{ hooks: [{ type: 'command', command: hook }] }],
      TaskCompleted: [{ hooks: [{ type: 'command', command: hook }] }]
    }
    const runner = createHookRunner({ hooks: [{ source: 's.json', hooks }], cwd: dir, sessionId: 's' })
    await runner.run('TeammateIdle', { teammate_name: 'ana', team_name: 'alpha' })
    await runner.run('TaskCreated', { ...TASK, task_description: 'details', teammate_name: 'ana' })
    await runner.run('TaskCompleted', TASK)
    const lines = await readJsonLines(log)
    lines.forEach((line, i) =>
      HookInputSchemas[(['TeammateIdle', 'TaskCreated', 'TaskCompleted'] as const)[i]].parse(line)
    )
    expect(lines).toEqual([
      { hook_event_name: 'TeammateIdle', session_id: 's', cwd: dir, teammate_name: 'ana', team_name: 'alpha' },
      {
        hook_event_name: 'TaskCreated',
        session_id: 's',
        cwd: dir,
        ...TASK,
        task_description: 'details',
        teammate_name: 'ana'
      },
      { hook_event_name: 'TaskCompleted', session_id: 's', cwd: dir, ...TASK }
    ])
  })
})

describe('hook runner: exit codes', () => {
  it('continues without warnings when every command exits 0', async () => {
    const dir = await tempDir()
    const runner = createHookRunner({
      hooks: [{ source: 's.json', hooks: oneHook('TaskCreated', 'echo fine; exit 0') }],
      cwd: dir,
      sessionId: 's'
    })
    const outcome = await runner.run('TaskCreated', TASK)
    expect(outcome).toMatchObject({ kind: 'continue', warnings: [] })
    expect(outcome.results).toMatchObject([{ verdict: 'ok', stdout: 'fine\n', end: { kind: 'exited', code: 0 } }])
  })

  it('blocks with the stderr of a command that exits 2', async () => {
    const dir = await tempDir()
    const runner = createHookRunner({
      hooks: [{ source: 's.json', hooks: oneHook('TaskCompleted', 'echo "tests fail: 3 red" >&2; exit 2') }],
      cwd: dir,
      sessionId: 's'
    })
    const outcome = await runner.run('TaskCompleted', TASK)
    expect(outcome).toMatchObject({ kind: 'block', reason: 'tests fail: 3 red' })
  })

  it('continues with a warning naming the command and its stderr when it exits 1', async () => {
    const dir = await tempDir()
    const runner = createHookRunner({
      hooks: [{ source: '/u/settings.json', hooks: oneHook('TeammateIdle', 'echo oops >&2; exit 1') }],
      cwd: dir,
      sessionId: 's'
    })
    const outcome = await runner.run('TeammateIdle', { teammate_name: 'ana', team_name: 'alpha' })
    expect(outcome.kind).toBe('continue')
    expect(outcome.warnings).toHaveLength(1)
    expect(outcome.warnings[0]).toContain('echo oops >&2; exit 1')
    expect(outcome.warnings[0]).toContain('/u/settings.json')
    expect(outcome.warnings[0]).toContain('exited 1: oops')
  })

  it('reports exit 2 of SubagentStart as a warning: it cannot block', async () => {
    const dir = await tempDir()
    const runner = createHookRunner({
      hooks: [{ source: 's.json', hooks: oneHook('SubagentStart', 'echo no >&2; exit 2') }],
      cwd: dir,
      sessionId: 's'
    })
    const outcome = await runner.run('SubagentStart', { agent_id: 'a1', agent_type: 'Plan' })
    expect(outcome.kind).toBe('continue')
    expect(outcome.warnings[0]).toContain('SubagentStart cannot do: no')
  })

  it('blocks on {"decision":"block"} printed by a command that exits 0', async () => {
    const dir = await tempDir()
    const cmd = `echo '{"decision":"block","reason":"run the linter first"}'`
    const runner = createHookRunner({
      hooks: [{ source: 's.json', hooks: oneHook('TaskCompleted', cmd) }],
      cwd: dir,
      sessionId: 's'
    })
    expect(await runner.run('TaskCompleted', TASK)).toMatchObject({ kind: 'block', reason: 'run the linter first' })
  })

  it('turns a block into a warning when the caller ignores blocks (a shutdown wins)', async () => {
    const dir = await tempDir()
    const runner = createHookRunner({
      hooks: [{ source: 's.json', hooks: oneHook('TeammateIdle', 'echo keep going >&2; exit 2') }],
      cwd: dir,
      sessionId: 's'
    })
    const outcome = await runner.run(
      'TeammateIdle',
      { teammate_name: 'ana', team_name: 'alpha' },
      { ignoreBlock: true }
    )
    expect(outcome.kind).toBe('continue')
    expect(outcome.warnings.join('\n')).toContain('keep going')
  })

  it("reports the first block in settings order and runs every source's commands", async () => {
    const dir = await tempDir()
    const runner = createHookRunner({
      hooks: [
        { source: 'user.json', hooks: oneHook('TaskCreated', 'sleep 0.2; echo from user >&2; exit 2') },
        { source: 'project.json', hooks: oneHook('TaskCreated', 'echo from project >&2; exit 2') }
      ],
      cwd: dir,
      sessionId: 's'
    })
    const outcome = await runner.run('TaskCreated', TASK)
    expect(outcome).toMatchObject({ kind: 'block', reason: 'from user' })
    expect(outcome.results.map((r) => [r.source, r.verdict])).toEqual([
      ['user.json', 'block'],
      ['project.json', 'block']
    ])
  })

  it('runs an identical command configured in two sources once', async () => {
    const dir = await tempDir()
    const cmd = `echo x >> "${dir}/count"`
    const runner = createHookRunner({
      hooks: [
        { source: 'a.json', hooks: oneHook('TaskCreated', cmd) },
        { source: 'b.json', hooks: oneHook('TaskCreated', cmd) }
      ],
      cwd: dir,
      sessionId: 's'
    })
    const outcome = await runner.run('TaskCreated', TASK)
    expect(outcome.results).toHaveLength(1)
    expect(await readFile(path.join(dir, 'count'), 'utf8')).toBe('x\n')
  })

  it('keeps at most 64 KB of stdout and says it was cut', async () => {
    const dir = await tempDir()
    const runner = createHookRunner({
      hooks: [{ source: 's.json', hooks: oneHook('TaskCreated', 'head -c 200000 /dev/zero | tr "\\0" a') }],
      cwd: dir,
      sessionId: 's'
    })
    const outcome = await runner.run('TaskCreated', TASK)
    expect(outcome.results[0].stdout).toHaveLength(64 * 1024)
    expect(outcome.results[0].outputTruncated).toBe(true)
  })

  it('reports a hook that cannot start (the cwd is gone) as a warning', async () => {
    const runner = createHookRunner({
      hooks: [{ source: 's.json', hooks: oneHook('TaskCreated', 'exit 2') }],
      cwd: '/nonexistent/swarmdesk-hooks',
      sessionId: 's'
    })
    const outcome = await runner.run('TaskCreated', TASK)
    expect(outcome.kind).toBe('continue')
    expect(outcome.results[0].end.kind).toBe('spawn_failed')
    expect(outcome.warnings[0]).toContain('could not start')
  })

  it('does nothing, quickly, for an event with no hooks', async () => {
    const runner = createHookRunner({ hooks: [], cwd: '/', sessionId: 's' })
    expect(runner.has('TaskCreated')).toBe(false)
    expect(await runner.run('TaskCreated', TASK)).toEqual({ kind: 'continue', warnings: [], results: [] })
  })
})
