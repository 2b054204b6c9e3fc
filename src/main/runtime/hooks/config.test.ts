import { access } from 'node:fs/promises'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { DEFAULT_HOOK_TIMEOUT_MS, parseHookSources } from './config'
import { HookConfigError } from './errors'
import { createHookRunner } from './runner'
import { useTempDirs } from './hooks.testkit'

const tempDir = useTempDirs()

function configError(hooks: Record<string, unknown>): HookConfigError {
  try {
    parseHookSources([{ source: '/w/.swarmdesk/settings.json', hooks }])
  } catch (e) {
    if (e instanceof HookConfigError) return e
    throw e
  }
  throw new Error('expected a HookConfigError')
}

describe('hooks settings: invalid entries fail closed, naming file and field', () => {
  it.each([
    [
      'a command that is missing',
      { SubagentStop: [{ hooks: [{ type: 'command' }] }] },
      'hooks.SubagentStop[0].hooks[0].command'
    ],
    [
      'an empty command',
      { TaskCreated: [{ hooks: [{ type: 'command', command: '  ' }] }] },
      'hooks.TaskCreated[0].hooks[0].command'
    ],
    [
      'a negative timeout',
      { TaskCompleted: [{ hooks: [{ type: 'command', command: 'true', timeout: -1 }] }] },
      'hooks.TaskCompleted[0].hooks[0].timeout'
    ],
    ['an event that is not a list', { TeammateIdle: { hooks: [] } }, 'hooks.TeammateIdle'],
    ['an entry without hooks', { SubagentStart: [{ matcher: 'Explore' }] }, 'hooks.SubagentStart[0].hooks'],
    [
      'an unknown hook type',
      { SubagentStop: [{ hooks: [{ type: 'script', command: 'true' }] }] },
      'hooks.SubagentStop[0].hooks[0].type'
    ],
    ['a matcher that is not a string', { SubagentStop: [{ matcher: 3, hooks: [] }] }, 'hooks.SubagentStop[0].matcher']
  ])('rejects %s', (_what, hooks, field) => {
    const error = configError(hooks)
    expect(error.name).toBe('HookConfigError')
    expect(error.file).toBe('/w/.swarmdesk/settings.json')
    expect(error.field).toBe(field)
    expect(error.message).toContain(`/w/.swarmdesk/settings.json (${field})`)
  })

  it('names the matcher of the entry whose regex does not compile', () => {
    const error = configError({ SubagentStart: [{ hooks: [] }, { matcher: 'code-(', hooks: [] }] })
    expect(error.field).toBe('hooks.SubagentStart[1].matcher')
    expect(error.message).toContain('not a valid regular expression')
  })

  it("fails the runner's creation too", () => {
    expect(() =>
      createHookRunner({ hooks: [{ source: 'x.json', hooks: { TaskCreated: 'echo' } }], cwd: '/', sessionId: 's' })
    ).toThrow(HookConfigError)
  })
})

describe('hooks settings: what loads', () => {
  it("keeps every source's commands in order, with timeouts in ms (60 s by default)", () => {
    const config = parseHookSources([
      {
        source: 'user.json',
        hooks: { SubagentStop: [{ matcher: 'Explore', hooks: [{ type: 'command', command: 'a', timeout: 2.5 }] }] }
      },
      {
        source: 'project.json',
        hooks: { SubagentStop: [{ hooks: [{ type: 'command', command: 'b', statusMessage: 'kept, ignored' }] }] }
      }
    ])
    expect(config.commands.map((c) => [c.source, c.field, c.command, c.matcher, c.timeoutMs])).toEqual([
      ['user.json', 'hooks.SubagentStop[0].hooks[0]', 'a', 'Explore', 2500],
      ['project.json', 'hooks.SubagentStop[0].hooks[0]', 'b', undefined, DEFAULT_HOOK_TIMEOUT_MS]
    ])
    expect(config.warnings).toEqual([])
  })

  it("accepts Claude Code's other events and hook types with a warning each, and never runs them", async () => {
    const dir = await tempDir()
    const marker = `touch "${path.join(dir, 'ran')}"`
    const cmd = [{ hooks: [{ type: 'command', command: marker }] }]
    const hooks = {
      PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: marker }] }],
      Stop: cmd,
      SessionStart: cmd,
      UserPromptSubmit: cmd,
      SubagentStopp: cmd,
      SubagentStop: [{ hooks: [{ type: 'prompt', prompt: 'is it done?' }] }]
    }
    const runner = createHookRunner({ hooks: [{ source: 'settings.json', hooks }], cwd: dir, sessionId: 's' })
    expect(runner.warnings).toEqual([
      'settings.json (hooks.PreToolUse): PreToolUse hooks are not supported yet; they never run',
      'settings.json (hooks.Stop): Stop hooks are not supported yet; they never run',
      'settings.json (hooks.SessionStart): SessionStart hooks are not supported yet; they never run',
      'settings.json (hooks.UserPromptSubmit): UserPromptSubmit hooks are not supported yet; they never run',
      'settings.json (hooks.SubagentStopp): unknown hook event SubagentStopp; it never runs (check the spelling)',
      'settings.json (hooks.SubagentStop[0].hooks[0]): hook type "prompt" is not supported yet; it never runs'
    ])
    const task = { task_id: '1', task_subject: 's', team_name: 't' }
    await runner.run('SubagentStart', { agent_id: 'a', agent_type: 'Explore' })
    await runner.run('SubagentStop', {
      agent_id: 'a',
      agent_type: 'Explore',
      agent_transcript_path: '',
      last_assistant_message: '',
      stop_hook_active: false
    })
    await runner.run('TeammateIdle', { teammate_name: 'n', team_name: 't' })
    await runner.run('TaskCreated', task)
    await runner.run('TaskCompleted', task)
    await expect(access(path.join(dir, 'ran'))).rejects.toThrow()
  })
})
