/**
 * A leader resumed after its process died while its tools ran: whatever starts its next turn —
 * a teammate's message waking it, a person's prompt, or Resume — the first request after the
 * restart answers every interrupted tool call (the Messages API rejects a `tool_use` without a
 * `tool_result` in the next message), and the transcript records that repair once. Real session,
 * scripted model over HTTP with the real SDK, real transcript files.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import type { MessageParam } from '@anthropic-ai/sdk/resources/messages'
import { afterEach, describe, expect, it } from 'vitest'
import type { ScenarioInput } from '../scripted'
import { INTERRUPTED_TOOL_RESULT, messagesForResume, readTranscript } from '../transcripts'
import { openTestSession, type TestSession } from './session.testkit'

const cleanups: Array<() => Promise<void> | void> = []
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c()
})

const WAKE = '<teammate-message teammate_id="carol">carol is idle</teammate-message>'

/** Three calls in one answer, as the leader spawning its team makes them. */
const THREE_CALLS: ScenarioInput = {
  agents: {
    'team-lead': [
      {
        when: 'document this project',
        tools: [
          { name: 'Read', input: { file_path: 'a.txt' } },
          { name: 'Read', input: { file_path: 'b.txt' } },
          { name: 'Read', input: { file_path: 'c.txt' } }
        ]
      },
      { text: 'done' }
    ]
  }
}

const AFTER_RESTART: ScenarioInput = { agents: { 'team-lead': [{ text: 'picked up after the restart' }] } }

async function open(options: Parameters<typeof openTestSession>[0]): Promise<TestSession> {
  const h = await openTestSession({ subagents: false, mode: 'bypassPermissions', ...options })
  cleanups.push(() => h.close())
  return h
}

/**
 * Runs a session whose answer makes three tool calls, then cuts its transcript right after that
 * answer: the transcript a process killed while those tools ran leaves behind.
 * Returns the workspace, home, session id and the calls' ids.
 */
async function sessionKilledMidTools(): Promise<{ work: string; home: string; sessionId: string; ids: string[] }> {
  const first = await open({ scenario: THREE_CALLS })
  for (const f of ['a.txt', 'b.txt', 'c.txt']) writeFileSync(`${first.work}/${f}`, f)
  await first.session.prompt('document this project')
  const { work, home, session } = first
  const path = session.transcriptPath
  await session.close()
  const lines = readFileSync(path, 'utf8').split('\n')
  const cut = lines.findIndex((l) => l.includes('"tool_use"'))
  expect(cut).toBeGreaterThan(0)
  writeFileSync(path, lines.slice(0, cut + 1).join('\n') + '\n')
  const assistant = readTranscript(path).entries.at(-1)!.message as MessageParam
  const ids = (assistant.content as Array<{ type: string; id?: string }>)
    .filter((b) => b.type === 'tool_use')
    .map((b) => b.id!)
  expect(ids).toHaveLength(3)
  return { work, home, sessionId: session.sessionId, ids }
}

/** The message after the assistant message that made calls `ids`, in a request's history. */
function answerTo(messages: MessageParam[], ids: string[]): MessageParam | undefined {
  const at = messages.findIndex(
    (m) =>
      m.role === 'assistant' &&
      Array.isArray(m.content) &&
      m.content.some((b) => b.type === 'tool_use' && b.id === ids[0])
  )
  return at === -1 ? undefined : messages[at + 1]
}

/** Ids the message's leading tool_result blocks answer (the API wants them ahead of any text). */
function leadingResultIds(message: MessageParam | undefined): string[] {
  const out: string[] = []
  for (const b of Array.isArray(message?.content) ? message.content : []) {
    if (b.type !== 'tool_result') break
    out.push(b.tool_use_id)
  }
  return out
}

/** A message's blocks as `tool_result:<id>` / `text:<text>` (request bodies also carry cache breakpoints). */
function blocksOf(message: MessageParam | undefined): string[] {
  return (Array.isArray(message?.content) ? message.content : []).map((b) =>
    b.type === 'tool_result' ? `tool_result:${b.tool_use_id}` : b.type === 'text' ? `text:${b.text}` : b.type
  )
}

const starts: Array<[string, (h: TestSession) => Promise<unknown>]> = [
  [
    'a teammate message wakes it',
    (h) => {
      h.session.asParent().enqueue(WAKE)
      return h.session.prompt()
    }
  ],
  ['a person prompts it', (h) => h.session.prompt('how far did you get?')],
  ['Resume continues its turn', (h) => h.session.resumeTurn()]
]

describe('a leader resumed after its process died mid-tool', () => {
  it.each(starts)(
    'answers every interrupted tool call in its first request when %s, and records that once',
    async (_how, start) => {
      const killed = await sessionKilledMidTools()
      const h = await open({
        scenario: AFTER_RESTART,
        work: killed.work,
        home: killed.home,
        resumeSessionId: killed.sessionId
      })
      expect(await start(h)).toMatchObject({ reason: 'completed', finalText: 'picked up after the restart' })

      const first = h.server.requests()[0]!.body as { messages: MessageParam[] }
      const answer = answerTo(first.messages, killed.ids)
      expect(answer?.role).toBe('user')
      expect(leadingResultIds(answer)).toEqual(killed.ids)

      const { entries } = readTranscript(h.session.transcriptPath)
      expect(entries.filter((e) => JSON.stringify(e.message).includes(INTERRUPTED_TOOL_RESULT))).toHaveLength(1)
      // read back (the next restart), the history answers the calls with no repair left to make
      const resumed = messagesForResume(entries)
      expect(resumed.repair).toBeUndefined()
      expect(blocksOf(answerTo(resumed.messages, killed.ids))).toEqual(blocksOf(answer))
    }
  )

  it('sends the placeholder results and the waking message as one user message, the results first', async () => {
    const killed = await sessionKilledMidTools()
    const h = await open({
      scenario: AFTER_RESTART,
      work: killed.work,
      home: killed.home,
      resumeSessionId: killed.sessionId
    })
    h.session.asParent().enqueue(WAKE)
    expect(h.session.history.at(-1)?.role).toBe('assistant')
    expect(h.session.pendingCount).toBe(1)
    await h.session.prompt()
    expect(h.session.pendingCount).toBe(0)
    const first = h.server.requests()[0]!.body as { messages: MessageParam[] }
    // one user message: the placeholder results, then the teammate's message
    const answer = answerTo(first.messages, killed.ids)!
    expect(blocksOf(answer)).toEqual([...killed.ids.map((id) => `tool_result:${id}`), `text:${WAKE}`])
  })

  it("starts a person's /fork taken before the next turn from a history that answers the interrupted calls", async () => {
    const killed = await sessionKilledMidTools()
    const h = await openTestSession({
      mode: 'bypassPermissions',
      work: killed.work,
      home: killed.home,
      resumeSessionId: killed.sessionId,
      scenario: {
        agents: { 'team-lead': [{ text: 'unused' }], 'check-the-docs': [{ text: 'Scope: docs. Result: checked.' }] }
      }
    })
    cleanups.push(() => h.close())
    const fork = await h.session.subagents!.spawnFork({
      parent: h.session.asParent(),
      description: 'check the docs',
      directive: 'Check the docs.',
      fromPrompt: true
    })
    await fork.done
    expect(fork.status).toBe('completed')
    const request = h.server.requests().find((r) => r.agentName === 'check-the-docs')!.body as {
      messages: MessageParam[]
    }
    const answer = answerTo(request.messages, killed.ids)
    expect(leadingResultIds(answer)).toEqual(killed.ids)
    expect(blocksOf(answer).at(-1)).toMatch(/^text:<fork-boilerplate>[\s\S]*Your directive: Check the docs\.$/)
    // the leader's own history and transcript are untouched: its next turn records the repair once
    expect(h.session.history.at(-1)?.role).toBe('assistant')
  })
})
