import { appendFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { RuntimeEvent } from '../../../../shared/events'
import { EventBus } from '../../events/bus'
import { waitFor } from '../../pty/pty.testkit'
import { AGENT_STARTED_SUBTYPE, AGENT_STOPPED_SUBTYPE, type AgentStartedRecord } from '../../transcripts/schema'
import { TranscriptWriter } from '../../transcripts/writer'
import { SubagentFollower, type SubagentFollowerOptions } from './subagentFollower'

let home: string
let agents: string
let followers: SubagentFollower[]
let writers: TranscriptWriter[]

beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'swarmdesk-subfollow-'))
  agents = join(home, 'projects', 'ws', 'session-1', 'agents')
  followers = []
  writers = []
})

afterEach(() => {
  for (const f of followers) f.close()
  for (const w of writers) w.close()
  rmSync(home, { recursive: true, force: true })
})

const ALICE = 'alice@crew'

/** A follower of alice's subagents with its events collected. A minute's poll: only fs.watch delivers unless `pollMs` is given. */
function follow(extra: Partial<SubagentFollowerOptions> = {}) {
  const bus = new EventBus()
  const events: RuntimeEvent[] = []
  const warnings: string[] = []
  bus.onEvent((e) => events.push(e))
  const follower = new SubagentFollower({
    dir: agents,
    parentId: ALICE,
    bus,
    pollMs: 60_000,
    onWarning: (w) => warnings.push(w),
    ...extra
  })
  followers.push(follower)
  return { follower, events, warnings, of: (agentId: string) => events.filter((e) => e.agentId === agentId).map(brief) }
}

/** An event without seq/time/agent id, for comparisons. */
function brief(e: RuntimeEvent): Record<string, unknown> {
  const { seq: _seq, time: _time, agentId: _id, ...rest } = e
  return rest
}

/**
 * A subagent's transcript as the subagent runtime writes it: its `agent_started` line first. The
 * file name is `file` (its id by default): the follower must go by the header, not by the name.
 */
function subagent(
  agentId: string,
  parentId: string,
  agentName: string,
  depth = 1,
  file = `${agentId}.jsonl`
): TranscriptWriter {
  const w = new TranscriptWriter(join(agents, file), agentId)
  writers.push(w)
  const header: AgentStartedRecord = {
    agentId,
    agentName,
    agentType: 'Explore',
    description: agentName.replace(/-/g, ' '),
    parentId,
    depth,
    model: 'claude-sonnet-5-5',
    cwd: '/work',
    isAsync: false
  }
  w.append('system', header, AGENT_STARTED_SUBTYPE)
  return w
}

const user = (text: string) => ({ role: 'user', content: [{ type: 'text', text }] })
const readCall = (id: string) => ({
  role: 'assistant',
  content: [
    { type: 'text', text: 'Reading.' },
    { type: 'tool_use', id, name: 'Read', input: { file_path: 'notes.txt' } }
  ]
})
const readResult = (id: string) => ({
  role: 'user',
  content: [{ type: 'tool_result', tool_use_id: id, content: 'SECRET-NOTE' }]
})
const final = (text: string) => ({ role: 'assistant', content: [{ type: 'text', text }] })

/** A whole run: prompt, a Read, its result, the final text, the end line. */
function work(w: TranscriptWriter, toolUseId: string, end = true): void {
  w.append('user', user('Read notes.txt'))
  w.append('assistant', readCall(toolUseId))
  w.append('user', readResult(toolUseId))
  w.append('assistant', final('The notes hold SECRET-NOTE.'))
  if (end) w.append('system', { status: 'completed' }, AGENT_STOPPED_SUBTYPE)
}

const started = (agentName: string, parentId: string, depth = 1) => [
  { type: 'agent_started', agentName, agentType: 'Explore', parentId, depth, model: 'claude-sonnet-5-5', cwd: '/work' },
  { type: 'agent_state', agentName, state: 'running' }
]
const worked = (agentName: string, toolUseId: string) => [
  { type: 'assistant_text', agentName, text: 'Reading.' },
  { type: 'tool_call', agentName, toolUseId, name: 'Read', input: { file_path: 'notes.txt' } },
  { type: 'tool_result', agentName, toolUseId, isError: false, output: 'SECRET-NOTE' },
  { type: 'assistant_text', agentName, text: 'The notes hold SECRET-NOTE.' }
]
const stopped = (agentName: string, status = 'completed', reason?: string) => [
  { type: 'agent_state', agentName, state: status === 'crashed' ? 'crashed' : 'exited' },
  { type: 'agent_stopped', agentName, status, ...(reason ? { reason } : {}) }
]

describe('SubagentFollower', () => {
  it("replays a teammate's subagent whose whole transcript was written before the follower started, and ignores another agent's subagent and the teammate's own transcript", async () => {
    const own = new TranscriptWriter(join(agents, `${ALICE}.jsonl`), ALICE)
    writers.push(own)
    own.append('user', user('please survey the notes'))
    own.append('assistant', {
      role: 'assistant',
      content: [{ type: 'tool_use', id: 'toolu_agent', name: 'Agent', input: { subagent_type: 'Explore' } }]
    })
    work(subagent('a00000000000000b1', 'bob@crew', 'bobs-helper'), 'toolu_b')
    work(subagent('a00000000000000a1', ALICE, 'read-the-notes'), 'toolu_a')

    const { follower, events, of } = follow()
    expect(of('a00000000000000a1')).toEqual([
      ...started('read-the-notes', ALICE),
      ...worked('read-the-notes', 'toolu_a'),
      ...stopped('read-the-notes')
    ])
    expect(events.every((e) => e.agentId === 'a00000000000000a1')).toBe(true)
    expect(follower.found).toEqual(['a00000000000000a1'])
    // its end closes its tail
    await waitFor(() => follower.followed.length === 0, 5_000)
  })

  it('finds, through fs.watch alone, a subagent started after it in a folder that did not exist, and its own subagent by parent, whatever their file names', async () => {
    const { follower, of } = follow()
    await new Promise((r) => setTimeout(r, 50))
    const child = subagent('a0000000000000c01', ALICE, 'pass-it-on', 1, 'helper-one.jsonl')
    child.append('user', user('Have someone read notes.txt'))
    await waitFor(() => of('a0000000000000c01').length === 2, 5_000)
    const grandchild = subagent('a0000000000000c02', 'a0000000000000c01', 'deep-read', 2, 'zz-other.jsonl')
    work(grandchild, 'toolu_deep')
    // a stranger's child with a name that looks like alice's is no business of hers
    work(subagent('a0000000000000c03', 'team-lead', 'lead-helper', 1, `${ALICE}-sub.jsonl`), 'toolu_lead')
    await waitFor(() => of('a0000000000000c02').length === 8, 5_000)
    expect(of('a0000000000000c02')).toEqual([
      ...started('deep-read', 'a0000000000000c01', 2),
      ...worked('deep-read', 'toolu_deep'),
      ...stopped('deep-read')
    ])
    child.append('assistant', final('Deep read found SECRET-NOTE.'))
    child.append('system', { status: 'completed' }, AGENT_STOPPED_SUBTYPE)
    await waitFor(() => of('a0000000000000c01').length === 5, 5_000)
    expect(of('a0000000000000c01').slice(2)).toEqual([
      { type: 'assistant_text', agentName: 'pass-it-on', text: 'Deep read found SECRET-NOTE.' },
      ...stopped('pass-it-on')
    ])
    expect(of('a0000000000000c03')).toEqual([])
    expect(follower.found).toEqual(['a0000000000000c01', 'a0000000000000c02'])
  })

  it('picks up a transcript whose header was still being written at the first look', async () => {
    mkdirSync(agents, { recursive: true })
    const path = join(agents, 'a0000000000000d01.jsonl')
    const w = new TranscriptWriter(join(home, 'scratch.jsonl'), 'a0000000000000d01')
    writers.push(w)
    const line = JSON.stringify(
      w.append(
        'system',
        {
          agentId: 'a0000000000000d01',
          agentName: 'slow-start',
          agentType: 'Explore',
          description: 'slow start',
          parentId: ALICE,
          depth: 1,
          isAsync: false
        },
        AGENT_STARTED_SUBTYPE
      )
    )
    writeFileSync(path, line.slice(0, 40))
    const { follower, of } = follow()
    expect(follower.found).toEqual([])
    appendFileSync(path, `${line.slice(40)}\n`)
    await waitFor(() => of('a0000000000000d01').length === 2, 5_000)
    expect(of('a0000000000000d01')[0]).toMatchObject({
      type: 'agent_started',
      agentName: 'slow-start',
      parentId: ALICE
    })
  })

  it('follows at most maxFollowed transcripts at once; the next waits and is then read from its first line', async () => {
    const first = subagent('a0000000000000e01', ALICE, 'first-helper')
    first.append('user', user('one'))
    const second = subagent('a0000000000000e02', ALICE, 'second-helper')
    work(second, 'toolu_second', false)
    const { follower, of } = follow({ maxFollowed: 1 })
    expect(follower.followed).toEqual(['a0000000000000e01'])
    expect(follower.found).toEqual(['a0000000000000e01', 'a0000000000000e02'])
    expect(of('a0000000000000e02')).toEqual([])
    first.append('system', { status: 'failed', reason: 'max_turns' }, AGENT_STOPPED_SUBTYPE)
    await waitFor(() => follower.followed[0] === 'a0000000000000e02', 5_000)
    expect(of('a0000000000000e01').slice(2)).toEqual(stopped('first-helper', 'failed', 'max_turns'))
    expect(of('a0000000000000e02')).toEqual([
      ...started('second-helper', ALICE),
      ...worked('second-helper', 'toolu_second')
    ])
  })

  it('leaves alone the files it is told to skip (an earlier run of the teammate)', () => {
    work(subagent('a0000000000000f01', ALICE, 'old-helper'), 'toolu_old')
    const { follower, events } = follow({ skip: ['a0000000000000f01.jsonl'] })
    expect(events).toEqual([])
    expect(follower.found).toEqual([])
  })

  it("on close reads what is left, stops each subagent that wrote no end with the teammate's fate (child before parent), and releases its watch and tails", async () => {
    const { follower, events, of } = follow()
    await new Promise((r) => setTimeout(r, 50))
    const parent = subagent('a0000000000000g01', ALICE, 'outer')
    const child = subagent('a0000000000000g02', 'a0000000000000g01', 'inner', 2)
    await waitFor(() => follower.followed.length === 2, 5_000)
    expect(follower.watching).toBe(true)
    // written just before the teammate died, read by close's last pass
    child.append('assistant', readCall('toolu_cut'))
    follower.close({ status: 'crashed', reason: 'its teammate alice ended before it finished (killed by SIGKILL)' })
    expect(of('a0000000000000g02').slice(2)).toEqual([
      { type: 'assistant_text', agentName: 'inner', text: 'Reading.' },
      {
        type: 'tool_call',
        agentName: 'inner',
        toolUseId: 'toolu_cut',
        name: 'Read',
        input: { file_path: 'notes.txt' }
      },
      ...stopped('inner', 'crashed', 'its teammate alice ended before it finished (killed by SIGKILL)')
    ])
    const ends = events.filter((e) => e.type === 'agent_stopped').map((e) => e.agentName)
    expect(ends).toEqual(['inner', 'outer'])
    expect(follower.followed).toEqual([])
    expect(follower.watching).toBe(false)
    // nothing after close
    parent.append('assistant', final('late'))
    await new Promise((r) => setTimeout(r, 100))
    expect(of('a0000000000000g01').map((e) => e.type)).toEqual([
      'agent_started',
      'agent_state',
      'agent_state',
      'agent_stopped'
    ])
  })

  it('refuses a bound below one with a clear error', () => {
    expect(() => follow({ maxFollowed: 0 })).toThrow(
      /maxFollowed must be a whole number of transcripts, at least 1 \(got 0\)/
    )
  })
})
