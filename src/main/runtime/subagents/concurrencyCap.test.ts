/**
 * A model that keeps spawning agents (issue 10): besides the depth cap, a session runs at most
 * `maxConcurrentAgents` subagents at once. Launches past the cap are refused as tool errors with
 * no side effect — no agent, no transcript, no notification — and a slot frees when an agent ends.
 * Production wiring (the cap from SWARMDESK_MAX_CONCURRENT_AGENTS), the scripted model over HTTP,
 * real PTYs; the agents hold their slots with a command that waits for a file the test creates.
 */
import { RunUsageError } from '../base'
import { existsSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { EventOf, RuntimeEvent } from '../../../shared/events'
import { waitFor } from '../pty/pty.testkit'
import { runUntilSettled } from '../session/headless'

import { openTestSession } from '../session/session.testkit'
import { MAX_CONCURRENT_AGENTS_ENV, loadSubagentWiring } from './wiring'

const WAIT_MS = 45_000
const TEST_MS = 90_000
const ofType = <T extends RuntimeEvent['type']>(events: RuntimeEvent[], type: T) =>
  events.filter((e): e is EventOf<T> => e.type === type)

const cleanups: Array<() => Promise<void> | void> = []
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c()
})

describe('the per-session cap on concurrent agents', () => {
  it(
    'refuses launches past the cap without side effects, and admits one again once an agent has ended',
    async () => {
      const release = join(tmpdir(), `swarmdesk-cap-release-${process.pid}-${Date.now()}`)
      cleanups.push(() => rmSync(release, { force: true }))
      const hold = { tools: [{ name: 'Bash', input: { command: `while [ ! -e '${release}' ]; do sleep 0.05; done` } }] }
      const launch = (description: string) => ({
        name: 'Agent',
        input: { description, prompt: 'hold a slot', run_in_background: true }
      })
      const h = await openTestSession({
        mode: 'bypassPermissions',
        env: { [MAX_CONCURRENT_AGENTS_ENV]: '2' },
        scenario: {
          agents: {
            'team-lead': [
              // Three launches in one message against a cap of two: one must be refused.
              { tools: [launch('one'), launch('two'), launch('three')] },
              { text: 'two are running' },
              { when: '<task-notification>', tools: [launch('four')] },
              { text: 'four launched' },
              { when: '<task-notification>', text: 'noted' },
              { when: '<task-notification>', text: 'noted' }
            ],
            one: [hold, { text: 'one done' }],
            two: [hold, { text: 'two done' }],
            three: [hold, { text: 'three done' }],
            four: [{ text: 'four done' }]
          }
        }
      })
      cleanups.push(() => h.close())
      const { session, events, home } = h

      const run = runUntilSettled(session, 'start three helpers')
      // Both admitted agents are running their command before anything is released.
      await waitFor(() => ofType(events, 'tool_call').filter((e) => e.name === 'Bash').length === 2, WAIT_MS)
      const firstWave = ofType(events, 'agent_started').filter((e) => e.depth === 1)
      expect(firstWave).toHaveLength(2)
      expect(session.subagents!.runningCount).toBe(2)
      const launchIds = ofType(events, 'tool_call')
        .filter((e) => e.name === 'Agent')
        .map((e) => e.toolUseId)
      const results = ofType(events, 'tool_result').filter((e) => launchIds.includes(e.toolUseId))
      const refused = results.filter((e) => e.isError)
      expect(refused).toHaveLength(1)
      expect(refused[0]!.output).toContain(
        '2 agents are already running in this session, the most it allows at once (2)'
      )
      // The refused launch left nothing behind: only the two admitted agents have transcripts.
      const transcripts = (readdirSync(join(home, 'projects'), { recursive: true }) as string[]).filter((f) =>
        /\/agents\/[^/]+\.jsonl$/.test(f)
      )
      expect(transcripts).toHaveLength(2)
      for (const e of firstWave) expect(transcripts.some((f) => f.includes(e.agentId))).toBe(true)

      writeFileSync(release, '')
      const end = await run
      expect(end.reason).toBe('completed')
      const started = ofType(events, 'agent_started').filter((e) => e.depth === 1)
      expect(started.map((e) => e.agentName)).toContain('four')
      expect(started).toHaveLength(3)
      // Exactly one notification per admitted agent; none for the refused launch.
      expect(
        ofType(events, 'task_notification')
          .map((e) => e.taskId)
          .sort()
      ).toEqual(started.map((e) => e.agentId).sort())
      expect(existsSync(release)).toBe(true)
    },
    TEST_MS
  )

  it('rejects a malformed cap instead of running without one', async () => {
    for (const raw of ['0', '-3', '2.5', 'lots']) {
      await expect(
        loadSubagentWiring({ cwd: tmpdir(), home: tmpdir(), env: { [MAX_CONCURRENT_AGENTS_ENV]: raw } })
      ).rejects.toThrow(RunUsageError)
    }
    await expect(
      loadSubagentWiring({ cwd: tmpdir(), home: tmpdir(), env: { [MAX_CONCURRENT_AGENTS_ENV]: 'lots' } })
    ).rejects.toThrow(/SWARMDESK_MAX_CONCURRENT_AGENTS must be a positive whole number of agents; got 'lots'/)
  })
})
