import { type PtyHost } from '../../pty/types'
import { execFileSync } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { EventOf, RuntimeEvent } from '../../../../shared/events'
import type { PermissionPromptAnswer, PermissionPromptRequest } from '../../../../shared/permissions'
import { EventBus } from '../../events/bus'
import { createMailbox } from '../../mailbox'
import type { PermissionPrompter } from '../../permissions/prompter'
import { createPtyHost } from '../../pty'
import { startScriptedServer, type ScenarioInput, type ScriptedServer } from '../../scripted'
import { AUTO_BACKGROUND_ENV } from '../../subagents/wiring'
import { TeamStore } from '../../teams'

import { agentTranscriptPath } from '../../storage/paths'
import type { TeammateSpawnConfig } from '../executor'
import { WorkerTeammateExecutor } from './executor'
import { until } from '../../pty/pty.testkit'

/**
 * A worker teammate's Agent tool (docs/agents.md#agent-definitions, docs/teams.md#spawning-a-teammate): sync subagents only, on the leader's subagent
 * machinery, in the worker thread — the subagent's shell commands reach the main thread's PTY
 * host, its permission questions the leader's queue tagged with the teammate.
 */

class RecordingPrompter implements PermissionPrompter {
  readonly asked: PermissionPromptRequest[] = []
  constructor(private readonly answer: PermissionPromptAnswer) {}
  async prompt(request: PermissionPromptRequest): Promise<PermissionPromptAnswer> {
    this.asked.push(request)
    return this.answer
  }
}

const TEAMMATE_TOOLS = [
  'Read',
  'Write',
  'Edit',
  'Glob',
  'Grep',
  'Bash',
  'BashOutput',
  'KillShell',
  'NotebookEdit',
  'TodoWrite',
  'WebFetch',
  'WebSearch',
  'Agent',
  'SendMessage',
  'TaskCreate',
  'TaskGet',
  'TaskList',
  'TaskUpdate'
]
const of = <T extends RuntimeEvent['type']>(events: RuntimeEvent[], type: T) =>
  events.filter((e): e is EventOf<T> => e.type === type)
type Body = { tools: Array<{ name: string }> }

describe('a worker teammate spawns sync subagents', () => {
  let home: string
  let pty: PtyHost
  const dirs: string[] = []
  const servers: ScriptedServer[] = []
  const executors: WorkerTeammateExecutor[] = []

  beforeAll(() => {
    home = mkdtempSync(join(tmpdir(), 'swarmdesk-worker-sub-home-'))
    pty = createPtyHost()
  })

  afterEach(async () => {
    await Promise.all(executors.splice(0).map((e) => e.dispose()))
  })

  afterAll(async () => {
    await pty.dispose()
    await Promise.all(servers.map((s) => s.close()))
    for (const d of [home, ...dirs]) rmSync(d, { recursive: true, force: true })
  })

  function workspace(git = false): string {
    const dir = realpathSync(mkdtempSync(join(tmpdir(), 'swarmdesk-worker-sub-work-')))
    dirs.push(dir)
    writeFileSync(join(dir, 'notes.txt'), 'SECRET-NOTE: the answer is 42\n')
    if (git) {
      const env = {
        ...process.env,
        GIT_AUTHOR_NAME: 't',
        GIT_AUTHOR_EMAIL: 't@t.invalid',
        GIT_COMMITTER_NAME: 't',
        GIT_COMMITTER_EMAIL: 't@t.invalid'
      }
      execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: dir })
      execFileSync('git', ['add', '-A'], { cwd: dir })
      execFileSync('git', ['commit', '-q', '-m', 'start'], { cwd: dir, env })
    }
    return dir
  }

  async function prepare(
    team: string,
    work: string,
    mode: 'default' | 'bypassPermissions',
    agents: NonNullable<ScenarioInput['agents']>,
    firstMessage: string
  ): Promise<{ config: TeammateSpawnConfig; server: ScriptedServer }> {
    const server = await startScriptedServer({ scenario: { strict: true, agents } })
    servers.push(server)
    const teams = new TeamStore(home)
    await teams.create({
      name: team,
      description: 'teammate subagents test',
      lead: { name: 'team-lead', agentType: 'main', model: 'claude-sonnet-5-5', backendType: 'main', cwd: work }
    })
    const member = await teams.addMember(team, {
      name: 'alice',
      agentType: 'general-purpose',
      model: 'claude-sonnet-5-5',
      backendType: 'worker',
      cwd: work,
      isActive: false,
      mode
    })
    await createMailbox({ home }).send(team, 'alice', { from: 'team-lead', text: firstMessage })
    const config: TeammateSpawnConfig = {
      home,
      team,
      name: 'alice',
      agentId: member.agentId,
      cwd: work,
      color: member.color,
      model: 'claude-sonnet-5-5',
      mode,
      planModeRequired: false,
      sessionId: randomUUID(),
      leaderAgentId: `team-lead@${team}`,
      env: { ANTHROPIC_BASE_URL: server.url, SWARMDESK_SCRIPTED_MODEL_URL: server.url, ANTHROPIC_API_KEY: 'test-key' }
    }
    return { config, server }
  }

  function start(prompter: PermissionPrompter): { workers: WorkerTeammateExecutor; events: RuntimeEvent[] } {
    const bus = new EventBus()
    const events: RuntimeEvent[] = []
    bus.onEvent((e) => events.push(e))
    const workers = new WorkerTeammateExecutor({ bus, pty, prompter, codeCacheDir: join(home, 'cache', 'v8') })
    executors.push(workers)
    return { workers, events }
  }

  const aliceIdle = (events: RuntimeEvent[]) =>
    events.some((e) => e.type === 'agent_state' && e.agentName === 'alice' && e.state === 'idle')

  it("runs an Explore subagent's Read and Bash through the main PTY host and returns its final text, never backgrounded; its events name alice as parent, its transcript lies beside hers", async () => {
    const work = workspace()
    const { config, server } = await prepare(
      'explorers',
      work,
      'default',
      {
        alice: [
          {
            when: 'survey the notes',
            tools: [
              {
                name: 'Agent',
                input: {
                  subagent_type: 'Explore',
                  description: 'read the notes',
                  prompt: 'Read notes.txt and count its bytes'
                }
              }
            ]
          },
          { when: 'agentId:', text: 'Explore reported: {{last_tool_result}}' }
        ],
        'read-the-notes': [
          { tools: [{ name: 'Read', input: { file_path: 'notes.txt' } }] },
          // slower than the auto-background delay set below: a teammate's sync subagent must still come back as the result
          { when: 'SECRET-NOTE', delayMs: 600, tools: [{ name: 'Bash', input: { command: 'wc -c notes.txt' } }] },
          { when: '30 notes.txt', text: 'The notes hold SECRET-NOTE; wc says: {{last_tool_result}}' }
        ]
      },
      'please survey the notes'
    )
    const prompter = new RecordingPrompter({ decision: 'deny', by: 'user', reason: 'nothing here should ask' })
    const { workers, events } = start(prompter)
    // the worker copies the main thread's environment when it starts
    const before = process.env[AUTO_BACKGROUND_ENV]
    process.env[AUTO_BACKGROUND_ENV] = '100'
    let handle
    try {
      handle = await workers.spawn(config)
    } finally {
      if (before === undefined) delete process.env[AUTO_BACKGROUND_ENV]
      else process.env[AUTO_BACKGROUND_ENV] = before
    }
    await until('alice idle after the subagent', () => aliceIdle(events))

    const started = of(events, 'agent_started').find((e) => e.agentName === 'read-the-notes')
    expect(started).toMatchObject({ agentType: 'Explore', parentId: 'alice@explorers', depth: 1, cwd: work })
    const childId = started!.agentId
    expect(childId).toMatch(/^a[0-9a-f]{16}$/)
    // the subagent's own tools ran in its name: Read, then Bash in a PTY of the main thread
    const childResults = of(events, 'tool_result').filter((e) => e.agentId === childId)
    expect(childResults.map((r) => r.isError)).toEqual([false, false])
    expect(childResults[0]!.output).toContain('SECRET-NOTE')
    expect(childResults[1]!.output).toMatch(/\b30 notes\.txt/)
    expect(of(events, 'agent_stopped').find((e) => e.agentId === childId)).toMatchObject({ status: 'completed' })

    // alice got the final text as the Agent tool's result, not an async launch
    const agentResult = of(events, 'tool_result').find((e) => e.agentName === 'alice')!
    expect(agentResult.isError).toBe(false)
    expect(agentResult.output).not.toContain('async_launched')
    expect(agentResult.output).toMatch(
      /^The notes hold SECRET-NOTE; wc says: .*30 notes\.txt[\s\S]*\n\nagentId: a[0-9a-f]{16}$/
    )
    expect(agentResult.output).toContain(`agentId: ${childId}`)
    expect(of(events, 'task_notification')).toEqual([])
    expect(prompter.asked).toEqual([])

    // tool lists: alice's has Agent after the core tools; Explore's is read-only and has no team tools
    const bodies = (name: string) =>
      server
        .requests()
        .filter((r) => r.agentName === name)
        .map((r) => r.body as Body)
    expect(bodies('alice')[0]!.tools.map((t) => t.name)).toEqual(TEAMMATE_TOOLS)
    expect(bodies('read-the-notes')[0]!.tools.map((t) => t.name)).toEqual([
      'Read',
      'Glob',
      'Grep',
      'Bash',
      'BashOutput',
      'KillShell',
      'TodoWrite',
      'WebFetch',
      'WebSearch'
    ])

    // both transcripts in the session's agents/ folder
    const childTranscript = agentTranscriptPath(home, work, config.sessionId, childId)
    expect(existsSync(agentTranscriptPath(home, work, config.sessionId, 'alice@explorers'))).toBe(true)
    expect(existsSync(childTranscript)).toBe(true)
    expect(readFileSync(childTranscript, 'utf8')).toContain('Read notes.txt and count its bytes')

    await workers.kill('alice@explorers', 'test over')
    await handle.exited
  }, 60_000)

  it('refuses `name` and `run_in_background` with clear errors and starts nothing', async () => {
    const work = workspace()
    const { config, server } = await prepare(
      'refusing',
      work,
      'bypassPermissions',
      {
        alice: [
          {
            when: 'try spawning',
            tools: [
              { name: 'Agent', input: { name: 'bob', description: 'second pair of hands', prompt: 'help alice' } },
              {
                name: 'Agent',
                input: { description: 'background helper', prompt: 'work quietly', run_in_background: true }
              }
            ]
          },
          { text: 'Both refused.' }
        ]
      },
      'please try spawning'
    )
    const { workers, events } = start(new RecordingPrompter({ decision: 'allow', by: 'user' }))
    const handle = await workers.spawn(config)
    await until('alice idle', () => aliceIdle(events))

    const results = of(events, 'tool_result').filter((e) => e.agentName === 'alice')
    // both calls run at once (Agent is concurrency-safe): their results come in either order
    expect(results.map((r) => [r.isError, r.output]).sort()).toEqual([
      [
        true,
        "Teammates cannot spawn teammates: the team's roster is flat and only team-lead adds members. Omit `name` to start a sync subagent, or ask team-lead with SendMessage for another teammate."
      ],
      [
        true,
        'Teammates may spawn sync subagents only: call the agent without run_in_background, and its final answer comes back as the result.'
      ]
    ])
    // nothing was spawned: no agent, no model request, no member, no transcript but alice's
    expect(of(events, 'agent_started')).toEqual([])
    expect(new Set(server.requests().map((r) => r.agentName))).toEqual(new Set(['alice']))
    expect(new TeamStore(home).read('refusing').members.map((m) => m.name)).toEqual(['team-lead', 'alice'])
    const agentsDir = join(agentTranscriptPath(home, work, config.sessionId, 'x'), '..')
    expect(readdirSync(agentsDir)).toEqual(['alice@refusing.jsonl'])

    await workers.kill('alice@refusing', 'test over')
    await handle.exited
  }, 60_000)

  it("puts a subagent's permission question to the leader's queue tagged with the teammate, naming the subagent", async () => {
    const work = workspace()
    const { config } = await prepare(
      'asking',
      work,
      'default',
      {
        alice: [
          {
            when: 'delegate the write',
            tools: [{ name: 'Agent', input: { description: 'write the file', prompt: 'Write sub.txt' } }]
          },
          { when: 'agentId:', text: 'Helper said: {{last_tool_result}}' }
        ],
        'write-the-file': [
          { tools: [{ name: 'Bash', input: { command: 'echo written-by-sub > sub.txt && cat sub.txt' } }] },
          { when: 'written-by-sub', text: 'Wrote sub.txt.' }
        ]
      },
      'please delegate the write'
    )
    const prompter = new RecordingPrompter({ decision: 'allow', by: 'user' })
    const { workers, events } = start(prompter)
    const handle = await workers.spawn(config)
    await until('alice idle', () => aliceIdle(events))

    expect(prompter.asked).toHaveLength(1)
    const child = of(events, 'agent_started').find((e) => e.agentName === 'write-the-file')!
    expect(prompter.asked[0]).toMatchObject({
      agentId: 'alice@asking',
      agentName: 'alice',
      tool: 'Bash',
      input: { command: 'echo written-by-sub > sub.txt && cat sub.txt' }
    })
    expect(prompter.asked[0]!.reason).toContain(`asked by alice's subagent write-the-file, ${child.agentId}`)
    expect(
      events.some((e) => e.type === 'agent_state' && e.agentName === 'alice' && e.state === 'awaiting_permission')
    ).toBe(true)
    expect(readFileSync(join(work, 'sub.txt'), 'utf8')).toBe('written-by-sub\n')
    const result = of(events, 'tool_result').find((e) => e.agentName === 'alice')!
    expect(result.output).toMatch(/^Wrote sub\.txt\.\n\nagentId: a[0-9a-f]{16}$/)

    await workers.kill('alice@asking', 'test over')
    await handle.exited
  }, 60_000)

  it("loads the workspace's own definitions; a subagent given Agent nests one level deeper, under the same refusals", async () => {
    const work = workspace()
    mkdirSync(join(work, '.swarmdesk', 'agents'), { recursive: true })
    writeFileSync(
      join(work, '.swarmdesk', 'agents', 'delegator.md'),
      ['---', 'name: delegator', 'description: Hands work on', 'tools: Agent, Read', '---', 'You delegate.', ''].join(
        '\n'
      )
    )
    const { config, server } = await prepare(
      'nesting',
      work,
      'bypassPermissions',
      {
        alice: [
          {
            when: 'pass it on',
            tools: [
              {
                name: 'Agent',
                input: { subagent_type: 'delegator', description: 'pass it on', prompt: 'Have someone read notes.txt' }
              }
            ]
          },
          { when: 'agentId:', text: 'Chain said: {{last_tool_result}}' }
        ],
        'pass-it-on': [
          { tools: [{ name: 'Agent', input: { name: 'carol', description: 'new member', prompt: 'join' } }] },
          {
            when: 'cannot spawn teammates',
            tools: [
              {
                name: 'Agent',
                input: { subagent_type: 'Explore', description: 'deep read', prompt: 'Read the notes file' }
              }
            ]
          },
          { when: 'agentId:', text: 'Deep read found: {{last_tool_result}}' }
        ],
        'deep-read': [
          { tools: [{ name: 'Read', input: { file_path: 'notes.txt' } }] },
          { when: 'SECRET-NOTE', text: 'SECRET-NOTE seen' }
        ]
      },
      'please pass it on'
    )
    const { workers, events } = start(new RecordingPrompter({ decision: 'deny', by: 'user' }))
    const handle = await workers.spawn(config)
    await until('alice idle', () => aliceIdle(events))

    const started = of(events, 'agent_started')
    const middle = started.find((e) => e.agentName === 'pass-it-on')!
    expect(middle).toMatchObject({ agentType: 'delegator', parentId: 'alice@nesting', depth: 1 })
    expect(started.find((e) => e.agentName === 'deep-read')).toMatchObject({
      agentType: 'Explore',
      parentId: middle.agentId,
      depth: 2
    })
    expect(started).toHaveLength(2)
    const refusal = of(events, 'tool_result').find((e) => e.agentId === middle.agentId)!
    expect(refusal).toMatchObject({
      isError: true,
      output:
        "A teammate's subagent cannot spawn teammates: the team's roster is flat and only team-lead adds members. Omit `name` to start a sync subagent."
    })
    // the delegator got exactly what it listed, no team tools
    expect(
      (server.requests().find((r) => r.agentName === 'pass-it-on')!.body as Body).tools.map((t) => t.name)
    ).toEqual(['Read', 'Agent'])
    const result = of(events, 'tool_result').find((e) => e.agentName === 'alice')!
    expect(result.output).toMatch(
      /^Deep read found: SECRET-NOTE seen\n\nagentId: a[0-9a-f]{16}\n\nagentId: a[0-9a-f]{16}$/
    )
    expect(new TeamStore(home).read('nesting').members.map((m) => m.name)).toEqual(['team-lead', 'alice'])

    await workers.kill('alice@nesting', 'test over')
    await handle.exited
  }, 60_000)

  it('isolates a subagent in its own worktree when asked: its write stays there and the kept worktree is reported', async () => {
    const work = workspace(true)
    const { config } = await prepare(
      'isolated',
      work,
      'bypassPermissions',
      {
        alice: [
          {
            when: 'try it aside',
            tools: [
              { name: 'Agent', input: { description: 'write aside', prompt: 'Write aside.txt', isolation: 'worktree' } }
            ]
          },
          { when: 'agentId:', text: 'Done aside.' }
        ],
        'write-aside': [
          { tools: [{ name: 'Bash', input: { command: 'echo aside > aside.txt && pwd' } }] },
          { when: 'worktrees/agent-', text: 'Wrote aside.txt in {{last_tool_result}}' }
        ]
      },
      'please try it aside'
    )
    const { workers, events } = start(new RecordingPrompter({ decision: 'deny', by: 'user' }))
    const handle = await workers.spawn(config)
    await until('alice idle', () => aliceIdle(events))

    const child = of(events, 'agent_started').find((e) => e.agentName === 'write-aside')!
    const tree = join(work, '.swarmdesk', 'worktrees', `agent-${child.agentId.slice(1, 9)}`)
    expect(child.cwd).toBe(tree)
    expect(readFileSync(join(tree, 'aside.txt'), 'utf8')).toBe('aside\n')
    expect(existsSync(join(work, 'aside.txt'))).toBe(false)
    const result = of(events, 'tool_result').find((e) => e.agentName === 'alice')!
    expect(result.isError).toBe(false)
    expect(result.output).toContain(
      `Its worktree was kept: ${tree} (branch worktree-agent-${child.agentId.slice(1, 9)})`
    )

    await workers.kill('alice@isolated', 'test over')
    await handle.exited
  }, 60_000)
})
