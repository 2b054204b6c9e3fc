import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { RuntimeEvent } from '../../shared/events'
import type { PushChannel } from '../../shared/ipc'
import { createMailbox } from '../runtime/mailbox'
import { DEFAULT_SCRIPTED_CONTEXT_WINDOW, type RecordedRequest } from '../runtime/scripted'
import { WorkspaceService } from './service'

/**
 * Issue 29 item 4: no request ever passes the model's context window, whatever arrives between two
 * turns — one message of megabytes, a tool result of megabytes (a burst of thousands of messages:
 * headless.burst.test.ts). The real runtime (WorkspaceService, worker-thread teammates, real mailboxes) on the
 * scripted model over HTTP, which refuses a prompt over its window (200,000 tokens, UTF-8 bytes / 4)
 * as the API does and records each request's prompt tokens.
 */

let home: string
let work: string
/** The scripted model's request log, fetched once a test's requests are all made. */
let log: RecordedRequest[] = []
let service: WorkspaceService | undefined
let pushes: Array<{ channel: PushChannel; payload: any }>

beforeEach(() => {
  home = realpathSync(mkdtempSync(join(tmpdir(), 'swarmdesk-home-')))
  work = realpathSync(mkdtempSync(join(tmpdir(), 'swarmdesk-work-')))
  execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: work })
  pushes = []
})
afterEach(async () => {
  await service?.dispose()
  service = undefined
  log = []
  rmSync(home, { recursive: true, force: true })
  rmSync(work, { recursive: true, force: true })
})

const SUMMARY = 'SUMMARY: alice reported status lines.'
const summaries = Array.from({ length: 16 }, () => ({ when: 'Compact the conversation', text: SUMMARY }))

async function start(leader: object[], others: Record<string, object[]> = {}): Promise<WorkspaceService> {
  const scenario = join(home, 'burst.json')
  // alice, a worker teammate, is what makes the leader read its inbox; her idle notification is answered by its own turns
  const team = [
    {
      when: 'make a team',
      tools: [
        { name: 'TeamCreate', input: { team_name: 'crew' } },
        { name: 'Agent', input: { name: 'alice', backend: 'worker', description: 'helper', prompt: 'Stand by.' } }
      ]
    },
    { text: 'Team made.' },
    ...Array.from({ length: 3 }, () => ({ when: 'idle_notification', text: 'Noted idle.' }))
  ]
  writeFileSync(
    scenario,
    JSON.stringify({
      agents: { 'team-lead': [...team, ...summaries, ...leader], alice: [{ text: 'Standing by.' }], ...others }
    })
  )
  service = await WorkspaceService.start({ cwd: work, home, scenario, env: {}, mode: 'bypassPermissions' })
  service.onPush((channel, payload) => pushes.push({ channel, payload }))
  await service.handle('leader.prompt', { text: 'make a team' })
  await until(
    'the leader to make the team, hear alice is idle and go idle',
    () => saidThenIdle('Team made.') && saidThenIdle('Noted idle.')
  )
  return service
}

async function until<T>(what: string, probe: () => T | undefined | false, timeoutMs = 120_000): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const v = probe()
    if (v !== undefined && v !== false) return v
    if (Date.now() > deadline) {
      const said = events()
        .filter((e) => e.type === 'notice' || e.type === 'agent_state' || e.type === 'assistant_text')
        .map((e) => `${e.agentName} ${e.type} ${JSON.stringify(e).slice(0, 300)}`)
      throw new Error(`timed out waiting for ${what}; the stream said:\n${said.join('\n')}`)
    }
    await new Promise((r) => setTimeout(r, 25))
  }
}

const events = (): RuntimeEvent[] => pushes.filter((p) => p.channel === 'runtime.event').map((p) => p.payload)

/** True once the leader said `text` and went idle after it. */
function saidThenIdle(text: string): boolean {
  const all = events()
  const said = all.findIndex((e) => e.type === 'assistant_text' && e.agentName === 'team-lead' && e.text === text)
  return (
    said >= 0 &&
    all.slice(said).some((e) => e.type === 'agent_state' && e.agentName === 'team-lead' && e.state === 'idle')
  )
}

/** Reads the scripted model's request log (GET /_scripted/requests) and checks every request's prompt against its window. */
async function everyRequestWithinWindow(): Promise<number[]> {
  log = (await (await fetch(`${service!.scriptedModelUrl}/_scripted/requests`)).json()) as RecordedRequest[]
  const tokens = log.map((r) => r.promptTokens)
  for (const t of tokens) expect(t).toBeDefined()
  expect(Math.max(...(tokens as number[]))).toBeLessThanOrEqual(DEFAULT_SCRIPTED_CONTEXT_WINDOW)
  // and nothing the leader did ended in an error (a refused request would)
  expect(events().filter((e) => e.type === 'notice' && e.level === 'error')).toEqual([])
  return tokens as number[]
}

type Body = { messages: Array<{ role: string; content: Array<{ type: string; text?: string; content?: unknown }> }> }
const bodies = () => log.map((r) => r.body as Body)

/** The cut markers of `text`: the file each names and the whole text's length. */
function markers(text: string): Array<{ file: string; chars: number }> {
  return [...text.matchAll(/this text is ([\d,]+) characters[^\]]*?The whole text is in (\S+) \(read it/g)].map(
    (m) => ({ file: m[2]!, chars: Number(m[1]!.replace(/,/g, '')) })
  )
}

describe('compaction under a burst', () => {
  it('one 2 MB mailbox message: cut with a marker naming the file that keeps it whole', async () => {
    await start([{ text: 'Got the big one.' }])
    const big = Array.from({ length: 40_000 }, (_, i) => `row ${i}: ${'data '.repeat(8)}\n`).join('')
    expect(big.length).toBeGreaterThan(2_000_000)
    await createMailbox({ home }).send('crew', 'team-lead', { from: 'alice', text: big })
    await until('the leader to answer the big message', () => saidThenIdle('Got the big one.'))

    await everyRequestWithinWindow()
    const answered = bodies().at(-1)!
    const found = markers(
      JSON.parse(
        JSON.stringify(
          answered.messages
            .at(-1)!
            .content.map((b) => b.text ?? '')
            .join('\n')
        )
      )
    )
    expect(found).toHaveLength(1)
    const whole = readFileSync(found[0]!.file, 'utf8')
    expect(whole).toContain(big)
    expect(whole.length).toBe(found[0]!.chars)
    // the pane and the stream say so
    expect(
      events().some((e) => e.type === 'notice' && e.agentName === 'team-lead' && e.message.includes(found[0]!.file))
    ).toBe(true)
  }, 180_000)

  it("one 2 MB tool result (a subagent's answer): cut with a marker naming the file that keeps it whole", async () => {
    const big = Array.from({ length: 40_000 }, (_, i) => `finding ${i}: ${'fine '.repeat(8)}\n`).join('')
    await start(
      [
        {
          when: 'look at everything',
          tools: [
            {
              name: 'Agent',
              input: { description: 'survey', prompt: 'Survey everything.', subagent_type: 'general-purpose' }
            }
          ]
        },
        { text: 'Survey read.' }
      ],
      { 'type:general-purpose': [{ text: big }] }
    )
    await service!.handle('leader.prompt', { text: 'look at everything' })
    await until('the leader to read the survey', () => saidThenIdle('Survey read.'))

    await everyRequestWithinWindow()
    const answered = bodies().at(-1)!
    const result = answered.messages
      .flatMap((m) => m.content)
      .find((b) => b.type === 'tool_result' && JSON.stringify(b).includes('Cut by Swarmdesk'))!
    const found = markers(typeof result.content === 'string' ? result.content : JSON.stringify(result.content))
    expect(found).toHaveLength(1)
    expect(readFileSync(found[0]!.file, 'utf8')).toContain(big)
  }, 180_000)
})
