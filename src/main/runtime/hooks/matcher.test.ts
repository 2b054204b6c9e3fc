import { readFile } from 'node:fs/promises'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { compileMatcher } from './matcher'
import { createHookRunner } from './runner'
import { useTempDirs } from './hooks.testkit'

const tempDir = useTempDirs()

describe('matchers follow Claude Code', () => {
  it.each([undefined, '', '*'])('matches every agent type when the matcher is %j', (text) => {
    const m = compileMatcher(text)
    expect(['Explore', 'general-purpose', 'my-plugin:reviewer'].every(m)).toBe(true)
  })

  it('matches a plain name exactly and case-sensitively', () => {
    const m = compileMatcher('Explore')
    expect([m('Explore'), m('Explorer'), m('explore'), m('MyExplore')]).toEqual([true, false, false, false])
  })

  it('matches |-separated names exactly', () => {
    const m = compileMatcher('Explore|Plan')
    expect([m('Explore'), m('Plan'), m('Planner'), m('Explore|Plan')]).toEqual([true, true, false, false])
  })

  it('tests anything else as an unanchored regular expression', () => {
    const m = compileMatcher('code-review')
    expect([m('code-review'), m('my-code-reviewer'), m('code')]).toEqual([true, true, false])
    const anchored = compileMatcher('^code-.*$')
    expect([anchored('code-x'), anchored('my-code-x')]).toEqual([true, false])
  })

  it('throws on a regular expression that does not compile', () => {
    expect(() => compileMatcher('code-(')).toThrow(SyntaxError)
  })
})

describe('which hooks run', () => {
  it('selects SubagentStart and SubagentStop hooks by agent type', async () => {
    const dir = await tempDir()
    const log = path.join(dir, 'log')
    const entry = (matcher: string, tag: string): unknown => ({
      matcher,
      hooks: [{ type: 'command', command: `echo ${tag} >> "${log}"` }]
    })
    const hooks = {
      SubagentStart: [
        entry('Explore', 'explore'),
        entry('Plan|worker', 'plan-or-worker'),
        entry('*', 'all'),
        entry('^gen', 'gen')
      ]
    }
    const runner = createHookRunner({ hooks: [{ source: 's.json', hooks }], cwd: dir, sessionId: 's' })
    for (const type of ['Explore', 'worker', 'general-purpose']) {
      await runner.run('SubagentStart', { agent_id: type, agent_type: type })
    }
    expect((await readFile(log, 'utf8')).trim().split('\n').sort()).toEqual([
      'all',
      'all',
      'all',
      'explore',
      'gen',
      'plan-or-worker'
    ])
  })

  it('ignores the matcher of events that have none (TaskCreated)', async () => {
    const dir = await tempDir()
    const hooks = { TaskCreated: [{ matcher: 'NothingMatchesThis', hooks: [{ type: 'command', command: 'exit 2' }] }] }
    const runner = createHookRunner({ hooks: [{ source: 's.json', hooks }], cwd: dir, sessionId: 's' })
    const outcome = await runner.run('TaskCreated', { task_id: '1', task_subject: 's', team_name: 't' })
    expect(outcome.kind).toBe('block')
  })
})
