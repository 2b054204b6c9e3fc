import { execFileSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { EventOf, RuntimeEvent } from '../../../shared/events'
import { runUntilSettled } from '../session/headless'
import { pidsWithCommandLine } from '../pty/pty.testkit'
import { startSubagentHarness, type SubagentHarness } from './subagents.testkit'

let h: SubagentHarness | undefined
afterEach(async () => {
  await h?.close()
  h = undefined
})

type Body = {
  tools: Array<{ name: string }>
  system: Array<{ text: string }>
  messages: Array<{ role: string; content: Array<{ type: string; text?: string; content?: unknown }> }>
}
const requestsOf = (harness: SubagentHarness, name: string) =>
  harness.server
    .requests()
    .filter((r) => r.agentName === name)
    .map((r) => r.body as unknown as Body)
const ofType = <T extends RuntimeEvent['type']>(events: RuntimeEvent[], type: T) =>
  events.filter((e): e is EventOf<T> => e.type === type)
const userTexts = (body: Body) =>
  body.messages
    .filter((m) => m.role === 'user')
    .flatMap((m) => m.content.map((b) => b.text ?? JSON.stringify(b.content ?? '')))

describe('subagents', () => {
  it('a sync Explore returns its findings as the tool result, with read-only tools and no project instructions', async () => {
    h = await startSubagentHarness({
      agents: {
        'team-lead': [
          {
            tools: [
              {
                name: 'Agent',
                input: { subagent_type: 'Explore', description: 'find notes', prompt: 'Find notes.txt and quote it' }
              }
            ]
          },
          { text: 'Explore said: {{last_tool_result}}' }
        ],
        'type:Explore': [
          { tools: [{ name: 'Read', input: { file_path: 'notes.txt' } }] },
          { text: 'notes.txt says: {{last_tool_result}}' }
        ]
      }
    })
    writeFileSync(join(h.work, 'notes.txt'), 'the answer is 42\n')
    const end = await runUntilSettled(h.session, 'explore')
    expect(end.reason).toBe('completed')
    expect(end.finalText).toMatch(/^Explore said: notes\.txt says: .*the answer is 42[\s\S]*agentId: a[0-9a-f]{16}$/)
    const child = requestsOf(h, 'find-notes')
    expect(child).toHaveLength(2)
    const names = child[0]!.tools.map((t) => t.name)
    expect(names).toEqual(['Read', 'Glob', 'Grep', 'Bash'])
    expect(JSON.stringify(child[0]!.system)).not.toContain('PROJECT-INSTRUCTIONS-MARKER')
    expect(JSON.stringify(requestsOf(h, 'team-lead')[0]!.system)).toContain('PROJECT-INSTRUCTIONS-MARKER')
    expect(h.server.requests().find((r) => r.agentName === 'find-notes')!.headers['x-swarmdesk-agent-type']).toBe(
      'Explore'
    )
    // the effective model of the definition was used and the child is announced with its parent and depth
    expect(child[0]).toMatchObject({ model: 'claude-haiku-4-5' })
    expect(ofType(h.events, 'agent_started').find((e) => e.agentName === 'find-notes')).toMatchObject({
      parentId: 'team-lead',
      depth: 1,
      agentType: 'Explore'
    })
    expect(ofType(h.events, 'task_notification')).toEqual([])
  })

  it('three background agents launched in one message run concurrently and notify once each, waking the idle leader', async () => {
    const worker = (n: number) => [
      { delayMs: 700 * n, tools: [{ name: 'Bash', input: { command: `echo job${n} > job${n}.txt` } }] },
      { text: `job ${n} done` }
    ]
    h = await startSubagentHarness(
      {
        agents: {
          'team-lead': [
            {
              tools: [1, 2, 3].map((n) => ({
                name: 'Agent',
                input: { description: `job ${n}`, prompt: `do job ${n}`, run_in_background: true }
              }))
            },
            { text: 'launched' },
            { when: '<task-notification>', text: 'got {{last_tool_result}}' },
            { when: '<task-notification>', text: 'got another' },
            { when: '<task-notification>', text: 'got the last' }
          ],
          'job-1': worker(3),
          'job-2': worker(1),
          'job-3': worker(2)
        }
      },
      { mode: 'bypassPermissions' }
    )
    const end = await runUntilSettled(h.session, 'launch three')
    expect(end.reason).toBe('completed')
    const launches = ofType(h.events, 'tool_result').filter((e) => e.agentName === 'team-lead')
    expect(launches.map((l) => JSON.parse(l.output).status)).toEqual([
      'async_launched',
      'async_launched',
      'async_launched'
    ])
    for (const n of [1, 2, 3]) expect(readFileSync(join(h.work, `job${n}.txt`), 'utf8')).toBe(`job${n}\n`)
    const notes = ofType(h.events, 'task_notification')
    expect(notes).toHaveLength(3)
    const order = notes.map((n) => ofType(h!.events, 'agent_started').find((s) => s.agentId === n.taskId)!.agentName)
    expect(order).toEqual(['job-2', 'job-3', 'job-1'])
    // each notification reached the leader exactly once, in a request of its own or batched
    const leaderTexts = requestsOf(h, 'team-lead')
      .at(-1)!
      .messages.flatMap((m) => m.content.map((b) => b.text ?? ''))
    for (const n of notes)
      expect(leaderTexts.filter((t) => t.includes(`<task-id>${n.taskId}</task-id>`))).toHaveLength(1)
  })

  it('is not complete while a background shell it started still runs; one notification in total', async () => {
    h = await startSubagentHarness(
      {
        agents: {
          'team-lead': [
            {
              tools: [
                { name: 'Agent', input: { description: 'slow shell', prompt: 'start it', run_in_background: true } }
              ]
            },
            { text: 'waiting' },
            { when: '<task-notification>', text: 'noted' }
          ],
          'slow-shell': [
            {
              tools: [
                { name: 'Bash', input: { command: 'sleep 1.2; echo finished > shell.txt', run_in_background: true } }
              ]
            },
            { text: 'shell started' }
          ]
        }
      },
      { mode: 'bypassPermissions' }
    )
    await runUntilSettled(h.session, 'go')
    const notes = ofType(h.events, 'task_notification')
    expect(notes).toHaveLength(1)
    // the shell's work was done before the task was reported complete
    expect(existsSync(join(h.work, 'shell.txt'))).toBe(true)
    const stopped = ofType(h.events, 'agent_stopped').find((e) => e.agentName === 'slow-shell')!
    const ended = h.events.indexOf(stopped)
    expect(h.events.indexOf(notes[0]!)).toBeGreaterThan(ended)
  })

  it('TaskStop ends a running agent, its shell and its child agent, with one killed notification; a second stop is an error', async () => {
    h = await startSubagentHarness(
      {
        agents: {
          'team-lead': [
            {
              tools: [
                {
                  name: 'Agent',
                  input: {
                    subagent_type: 'nester',
                    description: 'busy parent',
                    prompt: 'work',
                    run_in_background: true
                  }
                }
              ]
            },
            { delayMs: 1500, tools: [{ name: 'TaskStop', input: { task_id: '{{last_agent_id}}' } }] },
            { tools: [{ name: 'TaskStop', input: { task_id: '{{last_agent_id}}' } }] },
            { text: 'stopped it' }
          ],
          'busy-parent': [
            {
              tools: [
                { name: 'Bash', input: { command: 'sleep 307.25', run_in_background: true } },
                { name: 'Agent', input: { description: 'busy child', prompt: 'wait', run_in_background: true } }
              ]
            },
            { text: 'waiting for my child' }
          ],
          'busy-child': [
            { tools: [{ name: 'Bash', input: { command: 'sleep 308.75', run_in_background: true } }] },
            { text: 'child waiting' }
          ]
        }
      },
      { mode: 'bypassPermissions' }
    )
    const end = await runUntilSettled(h.session, 'go')
    expect(end.reason).toBe('completed')
    expect(pidsWithCommandLine('sleep 307.25')).toEqual([])
    expect(pidsWithCommandLine('sleep 308.75')).toEqual([])
    const leaderResults = ofType(h.events, 'tool_result').filter((e) => e.agentName === 'team-lead')
    expect(leaderResults[1]!.output).toMatch(/^Stopped agent a[0-9a-f]{16}/)
    expect(leaderResults[2]).toMatchObject({ isError: true })
    expect(leaderResults[2]!.output).toContain('is not running')
    const killed = ofType(h.events, 'task_notification').filter((n) => n.status === 'killed')
    expect(killed.map((n) => n.agentName).sort()).toEqual(['busy-parent', 'team-lead'])
    expect(
      ofType(h.events, 'agent_stopped')
        .filter((e) => e.status === 'killed')
        .map((e) => e.agentName)
        .sort()
    ).toEqual(['busy-child', 'busy-parent'])
  })

  it('SendMessage reaches a running agent at its next step and resumes a finished one, which reports back once more', async () => {
    h = await startSubagentHarness({
      agents: {
        'team-lead': [
          { tools: [{ name: 'Agent', input: { description: 'listener', prompt: 'listen', run_in_background: true } }] },
          { tools: [{ name: 'SendMessage', input: { to: '{{last_agent_id}}', message: 'first note' } }] },
          { text: 'sent' },
          {
            when: 'first reply',
            tools: [{ name: 'SendMessage', input: { to: '{{last_agent_id}}', message: 'second note' } }]
          },
          { text: 'sent again' },
          { when: 'second reply', text: 'all replies in' }
        ],
        listener: [
          { delayMs: 800, tools: [{ name: 'Glob', input: { pattern: '*' } }] },
          { when: 'first note', text: 'first reply' },
          { when: 'second note', text: 'second reply' }
        ]
      }
    })
    const end = await runUntilSettled(h.session, 'talk')
    expect(end).toMatchObject({ reason: 'completed', finalText: 'all replies in' })
    expect(ofType(h.events, 'task_notification').map((n) => n.status)).toEqual(['completed', 'completed'])
    const listener = requestsOf(h, 'listener')
    expect(userTexts(listener[1]!).join('\n')).toContain('Message from team-lead:\nfirst note')
    expect(userTexts(listener.at(-1)!).join('\n')).toContain('second note')
  })

  it('moves a sync agent past the threshold to the background and notifies later', async () => {
    h = await startSubagentHarness(
      {
        agents: {
          'team-lead': [
            { tools: [{ name: 'Agent', input: { description: 'slow one', prompt: 'take time' } }] },
            { text: 'moved on' },
            { when: '<task-notification>', text: 'slow one finished' }
          ],
          'slow-one': [{ delayMs: 1200, text: 'finally done' }]
        }
      },
      { subagents: { autoBackgroundMs: 300 } }
    )
    const end = await runUntilSettled(h.session, 'go')
    expect(end.finalText).toBe('slow one finished')
    const launched = ofType(h.events, 'tool_result').find((e) => e.agentName === 'team-lead')!
    expect(JSON.parse(launched.output)).toMatchObject({ status: 'async_launched' })
    expect(ofType(h.events, 'task_notification')).toHaveLength(1)
  })

  it("bubbles a background agent's permission question to the leader's queue, tagged with the agent", async () => {
    h = await startSubagentHarness({
      agents: {
        'team-lead': [
          { tools: [{ name: 'Agent', input: { description: 'writer', prompt: 'write', run_in_background: true } }] },
          { text: 'ok' },
          { when: '<task-notification>', text: 'noted' }
        ],
        writer: [
          { tools: [{ name: 'Write', input: { file_path: 'out.txt', content: 'written\n' } }] },
          { text: 'wrote it' }
        ]
      }
    })
    await runUntilSettled(h.session, 'go')
    expect(h.asked.map((a) => [a.agentName, a.tool])).toEqual([['writer', 'Write']])
    expect(readFileSync(join(h.work, 'out.txt'), 'utf8')).toBe('written\n')
  })

  it('with bubbling off, a background write is denied and the notification says so', async () => {
    h = await startSubagentHarness(
      {
        agents: {
          'team-lead': [
            { tools: [{ name: 'Agent', input: { description: 'writer', prompt: 'write', run_in_background: true } }] },
            { text: 'ok' },
            { when: '<task-notification>', text: 'saw: {{last_tool_result}}' }
          ],
          writer: [{ tools: [{ name: 'Write', input: { file_path: 'out.txt', content: 'x' } }] }, { text: 'tried' }]
        }
      },
      { subagents: { bubblePermissions: false } }
    )
    await runUntilSettled(h.session, 'go')
    expect(h.asked).toEqual([])
    expect(existsSync(join(h.work, 'out.txt'))).toBe(false)
    const writerResult = ofType(h.events, 'tool_result').find((e) => e.agentName === 'writer')!
    expect(writerResult.output).toBe('Permission to use Write was denied: background agents cannot prompt')
    const lastLeaderRequest = requestsOf(h, 'team-lead').at(-1)!
    expect(userTexts(lastLeaderRequest).join('\n')).toMatch(
      /Denied tool calls \(not performed\):\n- Write: background agents cannot prompt/
    )
  })

  it('refuses an unknown type, listing the types, and starts nothing', async () => {
    h = await startSubagentHarness({
      agents: {
        'team-lead': [
          { tools: [{ name: 'Agent', input: { subagent_type: 'Wizard', description: 'magic', prompt: 'x' } }] },
          { text: 'ok' }
        ]
      }
    })
    await runUntilSettled(h.session, 'go')
    const result = ofType(h.events, 'tool_result')[0]!
    expect(result).toMatchObject({ isError: true })
    expect(result.output).toBe(
      'Unknown subagent_type "Wizard". Available types: Explore, general-purpose, nester, worker.'
    )
    expect(ofType(h.events, 'agent_started')).toHaveLength(1)
  })
})

describe('worktree isolation', () => {
  it('runs three isolated agents in parallel on their own branches, leaving the parent checkout alone; clean worktrees go, dirty ones stay and are reported', async () => {
    const commitIn = (n: number) => [
      {
        tools: [
          {
            name: 'Bash',
            input: {
              command: `echo work${n} > w${n}.txt && git add w${n}.txt && git -c user.name=a -c user.email=a@a.invalid commit -q -m "work ${n}" && git rev-parse --abbrev-ref HEAD`
            }
          }
        ]
      },
      { text: `committed ${n}` }
    ]
    h = await startSubagentHarness(
      {
        agents: {
          'team-lead': [
            {
              tools: [
                {
                  name: 'Agent',
                  input: { description: 'iso 1', prompt: 'commit', isolation: 'worktree', run_in_background: true }
                },
                {
                  name: 'Agent',
                  input: { description: 'iso 2', prompt: 'commit', isolation: 'worktree', run_in_background: true }
                },
                {
                  name: 'Agent',
                  input: { description: 'iso 3', prompt: 'commit', isolation: 'worktree', run_in_background: true }
                },
                {
                  name: 'Agent',
                  input: { description: 'iso clean', prompt: 'look', isolation: 'worktree', run_in_background: true }
                }
              ]
            },
            { text: 'launched' },
            { when: '<task-notification>', text: 'one' },
            { when: '<task-notification>', text: 'two' },
            { when: '<task-notification>', text: 'three' },
            { when: '<task-notification>', text: 'four' }
          ],
          'iso-1': commitIn(1),
          'iso-2': commitIn(2),
          'iso-3': commitIn(3),
          'iso-clean': [{ tools: [{ name: 'Read', input: { file_path: 'CLAUDE.md' } }] }, { text: 'looked' }]
        }
      },
      { mode: 'bypassPermissions' }
    )
    const git = (...args: string[]) => execFileSync('git', args, { cwd: h!.work }).toString().trim()
    const headBefore = git('rev-parse', 'HEAD')
    await runUntilSettled(h.session, 'go')
    expect(git('rev-parse', 'HEAD')).toBe(headBefore)
    expect(git('status', '--porcelain')).toBe('')
    for (const n of [1, 2, 3]) expect(existsSync(join(h.work, `w${n}.txt`))).toBe(false)
    const tasks = h.session.subagents!.list()
    const byName = Object.fromEntries(tasks.map((t) => [t.agentName, t]))
    for (const n of [1, 2, 3]) {
      const wt = byName[`iso-${n}`]!.worktree!
      expect(wt.kept).toBe(true)
      expect(wt.branch).toBe(`worktree-agent-${byName[`iso-${n}`]!.agentId.slice(1, 9)}`)
      expect(readFileSync(join(wt.path, `w${n}.txt`), 'utf8')).toBe(`work${n}\n`)
      expect(git('log', '--format=%s', '-1', wt.branch)).toBe(`work ${n}`)
    }
    expect(byName['iso-clean']!.worktree!.kept).toBe(false)
    expect(existsSync(byName['iso-clean']!.worktree!.path)).toBe(false)
    expect(
      readFileSync(join(h.work, '.git', 'info', 'exclude'), 'utf8').match(/\.swarmdesk\/worktrees\//g)
    ).toHaveLength(1)
    // the kept worktrees are reported in the notifications the leader received
    const texts = requestsOf(h, 'team-lead')
      .at(-1)!
      .messages.flatMap((m) => m.content.map((b) => b.text ?? ''))
    expect(texts.filter((t) => t.includes('<worktreePath>'))).toHaveLength(3)
  })

  it('refuses an absolute path into the parent checkout, naming the worktree', async () => {
    h = await startSubagentHarness({
      agents: {
        'team-lead': [
          { tools: [{ name: 'Agent', input: { description: 'iso reader', prompt: 'read', isolation: 'worktree' } }] },
          { text: 'done' }
        ],
        'iso-reader': [
          { tools: [{ name: 'Read', input: { file_path: '{{cwd}}/../../../CLAUDE.md' } }] },
          { text: '{{last_tool_result}}' }
        ]
      }
    })
    const parentFile = join(h.work, 'CLAUDE.md')
    // the scripted path goes up from the worktree root (<work>/.swarmdesk/worktrees/agent-x) to the parent's file
    await runUntilSettled(h.session, 'go')
    const result = ofType(h.events, 'tool_result').find((e) => e.agentName === 'iso-reader')!
    expect(result.isError).toBe(true)
    expect(result.output).toContain('parent checkout')
    expect(result.output).toContain('.swarmdesk/worktrees/agent-')
    expect(readFileSync(parentFile, 'utf8')).toContain('MARKER')
  })
})

describe('subagent hooks', () => {
  it('pairs SubagentStart with SubagentStop for completed and killed agents, and an exit 2 keeps the agent working', async () => {
    const logDir = mkdtempSync(join(tmpdir(), 'swarmdesk-hooklog-'))
    // Hooks of different agents run at once: each line is appended in one write so none interleave.
    const record = (file: string) => `line=$(cat); printf '%s\\n' "$line" >> ${logDir}/${file}`
    const block = `if printf '%s' "$line" | grep -q '"last_assistant_message":"first answer"'; then echo "also say DONE" >&2; exit 2; fi`
    const hookSettings = [
      {
        source: join(logDir, 'settings.json'),
        hooks: {
          SubagentStart: [{ hooks: [{ type: 'command', command: record('start.jsonl') }] }],
          SubagentStop: [{ hooks: [{ type: 'command', command: `${record('stop.jsonl')}; ${block}` }] }]
        }
      }
    ]
    h = await startSubagentHarness(
      {
        agents: {
          'team-lead': [
            {
              tools: [
                { name: 'Agent', input: { description: 'hooked', prompt: 'answer' } },
                { name: 'Agent', input: { description: 'victim', prompt: 'wait', run_in_background: true } }
              ]
            },
            { tools: [{ name: 'TaskStop', input: { task_id: '{{last_agent_id}}' } }] },
            { text: 'done' }
          ],
          hooked: [{ text: 'first answer' }, { when: 'also say DONE', text: 'DONE' }],
          victim: [
            { tools: [{ name: 'Bash', input: { command: 'sleep 309.5', run_in_background: true } }] },
            { text: 'waiting' }
          ]
        }
      },
      { mode: 'bypassPermissions', hookSettings }
    )
    try {
      await runUntilSettled(h.session, 'go')
      const lines = (f: string) =>
        readFileSync(join(logDir, f), 'utf8')
          .trim()
          .split('\n')
          .filter(Boolean)
          .map((l) => JSON.parse(l))
      const starts = lines('start.jsonl')
      const stops = lines('stop.jsonl')
      expect(starts.map((s: { hook_event_name: string }) => s.hook_event_name)).toEqual([
        'SubagentStart',
        'SubagentStart'
      ])
      const ids = new Set(starts.map((s: { agent_id: string }) => s.agent_id))
      // the hooked agent stopped twice (blocked once, then allowed), the killed one once
      const perAgent = (id: string) => stops.filter((s: { agent_id: string }) => s.agent_id === id)
      const counts = [...ids].map((id) => perAgent(id as string).length).sort()
      expect(counts).toEqual([1, 2])
      const hooked = stops.filter((s: { last_assistant_message: string }) => s.last_assistant_message === 'DONE')
      expect(hooked).toEqual([expect.objectContaining({ stop_hook_active: true })])
      const leaderResult = ofType(h.events, 'tool_result').find(
        (e) => e.agentName === 'team-lead' && e.output.startsWith('DONE')
      )
      expect(leaderResult).toBeDefined()
      expect(pidsWithCommandLine('sleep 309.5')).toEqual([])
    } finally {
      rmSync(logDir, { recursive: true, force: true })
    }
  })
})

describe('nesting and races', () => {
  it('stops recursion at depth 5 even when every agent keeps asking to spawn another', async () => {
    const nest = [
      { tools: [{ name: 'Agent', input: { subagent_type: 'nester', description: 'nest', prompt: 'go deeper' } }] },
      { text: 'level done' }
    ]
    h = await startSubagentHarness({ agents: { 'team-lead': nest, nest } }, { mode: 'bypassPermissions' })
    const end = await runUntilSettled(h.session, 'go')
    expect(end.reason).toBe('completed')
    const depths = ofType(h.events, 'agent_started').map((e) => e.depth)
    expect(depths).toEqual([0, 1, 2, 3, 4, 5])
    const deepest = ofType(h.events, 'agent_started').find((e) => e.depth === 5)!
    // the agent at the cap was not offered the Agent tool, so its call fails and it answers instead
    expect(requestsOf(h, 'nest').find((b) => !b.tools.some((t) => t.name === 'Agent'))).toBeDefined()
    const capped = ofType(h.events, 'tool_result').find((e) => e.agentId === deepest.agentId)!
    expect(capped).toMatchObject({ isError: true })
    expect(capped.output).toContain('No such tool: Agent')
  })

  it('a message that arrives as the agent finishes its last turn is read, not lost, and reported once', async () => {
    h = await startSubagentHarness({
      agents: {
        'team-lead': [
          { tools: [{ name: 'Agent', input: { description: 'racer', prompt: 'finish', run_in_background: true } }] },
          { text: 'ok' },
          { when: '<task-notification>', text: 'noted: {{last_tool_result}}' }
        ],
        racer: [{ text: 'final words' }, { when: 'late note', text: 'saw the late note' }]
      }
    })
    h.bus.onEvent((e) => {
      if (e.type === 'assistant_text' && e.agentName === 'racer' && e.text === 'final words')
        h!.session.subagents!.sendMessage(e.agentId, 'late note', h!.session.asParent())
    })
    await runUntilSettled(h.session, 'go')
    expect(requestsOf(h, 'racer')).toHaveLength(2)
    expect(ofType(h.events, 'task_notification')).toHaveLength(1)
    const leaderTexts = requestsOf(h, 'team-lead')
      .at(-1)!
      .messages.flatMap((m) => m.content.map((b) => b.text ?? ''))
    expect(leaderTexts.join('\n')).toContain('<result>saw the late note</result>')
  })
})

describe('refusals with no side effects', () => {
  it('refuses a type denied by an Agent(X) rule, naming the rule, and starts nothing', async () => {
    h = await startSubagentHarness(
      {
        agents: {
          'team-lead': [
            { tools: [{ name: 'Agent', input: { subagent_type: 'Explore', description: 'look', prompt: 'x' } }] },
            { text: 'ok' }
          ]
        }
      },
      { settingsFile: { permissions: { deny: ['Agent(Explore)'] } } }
    )
    await runUntilSettled(h.session, 'go')
    const result = ofType(h.events, 'tool_result')[0]!
    expect(result.isError).toBe(true)
    expect(result.output).toContain('Agent(Explore)')
    expect(ofType(h.events, 'agent_started')).toHaveLength(1)
  })

  it('refuses run_in_background when background work is disabled', async () => {
    h = await startSubagentHarness(
      {
        agents: {
          'team-lead': [
            { tools: [{ name: 'Agent', input: { description: 'bg', prompt: 'x', run_in_background: true } }] },
            { text: 'ok' }
          ]
        }
      },
      { subagents: { backgroundDisabled: true } }
    )
    await runUntilSettled(h.session, 'go')
    const result = ofType(h.events, 'tool_result')[0]!
    expect(result).toMatchObject({
      isError: true,
      output: 'Background agents are disabled in this session; call the agent without run_in_background.'
    })
    expect(ofType(h.events, 'agent_started')).toHaveLength(1)
  })
})
