import { findPidsWithEnv, isProcessAlive } from '../runtime/processes'
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'

import { pidsWithCommandLine } from '../runtime/pty/pty.testkit'
import { readTranscript } from '../runtime/transcripts/reader'
import { runCli, startCli, tempWorkspace } from './cli.testkit'
import { workspaceSlug } from '../runtime/storage/paths'

let home: string
let work: string
let cleanup: () => void

beforeEach(() => {
  ;({ home, work, cleanup } = tempWorkspace())
})
afterEach(() => cleanup())

async function waitFor<T>(what: string, probe: () => T | undefined, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = probe()
    if (value !== undefined) return value
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 50))
  }
}

describe('transcripts survive a killed process, and --resume continues', () => {
  it('keeps every line readable after kill -9 mid-tool, leaves no orphan, and resumes with the history', async () => {
    const first = join(home, 'first.yaml')
    writeFileSync(
      first,
      `agents:\n  team-lead:\n    - text: "Starting a long command."\n      tools: [{ name: Bash, input: { command: "echo started > marker.txt; sleep 47.25" } }]\n    - text: never reached\n`
    )
    const child = startCli(
      ['run', '--cwd', work, '--scenario', first, '--approve', 'all', '--json', 'run the long command'],
      { env: { SWARMDESK_HOME: home } }
    )
    const slug = workspaceSlug(work)
    const transcript = await waitFor('the transcript with the tool call', () => {
      const dir = join(home, 'projects', slug)
      if (!existsSync(dir)) return undefined
      const [session] = readdirSync(dir)
      const path = session && join(dir, session, 'transcript.jsonl')
      return path &&
        existsSync(path) &&
        readFileSync(path, 'utf8').includes('"tool_use"') &&
        existsSync(join(work, 'marker.txt'))
        ? path
        : undefined
    })
    const sleepers = () => pidsWithCommandLine('sleep 47.25')
    expect(sleepers().length).toBeGreaterThan(0)
    child.kill('SIGKILL')
    await new Promise((r) => child.once('exit', r))

    // nothing the killed run started outlives it: the PTY's hang-up ends the command
    await waitFor('the command to go', () => (sleepers().filter(isProcessAlive).length === 0 ? true : undefined), 5_000)
    expect(findPidsWithEnv('SWARMDESK_HOME', home).filter(isProcessAlive)).toEqual([])

    const { entries, warnings } = readTranscript(transcript)
    expect(warnings).toEqual([])
    expect(entries.map((e) => e.type)).toEqual(['user', 'assistant'])
    expect(entries[1]!.parentUuid).toBe(entries[0]!.uuid)

    const sessionId = transcript.split('/').at(-2)!
    const second = join(home, 'second.yaml')
    writeFileSync(
      second,
      `agents:\n  team-lead:\n    - when: "Interrupted"\n      text: "Resumed after: {{last_tool_result}}"\n`
    )
    const resumed = await runCli(
      ['run', '--cwd', work, '--scenario', second, '--resume', sessionId, '--json', 'carry on'],
      { env: { SWARMDESK_HOME: home } }
    )
    expect(resumed.stderr).toBe('')
    expect(resumed.code).toBe(0)
    const text = resumed.events.filter((e) => e.type === 'assistant_text').map((e) => (e as { text: string }).text)
    expect(text).toEqual([expect.stringContaining('Resumed after: Interrupted: the session stopped')])

    // the transcript is appended to, never rewritten, and its parent chain continues
    const after = readTranscript(transcript).entries
    expect(after.slice(0, 2)).toEqual(entries)
    // the interrupted call's placeholder result goes out with the new prompt, in one user message
    expect(after.map((e) => e.type)).toEqual(['user', 'assistant', 'user', 'assistant'])
    const resumedPrompt = after[2]!.message as { content: Array<{ type: string; is_error?: boolean; text?: string }> }
    expect(resumedPrompt.content.map((b) => b.type)).toEqual(['tool_result', 'text'])
    expect(resumedPrompt.content[0]!.is_error).toBe(true)
    expect(resumedPrompt.content[1]!.text).toBe('carry on')
    expect(after[2]!.parentUuid).toBe(entries[1]!.uuid)
  })
})
