/**
 * A disk that fills up while the leader works (issue 10 "Disk"): the turn stops with a clear
 * error instead of running on unrecorded, its tool does not run, the transcript keeps only whole
 * lines, and the session is usable again once there is room. Real session, scripted model over
 * HTTP, real files; the full disk comes from the write seam of diskWrites.ts.
 */
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { openTestSession } from '../session/session.testkit'
import { readTranscript, TranscriptWriteError } from '../transcripts'
import { simulateWriteFaults } from '../locks/diskWrites'

const cleanups: Array<() => Promise<void> | void> = []
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c()
})

describe('the leader when the disk fills up', () => {
  it('fails the turn with a TranscriptWriteError before its tool runs, keeps the transcript whole, and works again once there is room', async () => {
    const h = await openTestSession({
      mode: 'bypassPermissions',
      subagents: false,
      scenario: {
        agents: {
          'team-lead': [
            { tools: [{ name: 'Write', input: { file_path: 'out.txt', content: 'x' } }] },
            { when: 'again', text: 'recorded' }
          ]
        }
      }
    })
    cleanups.push(() => h.close())
    const { session, bus, work } = h
    let endFaults: (() => void) | undefined
    cleanups.push(() => endFaults?.())
    // The disk fills up once the prompt is recorded: the assistant's answer cannot be.
    const sub = bus.onEvent((e) => {
      if (e.type === 'agent_state' && e.state === 'running' && !endFaults)
        endFaults = simulateWriteFaults({ matches: (p) => p === session.transcriptPath, bytesLeft: 100 })
    })
    const failed = await session.prompt('write the file')
    expect(failed).toMatchObject({ reason: 'failed', error: expect.any(TranscriptWriteError) })
    expect(h.events.filter((e) => e.type === 'agent_state').at(-1)).toMatchObject({
      state: 'error',
      reason: expect.stringContaining(session.transcriptPath)
    })
    sub.dispose()
    expect(session.busy).toBe(false)
    expect(existsSync(join(work, 'out.txt'))).toBe(false)
    const torn = readFileSync(session.transcriptPath, 'utf8')
    expect(torn.endsWith('\n')).toBe(true)
    expect(readTranscript(session.transcriptPath)).toMatchObject({ warnings: [], entries: [{ type: 'user' }] })

    endFaults!()
    const end = await session.prompt('again')
    expect(end).toMatchObject({ reason: 'completed', finalText: 'recorded' })
    const { entries, warnings } = readTranscript(session.transcriptPath)
    expect(warnings).toEqual([])
    expect(entries.at(-1)).toMatchObject({ type: 'assistant' })
  })
})
