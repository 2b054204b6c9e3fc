import { afterEach, describe, expect, it } from 'vitest'
import type { EventOf, RuntimeEvent } from '../../../shared/events'
import { runUntilSettled } from '../session/headless'
import { AgentTool } from '../tools/agents/agentTool'
import { FORK_PLACEHOLDER, historyIsFork } from './fork'
import { asParent } from './run'
import { startSubagentHarness, type SubagentHarness } from './subagents.testkit'

let h: SubagentHarness | undefined
afterEach(async () => {
  await h?.close()
  h = undefined
})

const ofType = <T extends RuntimeEvent['type']>(events: RuntimeEvent[], type: T) =>
  events.filter((e): e is EventOf<T> => e.type === type)
type Body = { messages: Array<{ role: string; content: Array<{ type: string; text?: string; content?: unknown }> }> }
const bodiesOf = (harness: SubagentHarness, name: string) =>
  harness.server
    .requests()
    .filter((r) => r.agentName === name)
    .map((r) => r.body as unknown as Body)
/** The request as bytes, with every cache_control removed (breakpoints move from turn to turn). */
const bytes = (value: unknown) => JSON.stringify(value, (k, v) => (k === 'cache_control' ? undefined : v))
/** The bodies exactly as they came over the wire (the scripted server's request log keeps them). */
const rawOf = (harness: SubagentHarness, name: string) =>
  harness.server
    .requests()
    .filter((r) => r.agentName === name)
    .map((r) => r.rawBody!)
/** Raw bytes without the cache breakpoints, which move to the newest block from one turn to the next. */
const withoutBreakpoints = (raw: string) => raw.replace(/,"cache_control":\{[^{}]*\}/g, '')

const THREE_FORKS = {
  agents: {
    'team-lead': [
      {
        text: 'Splitting the work three ways.',
        tools: [
          { name: 'Agent', input: { description: 'fork one', prompt: 'Count the files.' } },
          { name: 'Agent', input: { description: 'fork two', prompt: 'List the TODOs.' } },
          { name: 'Agent', input: { description: 'fork three', prompt: 'Read the README.' } }
        ]
      },
      { text: 'waiting' },
      { when: '<task-notification>', text: 'one back' },
      { when: '<task-notification>', text: 'two back' },
      { when: '<task-notification>', text: 'three back' }
    ],
    'fork-one': [{ text: 'Scope: count. Result: done.' }],
    'fork-two': [{ delayMs: 200, text: 'Scope: todos. Result: done.' }],
    'fork-three': [{ delayMs: 400, text: 'Scope: readme. Result: done.' }]
  }
}

describe('fork subagents', () => {
  it('three forks from one message send requests byte-identical up to the directive, and read the shared prefix from the cache', async () => {
    h = await startSubagentHarness(THREE_FORKS, { subagents: { forkEnabled: true } })
    const end = await runUntilSettled(h.session, 'Do three things at once. '.repeat(40))
    expect(end.reason).toBe('completed')
    const started = ofType(h.events, 'agent_started').filter((e) => e.agentType === 'fork')
    expect(started.map((s) => s.agentName).sort()).toEqual(['fork-one', 'fork-three', 'fork-two'])
    const first = ['fork-one', 'fork-two', 'fork-three'].map((n) => bodiesOf(h!, n)[0]!)
    const directives = ['Count the files.', 'List the TODOs.', 'Read the README.']
    // identical once each directive is blanked: the directive is the only difference, and it is last
    const blanked = first.map((b, i) => bytes(b).replace(`Your directive: ${directives[i]}`, 'Your directive: …'))
    expect(new Set(blanked).size).toBe(1)
    // the same on the wire: the raw bodies, breakpoints included, differ only in the directive
    const raw = rawOf(h, 'fork-one').slice(0, 1).concat(rawOf(h, 'fork-two')[0]!, rawOf(h, 'fork-three')[0]!)
    expect(raw.every((r) => typeof r === 'string' && r.length > 0)).toBe(true)
    const rawBlanked = raw.map((r, i) => r.replace(`Your directive: ${directives[i]}`, 'Your directive: …'))
    expect(rawBlanked.every((r, i) => r !== raw[i])).toBe(true)
    expect(new Set(rawBlanked).size).toBe(1)
    for (const [i, b] of first.entries())
      expect(b.messages.at(-1)!.content.at(-1)!.text!.endsWith(`Your directive: ${directives[i]}`)).toBe(true)
    // the fork's history is the parent's, then one user message: a placeholder per tool_use, then the directive
    const leaderFirst = bodiesOf(h, 'team-lead')[0]!
    const forkMessages = first[0]!.messages
    expect(bytes(forkMessages.slice(0, leaderFirst.messages.length))).toBe(bytes(leaderFirst.messages))
    const last = forkMessages.at(-1)!
    expect(last.content.map((b) => b.type)).toEqual(['tool_result', 'tool_result', 'tool_result', 'text'])
    expect(last.content.slice(0, 3).every((b) => b.content === FORK_PLACEHOLDER)).toBe(true)
    // prompt cache: every fork reads the parent's prefix; the later forks read all but their directive
    const usage = (name: string) => ofType(h!.events, 'usage').find((u) => u.agentName === name)!
    const [u1, u2, u3] = ['fork-one', 'fork-two', 'fork-three'].map(usage)
    expect(u1!.cacheReadInputTokens).toBeGreaterThan(0)
    for (const u of [u2!, u3!]) {
      const total = u.inputTokens + u.cacheReadInputTokens + u.cacheCreationInputTokens
      expect(u.cacheReadInputTokens / total).toBeGreaterThan(0.9)
      expect(u.cacheReadInputTokens).toBeGreaterThan(u1!.cacheReadInputTokens)
    }
    expect(ofType(h.events, 'task_notification')).toHaveLength(3)
  })

  it('refuses a fork that tries to start agents (query-source guard)', async () => {
    h = await startSubagentHarness(
      {
        agents: {
          'team-lead': [
            { tools: [{ name: 'Agent', input: { description: 'forker', prompt: 'try to fork' } }] },
            { text: 'ok' },
            { when: '<task-notification>', text: 'noted' }
          ],
          forker: [
            {
              tools: [
                { name: 'Agent', input: { description: 'grandchild', prompt: 'x' } },
                { name: 'Agent', input: { subagent_type: 'Explore', description: 'typed', prompt: 'x' } }
              ]
            },
            { text: 'could not' }
          ]
        }
      },
      { subagents: { forkEnabled: true } }
    )
    await runUntilSettled(h.session, 'go')
    const refusals = ofType(h.events, 'tool_result').filter((r) => r.agentName === 'forker')
    expect(refusals.map((r) => [r.isError, r.output])).toEqual([
      [true, 'A fork cannot start agents: carry out your directive yourself and report back.'],
      [true, 'A fork cannot start agents: carry out your directive yourself and report back.']
    ])
    expect(ofType(h.events, 'agent_started').map((s) => s.agentName)).toEqual(['team-lead', 'forker'])
  })

  it('refuses to fork from a history that carries a fork directive (history-scan guard)', async () => {
    h = await startSubagentHarness(
      {
        agents: {
          'team-lead': [{ tools: [{ name: 'Agent', input: { description: 'again', prompt: 'x' } }] }, { text: 'ok' }]
        }
      },
      { subagents: { forkEnabled: true } }
    )
    await runUntilSettled(
      h.session,
      '<fork-boilerplate>\nleftover of an earlier fork\n</fork-boilerplate>\n\nYour directive: continue'
    )
    const result = ofType(h.events, 'tool_result')[0]!
    expect(result).toMatchObject({ isError: true })
    expect(result.output).toMatch(/^A fork cannot fork/)
    expect(ofType(h.events, 'agent_started')).toHaveLength(1)
  })

  it('resumes a finished fork with a request that starts with its previous request', async () => {
    h = await startSubagentHarness(
      {
        agents: {
          'team-lead': [
            { tools: [{ name: 'Agent', input: { description: 'resumable', prompt: 'first pass' } }] },
            { text: 'ok' },
            {
              when: '<task-notification>',
              tools: [{ name: 'SendMessage', input: { to: '{{last_agent_id}}', message: 'second pass please' } }]
            },
            { text: 'asked again' },
            { when: '<task-notification>', text: 'both passes done' }
          ],
          resumable: [{ text: 'first pass done' }, { when: 'second pass please', text: 'second pass done' }]
        }
      },
      { subagents: { forkEnabled: true } }
    )
    const end = await runUntilSettled(h.session, 'go')
    expect(end.finalText).toBe('both passes done')
    const [before, after] = bodiesOf(h, 'resumable')
    expect(before).toBeDefined()
    expect(after).toBeDefined()
    // everything the first request sent is sent again, byte for byte, before the new message
    expect(bytes(after!.messages.slice(0, before!.messages.length))).toBe(bytes(before!.messages))
    // and on the wire: all that precedes the messages, then the earlier messages, are the same bytes
    const [rawBefore, rawAfter] = rawOf(h, 'resumable').map(withoutBreakpoints)
    const messagesBefore = JSON.stringify((JSON.parse(rawBefore!) as Body).messages)
    const at = rawBefore!.indexOf(`"messages":${messagesBefore}`)
    expect(at).toBeGreaterThanOrEqual(0)
    expect(rawAfter!.slice(0, at)).toBe(rawBefore!.slice(0, at))
    expect(rawAfter!.slice(at).startsWith(`"messages":${messagesBefore.slice(0, -1)},`)).toBe(true)
  })
})

describe('the query-source guard alone', () => {
  it('still refuses a fork whose history was compacted or rewritten so no directive shows', async () => {
    h = await startSubagentHarness(
      {
        agents: {
          'team-lead': [
            { tools: [{ name: 'Agent', input: { description: 'sleepy fork', prompt: 'wait a little' } }] },
            { text: 'ok' },
            { when: '<task-notification>', text: 'noted' }
          ],
          'sleepy-fork': [{ delayMs: 800, text: 'done' }]
        }
      },
      { subagents: { forkEnabled: true } }
    )
    const settled = runUntilSettled(h.session, 'go')
    const rt = h.session.subagents!
    const deadline = Date.now() + 10_000
    while (!rt.list().some((t) => t.agentType === 'fork') && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 10))
    const task = rt.get(rt.list().find((t) => t.agentType === 'fork')!.agentId)!
    // what a compaction leaves: a summary instead of the directive
    task.messages.splice(0, task.messages.length, {
      role: 'user',
      content: [{ type: 'text', text: 'Summary of earlier work.' }]
    })
    const self = asParent(task)
    expect(historyIsFork(self.forkSource().messages)).toBe(false)
    await expect(
      AgentTool.call(
        { description: 'grandchild', prompt: 'x' },
        {
          agentId: task.agentId,
          agentName: task.agentName,
          cwd: task.cwd,
          signal: new AbortController().signal,
          fileState: task.fileState,
          pty: h.pty,
          shells: task.shells,
          toolUseId: 'toolu_guard',
          services: { subagents: rt, self }
        }
      )
    ).rejects.toThrow('A fork cannot start agents')
    await settled
  })
})

describe('fork + worktree', () => {
  it('runs an isolated fork in its own worktree and tells it how to translate the inherited paths', async () => {
    h = await startSubagentHarness(
      {
        agents: {
          'team-lead': [
            {
              tools: [
                { name: 'Agent', input: { description: 'iso fork', prompt: 'work apart', isolation: 'worktree' } }
              ]
            },
            { text: 'ok' },
            { when: '<task-notification>', text: 'noted' }
          ],
          'iso-fork': [{ tools: [{ name: 'Bash', input: { command: 'pwd' } }] }, { text: 'worked apart' }]
        }
      },
      { subagents: { forkEnabled: true }, mode: 'bypassPermissions' }
    )
    await runUntilSettled(h.session, 'go')
    const fork = ofType(h.events, 'agent_started').find((s) => s.agentType === 'fork')!
    expect(fork.cwd).toContain('/.swarmdesk/worktrees/agent-')
    const directive = bodiesOf(h, 'iso-fork')[0]!.messages.at(-1)!.content.at(-1)!.text!
    expect(directive).toContain(`Paths in the inherited messages refer to the parent's checkout ${h.work}`)
    expect(directive.endsWith('Your directive: work apart')).toBe(true)
    expect(
      ofType(h.events, 'tool_result')
        .find((r) => r.agentName === 'iso-fork')!
        .output.trim()
    ).toBe(fork.cwd)
  })
})
