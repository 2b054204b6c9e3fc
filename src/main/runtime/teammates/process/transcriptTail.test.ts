import { appendFileSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { RuntimeEvent } from '../../../../shared/events'
import { EventBus } from '../../events/bus'
import { costOf } from '../../model/pricing'
import { waitFor } from '../../pty/pty.testkit'
import { TranscriptWriter } from '../../transcripts/writer'
import { TranscriptTail, type TranscriptTailOptions } from './transcriptTail'

let dir: string
let tails: TranscriptTail[]

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'swarmdesk-tail-'))
  tails = []
})

afterEach(() => {
  for (const t of tails) t.close()
  rmSync(dir, { recursive: true, force: true })
})

/** A tail on `path` with its events and warnings collected. A minute's poll: only fs.watch delivers unless `pollMs` is given. */
function follow(path: string, extra: Partial<TranscriptTailOptions> = {}) {
  const bus = new EventBus()
  const events: RuntimeEvent[] = []
  const warnings: string[] = []
  bus.onEvent((e) => events.push(e))
  const tail = new TranscriptTail({
    path,
    bus,
    agentId: 'alice@crew',
    agentName: 'alice',
    pollMs: 60_000,
    onWarning: (w) => warnings.push(w),
    ...extra
  })
  tails.push(tail)
  return { tail, events, warnings, brief: () => events.map(brief) }
}

/** An event without seq/time/agent, for comparisons. */
function brief(e: RuntimeEvent): Record<string, unknown> {
  const { seq: _seq, time: _time, agentId: _id, agentName: _name, ...rest } = e
  return rest
}

const user = (text: string) => ({ role: 'user', content: [{ type: 'text', text }] })
const assistant = (...content: unknown[]) => ({ role: 'assistant', content })
const text = (t: string) => ({ type: 'text', text: t })
const toolUse = (id: string, name: string, input: unknown) => ({ type: 'tool_use', id, name, input })
const result = (id: string, content: unknown, isError = false) => ({
  role: 'user',
  content: [{ type: 'tool_result', tool_use_id: id, content, ...(isError ? { is_error: true } : {}) }]
})

describe('TranscriptTail', () => {
  it('follows a transcript created later in directories that do not exist yet, through fs.watch alone', async () => {
    const path = join(dir, 'projects', 'ws', 'session-1', 'agents', 'alice@crew.jsonl')
    const { events, brief } = follow(path)
    await new Promise((r) => setTimeout(r, 50))
    expect(events).toEqual([])
    const w = new TranscriptWriter(path, 'alice@crew')
    w.append('user', user('please list the files'))
    w.append('assistant', assistant(text('Listing them.'), toolUse('toolu_1', 'Bash', { command: 'ls' })))
    await waitFor(() => events.length === 2, 5_000)
    w.append('user', result('toolu_1', 'a.txt\nb.txt'))
    w.append('assistant', assistant(text('Two files.')))
    w.close()
    await waitFor(() => events.length === 4, 5_000)
    expect(brief()).toEqual([
      { type: 'assistant_text', text: 'Listing them.' },
      { type: 'tool_call', toolUseId: 'toolu_1', name: 'Bash', input: { command: 'ls' } },
      { type: 'tool_result', toolUseId: 'toolu_1', isError: false, output: 'a.txt\nb.txt' },
      { type: 'assistant_text', text: 'Two files.' }
    ])
    expect(events.every((e) => e.agentId === 'alice@crew' && e.agentName === 'alice')).toBe(true)
  })

  it('holds a partial line (even a split UTF-8 character) until it is complete, and emits it exactly once', async () => {
    const path = join(dir, 't.jsonl')
    appendFileSync(path, '')
    const { tail, events, brief } = follow(path)
    const line =
      JSON.stringify({
        schemaVersion: 1,
        uuid: 'u1',
        parentUuid: null,
        type: 'assistant',
        timestamp: new Date().toISOString(),
        agentId: 'alice@crew',
        message: assistant(text('naïve café ☕ done'))
      }) + '\n'
    const bytes = Buffer.from(line, 'utf8')
    const cut = bytes.indexOf(Buffer.from('☕')) + 1 // inside the 3-byte character
    appendFileSync(path, bytes.subarray(0, cut))
    tail.readNow()
    await new Promise((r) => setTimeout(r, 100))
    expect(events).toEqual([])
    expect(tail.offset).toBe(0)
    appendFileSync(path, bytes.subarray(cut))
    await waitFor(() => events.length === 1, 5_000)
    tail.readNow()
    tail.readNow()
    await new Promise((r) => setTimeout(r, 100))
    expect(brief()).toEqual([{ type: 'assistant_text', text: 'naïve café ☕ done' }])
    expect(tail.offset).toBe(bytes.length)
  })

  it('starts at fromOffset: an earlier run’s lines are never emitted', () => {
    const path = join(dir, 'respawn.jsonl')
    const w = new TranscriptWriter(path, 'alice@crew')
    w.append('assistant', assistant(text('from the first run')))
    const size = statSync(path).size
    w.append('assistant', assistant(text('from the second run')))
    w.close()
    const { tail, brief } = follow(path, { fromOffset: size })
    tail.readNow()
    expect(brief()).toEqual([{ type: 'assistant_text', text: 'from the second run' }])
  })

  it('maps only what the transcript holds: blank text and user prompts emit nothing, error results and block content keep their data', () => {
    const path = join(dir, 'map.jsonl')
    const w = new TranscriptWriter(path, 'alice@crew')
    w.append('user', user('<teammate-message teammate_id="team-lead">hi</teammate-message>'))
    w.append(
      'assistant',
      assistant(
        text('  \n'),
        toolUse('toolu_a', 'Read', { file_path: '/x' }),
        toolUse('toolu_b', 'Grep', { pattern: 'y' })
      )
    )
    w.append('user', {
      role: 'user',
      content: [
        { type: 'tool_result', tool_use_id: 'toolu_a', content: 'File does not exist.', is_error: true },
        { type: 'tool_result', tool_use_id: 'toolu_b', content: [text('line 1'), text('line 2')] }
      ]
    })
    w.append('assistant', { role: 'assistant', content: 'plain string content' })
    w.close()
    const { tail, brief } = follow(path)
    tail.readNow()
    expect(brief()).toEqual([
      { type: 'tool_call', toolUseId: 'toolu_a', name: 'Read', input: { file_path: '/x' } },
      { type: 'tool_call', toolUseId: 'toolu_b', name: 'Grep', input: { pattern: 'y' } },
      { type: 'tool_result', toolUseId: 'toolu_a', isError: true, output: 'File does not exist.' },
      { type: 'tool_result', toolUseId: 'toolu_b', isError: false, output: 'line 1\nline 2' },
      { type: 'assistant_text', text: 'plain string content' }
    ])
  })

  it('emits usage, priced, only when an assistant line carries API usage: beside the message (as the runtime writes it) or inside it', () => {
    const path = join(dir, 'usage.jsonl')
    const w = new TranscriptWriter(path, 'alice@crew')
    const usage = { input_tokens: 12, output_tokens: 5, cache_read_input_tokens: 100, cache_creation_input_tokens: 7 }
    w.append('assistant', { ...assistant(text('with usage')), model: 'claude-sonnet-5-5', usage })
    w.append('assistant', assistant(text('without usage')))
    w.append('assistant', assistant(text('usage beside')), undefined, { model: 'claude-sonnet-5-5', usage })
    w.close()
    const { tail, brief } = follow(path)
    tail.readNow()
    const counted = {
      type: 'usage',
      inputTokens: 12,
      outputTokens: 5,
      cacheCreationInputTokens: 7,
      cacheReadInputTokens: 100,
      model: 'claude-sonnet-5-5',
      costUsd: costOf('claude-sonnet-5-5', {
        inputTokens: 12,
        outputTokens: 5,
        cacheCreationInputTokens: 7,
        cacheReadInputTokens: 100
      })
    }
    expect(counted.costUsd).toBeGreaterThan(0)
    expect(brief()).toEqual([
      { type: 'assistant_text', text: 'with usage' },
      counted,
      { type: 'assistant_text', text: 'without usage' },
      { type: 'assistant_text', text: 'usage beside' },
      counted
    ])
    // the message itself stays the exact API message
    expect(JSON.parse(readFileSync(path, 'utf8').trim().split('\n')[2]!).message).toEqual(
      assistant(text('usage beside'))
    )
  })

  it('skips the history a compaction re-appends, and emits what comes after it', () => {
    const path = join(dir, 'compact.jsonl')
    const w = new TranscriptWriter(path, 'alice@crew')
    const history = [
      user('start'),
      assistant(toolUse('t1', 'Bash', { command: 'a' })),
      result('t1', 'A'),
      assistant(text('kept text'), toolUse('t2', 'Bash', { command: 'b' })),
      result('t2', 'B'),
      assistant(text('done'))
    ]
    for (const m of history) w.append(m.role as 'user' | 'assistant', m)
    // the loop cut at index 3: three messages replaced by one summary, the rest re-appended
    w.append('system', { summary: 'earlier: ran a', replacedMessages: 3 }, 'compact_boundary')
    for (const m of [user('summary of earlier work'), ...history.slice(3)]) w.append(m.role as 'user' | 'assistant', m)
    w.append('user', user('next'))
    w.append('assistant', assistant(text('after compaction')))
    w.close()
    const { tail, brief } = follow(path)
    tail.readNow()
    expect(brief()).toEqual([
      { type: 'tool_call', toolUseId: 't1', name: 'Bash', input: { command: 'a' } },
      { type: 'tool_result', toolUseId: 't1', isError: false, output: 'A' },
      { type: 'assistant_text', text: 'kept text' },
      { type: 'tool_call', toolUseId: 't2', name: 'Bash', input: { command: 'b' } },
      { type: 'tool_result', toolUseId: 't2', isError: false, output: 'B' },
      { type: 'assistant_text', text: 'done' },
      { type: 'notice', level: 'info', message: 'Compacted 3 earlier messages into a summary.' },
      { type: 'assistant_text', text: 'after compaction' }
    ])
  })

  it('skips a corrupt line with a warning and reports a torn last line at close without emitting it', () => {
    const path = join(dir, 'bad.jsonl')
    const w = new TranscriptWriter(path, 'alice@crew')
    w.append('assistant', assistant(text('one')))
    appendFileSync(path, '{"not": "an entry"}\n')
    w.append('assistant', assistant(text('two')))
    w.close()
    appendFileSync(path, '{"schemaVersion":1,"uuid":"x","parentUu')
    const { tail, warnings, brief } = follow(path)
    tail.readNow()
    expect(brief()).toEqual([
      { type: 'assistant_text', text: 'one' },
      { type: 'assistant_text', text: 'two' }
    ])
    expect(warnings).toEqual([expect.stringMatching(/unreadable line skipped/)])
    tail.close()
    expect(tail.closed).toBe(true)
    expect(warnings[1]).toMatch(/torn last line \(\d+ bytes/)
    appendFileSync(path, 'ished":null}\n')
    tail.readNow()
    expect(brief()).toHaveLength(2)
  })

  it('close() reads what was written just before it, then stops following', async () => {
    const path = join(dir, 'close.jsonl')
    const { tail, brief } = follow(path)
    const w = new TranscriptWriter(path, 'alice@crew')
    w.append('assistant', assistant(text('last words')))
    tail.close() // synchronously, before any watch event could be delivered
    expect(brief()).toEqual([{ type: 'assistant_text', text: 'last words' }])
    w.append('assistant', assistant(text('too late')))
    w.close()
    await new Promise((r) => setTimeout(r, 100))
    expect(brief()).toHaveLength(1)
  })

  it('reads by its poll alone when watching is off', async () => {
    const path = join(dir, 'poll.jsonl')
    const { events } = follow(path, { pollMs: 50, watch: false })
    const w = new TranscriptWriter(path, 'alice@crew')
    w.append('assistant', assistant(text('polled')))
    w.close()
    await waitFor(() => events.length === 1, 2_000)
    expect(events[0]).toMatchObject({ type: 'assistant_text', text: 'polled' })
  })
})

describe('TranscriptTail onPrompt', () => {
  it('tells of each prompt that starts a turn, with its line time, and not of tool results or the history a compaction replays', () => {
    const path = join(dir, 'alice@crew.jsonl')
    const prompts: string[] = []
    const { tail } = follow(path, { onPrompt: (at) => prompts.push(at) })
    const w = new TranscriptWriter(path, 'alice@crew')
    const first = w.append('user', user('ping 1'))
    w.append('assistant', assistant(toolUse('toolu_1', 'Bash', { command: 'ls' })))
    w.append('user', result('toolu_1', 'a.txt'))
    w.append('assistant', assistant(text('Done.')))
    tail.readNow()
    expect(prompts).toEqual([first.timestamp])
    w.append('system', { replacedMessages: 3 }, 'compact_boundary')
    w.append('user', user('summary of the conversation'))
    w.append('assistant', assistant(text('Done.')))
    const second = w.append('user', user('ping 2'))
    w.close()
    tail.readNow()
    expect(prompts).toEqual([first.timestamp, second.timestamp])
  })
})
