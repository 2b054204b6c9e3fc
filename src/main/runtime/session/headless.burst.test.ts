import { execFileSync } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { EventOf, RuntimeEvent } from '../../../shared/events'
import { EventBus } from '../events/bus'
import { createMailbox } from '../mailbox'
import { DEFAULT_SCRIPTED_CONTEXT_WINDOW } from '../scripted'
import { runHeadless } from './headless'

/**
 * Issue 29 item 4: 10,000 mailbox messages reach an idle leader between two of its requests — far
 * more than the context window holds — and still no request passes the window. A headless run
 * with a real worker-thread teammate and real mailboxes, on the scripted model over HTTP, which
 * refuses a prompt over its window (200,000 tokens, UTF-8 bytes / 4) with HTTP 400 as the API does:
 * a refused request would fail the run. Each answered request's usage is the prompt as the
 * scripted model counted it.
 */

let home: string
let work: string
beforeEach(() => {
  home = realpathSync(mkdtempSync(join(tmpdir(), 'swarmdesk-home-')))
  work = realpathSync(mkdtempSync(join(tmpdir(), 'swarmdesk-work-')))
  execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: work })
})
afterEach(() => {
  rmSync(home, { recursive: true, force: true })
  rmSync(work, { recursive: true, force: true })
})

async function until(what: string, probe: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!probe()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 50))
  }
}

const SUMMARY = 'SUMMARY: alice reported status lines.'
/** Waits, as a real tool call, until the test has sent the whole burst. */
const WAIT = { name: 'Bash', input: { command: 'while [ ! -e burst-sent ]; do sleep 0.05; done; echo all sent' } }

describe('compaction under a burst', () => {
  it('10,000 small mailbox messages to an idle leader: folded into summaries oldest first, every request within the window, all of them still on disk', async () => {
    const scenario = join(home, 'burst.json')
    writeFileSync(
      scenario,
      JSON.stringify({
        agents: {
          'team-lead': [
            {
              when: 'make a team',
              tools: [
                { name: 'TeamCreate', input: { team_name: 'crew' } },
                {
                  name: 'Agent',
                  input: { name: 'alice', backend: 'worker', description: 'helper', prompt: 'Wait for the burst.' }
                }
              ]
            },
            { text: 'Team made.' },
            ...Array.from({ length: 16 }, () => ({ when: 'Compact the conversation', text: SUMMARY })),
            ...Array.from({ length: 4 }, () => ({ when: 'idle_notification', text: 'Noted idle.' })),
            // woken by the first messages of the burst, the leader's turn waits for the rest: they all arrive between two requests
            { tools: [WAIT] },
            { text: 'Read them all.' },
            ...Array.from({ length: 8 }, () => ({ text: 'Noted.' }))
          ],
          // alice's work keeps the run going while the leader is idle
          alice: [{ tools: [WAIT] }, { text: 'Done waiting.' }, { text: 'Done.' }]
        }
      })
    )
    const events: RuntimeEvent[] = []
    const bus = new EventBus()
    bus.onEvent((e) => events.push(e))
    const run = runHeadless({
      cwd: work,
      home,
      prompt: 'make a team',
      scenario,
      mode: 'bypassPermissions',
      bus,
      env: {},
      prompter: { prompt: async () => ({ decision: 'allow', by: 'user' }) }
    })
    const said = (text: string) =>
      events.some((e) => e.type === 'assistant_text' && e.agentName === 'team-lead' && e.text === text)
    await until(
      'the team to be made',
      () => said('Team made.') && events.some((e) => e.type === 'tool_call' && e.agentName === 'alice'),
      60_000
    )

    const mailbox = createMailbox({ home })
    const N = 10_000
    const line = (i: number) => `status line ${i}: ${'all good on this shard, nothing to report; '.repeat(4)}`
    for (let i = 0; i < N; i += 200)
      await Promise.all(
        Array.from({ length: 200 }, (_, j) => mailbox.send('crew', 'team-lead', { from: 'alice', text: line(i + j) }))
      )
    await until('the leader to take every message', () => mailbox.unreadCount('crew', 'team-lead') === 0, 400_000)
    await new Promise((r) => setTimeout(r, 500))
    writeFileSync(join(work, 'burst-sent'), '')
    const result = await run

    // the burst alone is well past the window (≈ 4 bytes a token)…
    expect(Buffer.byteLength(Array.from({ length: 10_000 }, (_, i) => line(i)).join('')) / 4).toBeGreaterThan(
      2 * DEFAULT_SCRIPTED_CONTEXT_WINDOW
    )
    // …yet the run went through: no request was refused, and every prompt the model counted is within its window
    expect(result).toMatchObject({ status: 'ok', exitCode: 0 })
    const prompts = events
      .filter((e): e is EventOf<'usage'> => e.type === 'usage')
      .map((u) => u.inputTokens + u.cacheReadInputTokens + u.cacheCreationInputTokens)
    expect(Math.max(...prompts)).toBeLessThanOrEqual(DEFAULT_SCRIPTED_CONTEXT_WINDOW)
    // the arrived messages were summarised oldest first, in several summary requests
    const compacted = events.filter(
      (e) => e.type === 'notice' && e.agentName === 'team-lead' && /compacted \d+ earlier messages/i.test(e.message)
    )
    expect(compacted.length).toBeGreaterThan(0)

    // nothing is lost: the transcript recorded every message as it arrived, and the mailbox keeps each one
    const projects = join(home, 'projects')
    const [slug] = readdirSync(projects)
    const [sessionId] = readdirSync(join(projects, slug!))
    const transcript = readFileSync(join(projects, slug!, sessionId!, 'transcript.jsonl'), 'utf8')
    const seen = new Set([...transcript.matchAll(/status line (\d+):/g)].map((m) => m[1]))
    expect(seen.size).toBe(10_000)
    expect(
      (await mailbox.read('crew', 'team-lead')).messages.filter(
        (e) => e.message.from === 'alice' && e.message.text.startsWith('status line')
      )
    ).toHaveLength(10_000)
    // the history the leader went on with opens with the summary and ends with the newest message, verbatim
    const lines = transcript
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { type: string; subtype?: string; message: unknown })
    const boundaries = lines.map((l, i) => (l.subtype === 'compact_boundary' ? i : -1)).filter((i) => i >= 0)
    expect(boundaries.length).toBeGreaterThan(0)
    const after = JSON.stringify(lines.slice(boundaries.at(-1)! + 1).map((l) => l.message))
    expect(after).toContain(SUMMARY)
    expect(after).toContain('status line 9999:')
  }, 600_000)
})
