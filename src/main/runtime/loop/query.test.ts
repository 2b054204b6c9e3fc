import { isProcessAlive, listDescendantPids } from '../processes'
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'

import { CORE_TOOLS } from '../tools/registry'
import { Budget } from './budget'
import { probeTool, runQuery, startLoopHarness, type LoopHarness } from './loop.testkit'

let dir: string
let harness: LoopHarness | undefined

beforeEach(() => {
  dir = realpathSync(mkdtempSync(join(tmpdir(), 'swarmdesk-loop-')))
})
afterEach(async () => {
  await harness?.close()
  harness = undefined
  rmSync(dir, { recursive: true, force: true })
})

type Block = {
  type: string
  text?: string
  content?: unknown
  is_error?: boolean
  cache_control?: unknown
  tool_use_id?: string
}
type Body = { tools: Block[]; system: Block[]; messages: Array<{ role: string; content: Block[] }> }
const bodies = (h: LoopHarness): Body[] => h.server.requests().map((r) => r.body as unknown as Body)
const lastUserBlocks = (body: Body): Block[] => body.messages[body.messages.length - 1]!.content

describe('query() through the real SDK and the scripted model', () => {
  it('streams text, runs a tool, and sends its result back with cache breakpoints marked', async () => {
    writeFileSync(join(dir, 'notes.txt'), 'alpha\nbeta\n')
    harness = await startLoopHarness({
      agents: {
        'team-lead': [
          { text: 'Reading the notes.', tools: [{ name: 'Read', input: { file_path: 'notes.txt' } }] },
          { text: 'The notes have two lines.' }
        ]
      }
    })
    const { events, end } = await runQuery(harness, { cwd: dir, tools: [...CORE_TOOLS] })
    expect(end).toMatchObject({ reason: 'completed', finalText: 'The notes have two lines.', turns: 2 })
    expect(events.filter((e) => e.type === 'text_delta').length).toBeGreaterThan(0)
    const call = events.find((e) => e.type === 'tool_call')
    expect(call).toMatchObject({ name: 'Read', input: { file_path: 'notes.txt' } })

    const [first, second] = bodies(harness)
    // what the server received second carries the real file content as the tool_result
    const result = lastUserBlocks(second!)[0]!
    expect(result.type).toBe('tool_result')
    expect(JSON.stringify(result.content)).toContain('beta')
    // breakpoints: last tool, last system block, last block of the last message; nothing else
    expect(first!.tools[first!.tools.length - 1]!.cache_control).toEqual({ type: 'ephemeral' })
    expect(first!.tools[0]!.cache_control).toBeUndefined()
    expect(first!.system[first!.system.length - 1]!.cache_control).toEqual({ type: 'ephemeral' })
    expect(lastUserBlocks(second!).at(-1)!.cache_control).toEqual({ type: 'ephemeral' })
    const earlier = JSON.stringify(second!.messages.slice(0, -1))
    expect(earlier).not.toContain('cache_control')
  })

  it('runs concurrency-safe calls in parallel and the others one by one, in order', async () => {
    const log: Array<{ id: string; start: number; end: number }> = []
    const tools = [probeTool('SafeProbe', true, log), probeTool('SerialProbe', false, log)]
    harness = await startLoopHarness({
      agents: {
        'team-lead': [
          {
            tools: [
              { name: 'SafeProbe', input: { id: 's1', ms: 150 } },
              { name: 'SafeProbe', input: { id: 's2', ms: 150 } },
              { name: 'SafeProbe', input: { id: 's3', ms: 150 } },
              { name: 'SerialProbe', input: { id: 'w1', ms: 60 } },
              { name: 'SerialProbe', input: { id: 'w2', ms: 60 } }
            ]
          },
          { text: 'done' }
        ]
      }
    })
    await runQuery(harness, { cwd: dir, tools })
    const byId = Object.fromEntries(log.map((l) => [l.id, l]))
    // the three safe calls overlap: each starts before any of them ends
    const firstSafeEnd = Math.min(byId.s1!.end, byId.s2!.end, byId.s3!.end)
    for (const id of ['s1', 's2', 's3']) expect(byId[id]!.start).toBeLessThan(firstSafeEnd)
    // the serial calls start only after every safe call ended, and w2 only after w1 ended
    const lastSafeEnd = Math.max(byId.s1!.end, byId.s2!.end, byId.s3!.end)
    expect(byId.w1!.start).toBeGreaterThanOrEqual(lastSafeEnd)
    expect(byId.w2!.start).toBeGreaterThanOrEqual(byId.w1!.end)
    // results go back in call order
    const ids = lastUserBlocks(bodies(harness)[1]!).map((b) => b.tool_use_id)
    const calls = (bodies(harness)[1]!.messages.at(-2)!.content as Array<{ id?: string }>)
      .filter((b) => b.id)
      .map((b) => b.id)
    expect(ids).toEqual(calls)
  })

  it('stops at maxTurns without sending another request', async () => {
    harness = await startLoopHarness({
      agents: {
        'team-lead': Array.from({ length: 5 }, (_, i) => ({
          tools: [{ name: 'Bash', input: { command: `echo turn${i} >> turns.txt` } }]
        }))
      }
    })
    const { end } = await runQuery(harness, { cwd: dir, tools: [...CORE_TOOLS], maxTurns: 2 })
    expect(end.reason).toBe('max_turns')
    expect(harness.server.requests()).toHaveLength(2)
    expect(readFileSync(join(dir, 'turns.txt'), 'utf8')).toBe('turn0\nturn1\n')
  })

  it('stops at the first turn boundary once the budget is spent', async () => {
    harness = await startLoopHarness({
      agents: {
        'team-lead': [
          { tools: [{ name: 'Bash', input: { command: 'echo one >> spent.txt' } }] },
          { tools: [{ name: 'Bash', input: { command: 'echo two >> spent.txt' } }] }
        ]
      }
    })
    const budget = new Budget(0.000001)
    const { end } = await runQuery(harness, { cwd: dir, tools: [...CORE_TOOLS], budget })
    expect(end.reason).toBe('budget')
    expect(budget.spentUsd).toBeGreaterThan(0.000001)
    expect(harness.server.requests()).toHaveLength(1)
    expect(readFileSync(join(dir, 'spent.txt'), 'utf8')).toBe('one\n')
  })

  it('sends a tool failure back to the model as an error result and keeps going', async () => {
    harness = await startLoopHarness({
      agents: {
        'team-lead': [
          {
            tools: [
              { name: 'Read', input: { file_path: 'missing.txt' } },
              { name: 'Nope', input: {} }
            ]
          },
          { text: 'recovered' }
        ]
      }
    })
    const { end } = await runQuery(harness, { cwd: dir, tools: [...CORE_TOOLS] })
    expect(end.reason).toBe('completed')
    const [missing, unknown] = lastUserBlocks(bodies(harness)[1]!)
    expect(missing).toMatchObject({ is_error: true })
    expect(JSON.stringify(missing!.content)).toMatch(/not exist|no such|not found/i)
    expect(unknown).toMatchObject({ is_error: true })
    expect(JSON.stringify(unknown!.content)).toContain('No such tool: Nope')
  })

  it('aborts mid-stream without running the pending response', async () => {
    harness = await startLoopHarness({
      agents: {
        'team-lead': [{ delayMs: 5000, tools: [{ name: 'Write', input: { file_path: 'late.txt', content: 'x' } }] }]
      }
    })
    const controller = new AbortController()
    setTimeout(() => controller.abort(), 200)
    const started = Date.now()
    const { end } = await runQuery(harness, { cwd: dir, tools: [...CORE_TOOLS], signal: controller.signal })
    expect(end.reason).toBe('aborted')
    expect(Date.now() - started).toBeLessThan(4000)
    expect(existsSync(join(dir, 'late.txt'))).toBe(false)
  })

  it('aborts mid-tool and leaves no process of the command alive', async () => {
    harness = await startLoopHarness({
      agents: {
        'team-lead': [
          { tools: [{ name: 'Bash', input: { command: 'sleep 300 & sleep 300 & wait' } }] },
          { text: 'never' }
        ]
      }
    })
    const controller = new AbortController()
    const pty = harness.pty
    let pids: number[] = []
    const { end, events } = await runQuery(
      harness,
      { cwd: dir, tools: [...CORE_TOOLS], signal: controller.signal },
      (e) => {
        if (e.type === 'tool_call') {
          setTimeout(() => {
            pids = pty.livePids().flatMap((p) => [p, ...listDescendantPids(p)])
            controller.abort()
          }, 500)
        }
      }
    )
    expect(end.reason).toBe('aborted')
    expect(pids.length).toBeGreaterThanOrEqual(3)
    expect(pids.filter(isProcessAlive)).toEqual([])
    expect(events.find((e) => e.type === 'tool_result')).toMatchObject({ isError: true })
    expect(harness.server.requests()).toHaveLength(1)
  })

  it('retries a 429 and succeeds, running the tool once', async () => {
    harness = await startLoopHarness({
      agents: {
        'team-lead': [
          { fault: 'rate_limit', tools: [{ name: 'Bash', input: { command: 'echo ran >> count.txt' } }] },
          { text: 'ok' }
        ]
      }
    })
    const { end } = await runQuery(harness, { cwd: dir, tools: [...CORE_TOOLS] })
    expect(end.reason).toBe('completed')
    expect(harness.server.requests()).toHaveLength(3)
    expect(readFileSync(join(dir, 'count.txt'), 'utf8')).toBe('ran\n')
  })

  it('retries an overload before any content, running the tool once', async () => {
    harness = await startLoopHarness({
      agents: {
        'team-lead': [
          { fault: 'overloaded', tools: [{ name: 'Bash', input: { command: 'echo ran >> count.txt' } }] },
          { text: 'ok' }
        ]
      }
    })
    const { end } = await runQuery(harness, { cwd: dir, tools: [...CORE_TOOLS] })
    expect(end.reason).toBe('completed')
    expect(readFileSync(join(dir, 'count.txt'), 'utf8')).toBe('ran\n')
    expect(harness.server.stats().faultsInjected).toBe(1)
  })

  it('fails the turn on an overload after content and never re-runs an earlier tool', async () => {
    harness = await startLoopHarness({
      agents: {
        'team-lead': [
          { tools: [{ name: 'Bash', input: { command: 'echo ran >> count.txt' } }] },
          {
            fault: 'overloaded_mid_stream',
            text: 'Writing the file now, a long sentence so content streams first.',
            tools: [{ name: 'Write', input: { file_path: 'after.txt', content: 'x' } }]
          }
        ]
      }
    })
    const { end } = await runQuery(harness, { cwd: dir, tools: [...CORE_TOOLS] })
    expect(end.reason).toBe('model_error')
    if (end.reason === 'model_error') expect(end.error.kind).toBe('overloaded')
    expect(harness.server.requests()).toHaveLength(2)
    expect(readFileSync(join(dir, 'count.txt'), 'utf8')).toBe('ran\n')
    expect(existsSync(join(dir, 'after.txt'))).toBe(false)
  })
})

describe('context compaction', () => {
  it('replaces older turns with a model-written summary past 85% of the window, keeping recent turns verbatim', async () => {
    harness = await startLoopHarness({
      agents: {
        'team-lead': [
          { tools: [{ name: 'Bash', input: { command: 'seq 1000 1400' } }] },
          { tools: [{ name: 'Bash', input: { command: 'seq 2000 2400' } }] },
          { tools: [{ name: 'Bash', input: { command: 'seq 3000 3400' } }] },
          { when: 'Compact the conversation', text: 'SUMMARY: listed the numbers 1000-1400 and 2000-2400.' },
          { text: 'finished after compaction' }
        ]
      }
    })
    const events: string[] = []
    // Bash alone (about 600 tokens of prompt) and three outputs of about 500 tokens each: the
    // third request passes 85% of a 3,000-token window.
    const bash = CORE_TOOLS.filter((t) => t.name === 'Bash')
    const { end, messages } = await runQuery(harness, { cwd: dir, tools: bash, contextWindow: 2700 }, (e) => {
      if (e.type === 'compacted') events.push(`compacted:${e.replaced}`)
    })
    if (end.reason === 'model_error') throw end.error
    expect(end).toMatchObject({ reason: 'completed', finalText: 'finished after compaction' })
    expect(events).toHaveLength(1)
    // the summary request carried the instruction; the next request starts from the summary
    const requests = bodies(harness)
    const summaryRequest = requests.findIndex((b) =>
      JSON.stringify(b.messages.at(-1)).includes('Compact the conversation')
    )
    expect(summaryRequest).toBeGreaterThan(0)
    const after = requests[summaryRequest + 1]!
    expect(JSON.stringify(after.messages[0])).toContain('SUMMARY: listed the numbers 1000-1400 and 2000-2400.')
    expect(after.messages.length).toBeLessThan(requests[summaryRequest - 1]!.messages.length)
    // roles still alternate and every tool_result follows its tool_use
    expect(messages[0]!.role).toBe('user')
    expect(messages[1]!.role).toBe('assistant')
    const text = JSON.stringify(after.messages)
    for (const m of text.matchAll(/"tool_use_id":"(toolu_[^"]+)"/g)) expect(text).toContain(`"id":"${m[1]}"`)
  })
})
