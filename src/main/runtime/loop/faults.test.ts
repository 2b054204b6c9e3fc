import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { ModelClient } from '../model/client'
import type { Fault } from '../scripted/scenario'
import { CORE_TOOLS } from '../tools/registry'
import { runQuery, startLoopHarness, type LoopHarness } from './loop.testkit'

// Issue 10's model faults, scripted, through the real SDK and the loop: each one ends in the
// retry docs/loop.md#the-agent-loop specifies or in a clear failure, never a hang, and never runs a tool twice. The
// first turn always runs a tool (appending to count.txt), so a retry that re-ran it would show.

let dir: string
let harness: LoopHarness | undefined
beforeEach(() => {
  dir = realpathSync(mkdtempSync(join(tmpdir(), 'swarmdesk-faults-')))
})
afterEach(async () => {
  await harness?.close()
  harness = undefined
  rmSync(dir, { recursive: true, force: true })
})

const RAN = { name: 'Bash', input: { command: 'echo ran >> count.txt' } }
const WRITE = { name: 'Write', input: { file_path: 'after.txt', content: 'x' } }
const LONG_TEXT = 'Writing the file now, with a sentence long enough that part of it streams first.'

/** Runs: a tool turn, then a turn with `fault` (text, and a Write that must not run unless retried cleanly), then "ok". */
async function runWithFault(fault: Fault | undefined, extra: { delayMs?: number; stallTimeoutMs?: number } = {}) {
  harness = await startLoopHarness({
    agents: {
      'team-lead': [
        { tools: [RAN] },
        {
          ...(fault ? { fault } : {}),
          ...(extra.delayMs ? { delayMs: extra.delayMs } : {}),
          text: LONG_TEXT,
          tools: [WRITE]
        },
        { text: 'ok' }
      ]
    }
  })
  const client = new ModelClient({
    apiKey: 'test-key',
    baseURL: harness.server.url,
    retryBaseDelayMs: 10,
    scriptedModel: true,
    ...(extra.stallTimeoutMs ? { stallTimeoutMs: extra.stallTimeoutMs } : {})
  })
  const started = Date.now()
  const { end } = await runQuery(harness, { cwd: dir, tools: [...CORE_TOOLS], client })
  return {
    end,
    ms: Date.now() - started,
    count: readFileSync(join(dir, 'count.txt'), 'utf8'),
    wrote: existsSync(join(dir, 'after.txt')),
    requests: harness.server.requests().length
  }
}

describe('model faults (scripted) through the loop', () => {
  it.each<[Fault, number]>([
    ['rate_limit', 4],
    ['rate_limit_no_retry_after', 4],
    ['overloaded', 4],
    ['disconnect', 4]
  ])('%s before any answer is retried: the turn completes and each tool ran once', async (fault, requests) => {
    const r = await runWithFault(fault)
    expect(r.end).toMatchObject({ reason: 'completed', finalText: 'ok' })
    expect(r.count).toBe('ran\n')
    expect(r.wrote).toBe(true)
    expect(r.requests).toBe(requests)
  })

  it('says which attempts were retried: an SDK retry shows as a notice, and a failure names every retry before it', async () => {
    harness = await startLoopHarness({
      agents: {
        'team-lead': [
          { fault: 'rate_limit', retryAfterMs: 5, text: 'after one retry' },
          { fault: 'overloaded', faultCount: 3, retryAfterMs: 5, text: 'x' }
        ]
      }
    })
    const client = new ModelClient({
      apiKey: 'test-key',
      baseURL: harness.server.url,
      retryBaseDelayMs: 10,
      maxRetries: 2,
      scriptedModel: true
    })
    const first = await runQuery(harness, { cwd: dir, tools: [], client })
    expect(first.end).toMatchObject({ reason: 'completed', finalText: 'after one retry' })
    expect(first.events.filter((e) => e.type === 'notice').map((e) => (e as { message: string }).message)).toEqual([
      'Model request failed (HTTP 429); retry 1.'
    ])
    const second = await runQuery(harness, { cwd: dir, tools: [], client })
    expect(second.end.reason).toBe('model_error')
    if (second.end.reason !== 'model_error') return
    expect(second.end.error.message).toMatch(/overloaded.*Retried 2 times before giving up \(HTTP 529 ×2\)\.$/)
    expect(second.end.error.details.retries).toEqual(['HTTP 529', 'HTTP 529'])
    expect(harness.server.requests()).toHaveLength(5)
  })

  it.each<[Fault, string, RegExp]>([
    ['overloaded_mid_stream', 'overloaded', /overloaded mid-response; the turn failed and none of its tool calls ran/],
    [
      'disconnect_mid_stream',
      'connection',
      /broke off after it began; the turn failed and none of its tool calls ran\. The connection to .+ was cut while the response streamed/
    ],
    [
      'malformed_sse',
      'server',
      /sent a malformed response stream \(.+\); the turn failed and none of its tool calls ran/
    ]
  ])('%s fails the turn clearly, runs none of its tools, and re-runs no earlier tool', async (fault, kind, message) => {
    const r = await runWithFault(fault)
    expect(r.end.reason).toBe('model_error')
    if (r.end.reason !== 'model_error') return
    expect(r.end.error.message).toMatch(message)
    expect(r.end.error.kind).toBe(kind)
    expect(r.count).toBe('ran\n')
    expect(r.wrote).toBe(false)
  })

  it('a response that stalls mid-stream is given up after the stall timeout with a clear error, not retried', async () => {
    const r = await runWithFault('stall_mid_stream', { stallTimeoutMs: 1_000 })
    expect(r.end.reason).toBe('model_error')
    if (r.end.reason !== 'model_error') return
    expect(r.end.error.kind).toBe('timeout')
    expect(r.end.error.message).toMatch(
      /sent nothing for 1 s, so the request was given up\. The turn failed and none of its tool calls ran/
    )
    expect(r.requests).toBe(2)
    expect(r.count).toBe('ran\n')
    expect(r.wrote).toBe(false)
  })

  it('an endpoint that sends no answer at all is given up after the stall timeout (the default is ten minutes)', async () => {
    const r = await runWithFault(undefined, { delayMs: 30_000, stallTimeoutMs: 1_000 })
    expect(r.end.reason).toBe('model_error')
    if (r.end.reason !== 'model_error') return
    expect(r.end.error.kind).toBe('timeout')
    expect(r.end.error.message).toMatch(/sent nothing for 1 s/)
    expect(r.end.error.message).not.toMatch(/tool calls ran/)
    expect(r.ms).toBeLessThan(25_000)
    expect(r.count).toBe('ran\n')
    expect(r.wrote).toBe(false)
  })
})
