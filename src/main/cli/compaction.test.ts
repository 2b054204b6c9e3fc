import { readdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { startScriptedServer } from '../runtime/scripted'
import { readTranscript } from '../runtime/transcripts/reader'
import { ofType, runCli, tempWorkspace } from './cli.testkit'
import { workspaceSlug } from '../runtime/storage/paths'

// Context compaction (docs/loop.md#the-agent-loop) in a whole session through the CLI: the leader's history passes 85%
// of the model's 200k-token window for real (the scripted model counts ≈ 4 bytes a token), it
// compacts, carries on, and a later --resume continues from the compacted history.

let home: string
let work: string
let cleanup: () => void
beforeEach(() => {
  ;({ home, work, cleanup } = tempWorkspace())
  // 29 KB: just under the 30,000 characters a Bash result keeps
  writeFileSync(
    join(work, 'big.txt'),
    Array.from({ length: 290 }, (_, i) => `line ${String(i).padStart(4, '0')} ${'x'.repeat(89)}`).join('\n') + '\n'
  )
})
afterEach(() => cleanup())

type Body = { messages: Array<{ role: string; content: Array<{ type: string; text?: string }> }> }

/** One assistant turn reading big.txt six times (≈ 44k tokens of results). */
const sixReads = `    - tools:\n${'        - { name: Bash, input: { command: "cat big.txt" } }\n'.repeat(6)}`

describe('context compaction in a session', () => {
  it('compacts past 85% of the window, shows it, records a compact_boundary, continues, and resumes from the compacted history', async () => {
    writeFileSync(
      join(home, 'first.yaml'),
      `agents:\n  team-lead:\n${sixReads.repeat(4)}    - when: "Compact the conversation"\n      text: "SUMMARY: read big.txt 24 times; every read showed lines 0000-0289."\n    - text: "finished after compaction"\n`
    )
    const server = await startScriptedServer({ scenario: join(home, 'first.yaml') })
    let run: Awaited<ReturnType<typeof runCli>>
    try {
      run = await runCli(['run', '--cwd', work, '--approve', 'all', '--json', 'read big.txt again and again'], {
        env: {
          SWARMDESK_HOME: home,
          ANTHROPIC_API_KEY: 'k',
          ANTHROPIC_BASE_URL: server.url,
          SWARMDESK_SCRIPTED_MODEL_URL: server.url
        }
      })
    } finally {
      await server.close()
    }
    expect(run.stderr).toBe('')
    expect(run.code).toBe(0)
    expect(ofType(run.events, 'tool_result').filter((r) => !r.isError)).toHaveLength(24)
    // the stream (and so the pane) says it happened, once
    const notices = ofType(run.events, 'notice').filter((n) => n.message.startsWith('Compacted '))
    expect(notices).toEqual([
      expect.objectContaining({
        level: 'info',
        agentName: 'team-lead',
        message: expect.stringMatching(/^Compacted \d+ earlier messages into a summary\.$/)
      })
    ])
    expect(ofType(run.events, 'assistant_text').at(-1)).toMatchObject({ text: 'finished after compaction' })

    // the request after the summary starts from it, and is smaller than the last request before the
    // compaction though it carries six more reads
    const requests = server.requests().map((r) => ({ body: r.body as unknown as Body, size: (r.rawBody ?? '').length }))
    const summaryAt = requests.findIndex((r) =>
      JSON.stringify(r.body.messages.at(-1)).includes('Compact the conversation')
    )
    expect(summaryAt).toBe(4)
    const after = requests[summaryAt + 1]!
    expect(after.body.messages[0]!.content[0]!.text).toContain('SUMMARY: read big.txt 24 times')
    expect(after.size).toBeLessThan(requests[summaryAt - 1]!.size)

    // the transcript: the old history, a compact_boundary, then the new history (append-only)
    const slug = workspaceSlug(work)
    const [sessionId] = readdirSync(join(home, 'projects', slug))
    const transcript = join(home, 'projects', slug, sessionId!, 'transcript.jsonl')
    const { entries, warnings } = readTranscript(transcript)
    expect(warnings).toEqual([])
    const boundary = entries.findIndex((e) => e.type === 'system' && e.subtype === 'compact_boundary')
    expect(boundary).toBeGreaterThan(0)
    expect(JSON.stringify(entries[boundary + 1]!.message)).toContain('SUMMARY: read big.txt 24 times')

    // --resume continues from the compacted history: the summary first, not the 24 reads
    writeFileSync(
      join(home, 'second.yaml'),
      `agents:\n  team-lead:\n    - when: "what did you read"\n      text: "I read big.txt."\n`
    )
    const second = await startScriptedServer({ scenario: join(home, 'second.yaml') })
    let resumed: Awaited<ReturnType<typeof runCli>>
    try {
      resumed = await runCli(['run', '--cwd', work, '--resume', sessionId!, '--json', 'what did you read?'], {
        env: {
          SWARMDESK_HOME: home,
          ANTHROPIC_API_KEY: 'k',
          ANTHROPIC_BASE_URL: second.url,
          SWARMDESK_SCRIPTED_MODEL_URL: second.url
        }
      })
    } finally {
      await second.close()
    }
    expect(resumed.stderr).toBe('')
    expect(resumed.code).toBe(0)
    expect(ofType(resumed.events, 'assistant_text').at(-1)).toMatchObject({ text: 'I read big.txt.' })
    const [resumedRequest] = second.requests().map((r) => r.body as unknown as Body)
    expect(resumedRequest!.messages[0]!.content[0]!.text).toContain('SUMMARY: read big.txt 24 times')
    expect(JSON.stringify(resumedRequest!.messages).split('line 0289').length - 1).toBeLessThan(24)
    expect(resumedRequest!.messages.at(-1)!.content.at(-1)!.text).toBe('what did you read?')
  }, 90_000)
})
