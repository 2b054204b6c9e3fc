import { appendFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { INTERRUPTED_TOOL_RESULT, messagesForResume, readTranscript } from './reader'
import { TranscriptWriter } from './writer'

let dir: string
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'swarmdesk-transcript-'))
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

const user = (text: string) => ({ role: 'user', content: [{ type: 'text', text }] })

describe('transcripts', () => {
  it('appends one JSON line per message, chained by parentUuid, and never rewrites earlier lines', () => {
    const path = join(dir, 'a', 'transcript.jsonl')
    const w = new TranscriptWriter(path, 'team-lead')
    const first = w.append('user', user('hi'))
    const before = readFileSync(path, 'utf8')
    const second = w.append('assistant', { role: 'assistant', content: [{ type: 'text', text: 'hello' }] })
    w.close()
    expect(readFileSync(path, 'utf8').startsWith(before)).toBe(true)
    expect(second.parentUuid).toBe(first.uuid)
    expect(() => w.append('user', user('late'))).toThrow(/closed/)
    const { entries, warnings } = readTranscript(path)
    expect(warnings).toEqual([])
    expect(entries.map((e) => [e.type, e.agentId, e.schemaVersion])).toEqual([
      ['user', 'team-lead', 1],
      ['assistant', 'team-lead', 1]
    ])
  })

  it('skips a torn last line with a warning naming it, keeping every complete line', () => {
    const path = join(dir, 't.jsonl')
    const w = new TranscriptWriter(path, 'team-lead')
    w.append('user', user('one'))
    w.close()
    appendFileSync(path, '{"schemaVersion":1,"uuid":"x","parentUu')
    const { entries, warnings } = readTranscript(path)
    expect(entries).toHaveLength(1)
    expect(warnings).toEqual([`${path}:2: torn last line (the process stopped mid-write) skipped`])
  })

  it('a writer opened on a transcript with a torn last line ends that line first: the next line is never swallowed', () => {
    const path = join(dir, 'torn.jsonl')
    const w = new TranscriptWriter(path, 'team-lead')
    const first = w.append('user', user('one'))
    w.close()
    appendFileSync(path, '{"schemaVersion":1,"uuid":"x","parentUu')
    const again = new TranscriptWriter(path, 'team-lead', first.uuid)
    again.append('user', user('Survey again'))
    again.close()
    const { entries, warnings } = readTranscript(path)
    expect(entries.map((e) => (e.message as { content: Array<{ text: string }> }).content[0]!.text)).toEqual([
      'one',
      'Survey again'
    ])
    expect(warnings).toEqual([`${path}:2: unreadable line skipped`])
    // a whole file is left as it is
    const whole = readFileSync(path, 'utf8')
    new TranscriptWriter(path, 'team-lead').close()
    expect(readFileSync(path, 'utf8')).toBe(whole)
  })

  it('resumes from the last compact boundary and closes dangling tool calls', () => {
    const path = join(dir, 'c.jsonl')
    const w = new TranscriptWriter(path, 'team-lead')
    w.append('user', user('old turn'))
    w.append('system', { summary: 's' }, 'compact_boundary')
    w.append('user', user('summary of old turn'))
    w.append('assistant', {
      role: 'assistant',
      content: [{ type: 'tool_use', id: 'toolu_1', name: 'Bash', input: { command: 'sleep 9' } }]
    })
    w.close()
    const { messages, repair } = messagesForResume(readTranscript(path).entries)
    expect(messages[0]).toEqual(user('summary of old turn'))
    expect(messages).toHaveLength(3)
    expect(repair).toEqual({
      role: 'user',
      content: [{ type: 'tool_result', tool_use_id: 'toolu_1', is_error: true, content: INTERRUPTED_TOOL_RESULT }]
    })
  })

  it('answers interrupted calls earlier in the history too: a user message recorded after them gets their placeholder results first', () => {
    const path = join(dir, 'broken.jsonl')
    const w = new TranscriptWriter(path, 'team-lead')
    w.append('user', user('spawn the team'))
    w.append('assistant', {
      role: 'assistant',
      content: [
        { type: 'tool_use', id: 'toolu_a', name: 'Agent', input: {} },
        { type: 'tool_use', id: 'toolu_b', name: 'Agent', input: {} }
      ]
    })
    // a wake recorded straight after the interrupted turn, without the calls' results
    w.append('user', {
      role: 'user',
      content: [
        { type: 'text', text: '<teammate-message>idle</teammate-message>' },
        { type: 'tool_result', tool_use_id: 'toolu_b', content: 'ok' }
      ]
    })
    w.append('assistant', { role: 'assistant', content: [{ type: 'text', text: 'noted' }] })
    w.close()
    const entries = readTranscript(path).entries
    const before = JSON.stringify(entries)
    const { messages, repair } = messagesForResume(entries)
    expect(repair).toBeUndefined()
    expect(messages).toHaveLength(4)
    expect(messages[2]).toEqual({
      role: 'user',
      content: [
        { type: 'tool_result', tool_use_id: 'toolu_b', content: 'ok' },
        { type: 'tool_result', tool_use_id: 'toolu_a', is_error: true, content: INTERRUPTED_TOOL_RESULT },
        { type: 'text', text: '<teammate-message>idle</teammate-message>' }
      ]
    })
    expect(messages[3]).toEqual({ role: 'assistant', content: [{ type: 'text', text: 'noted' }] })
    expect(JSON.stringify(entries)).toBe(before)
  })

  it('leaves a history whose calls are all answered exactly as recorded', () => {
    const path = join(dir, 'whole.jsonl')
    const w = new TranscriptWriter(path, 'team-lead')
    const recorded = [
      user('read it'),
      { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'Read', input: {} }] },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'toolu_1', content: 'x' },
          { type: 'text', text: 'more' }
        ]
      },
      { role: 'assistant', content: [{ type: 'text', text: 'done' }] }
    ]
    for (const m of recorded) w.append(m.role === 'user' ? 'user' : 'assistant', m)
    w.close()
    expect(messagesForResume(readTranscript(path).entries)).toEqual({ messages: recorded })
  })
})
