import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { SUBAGENT_STOP_MAX_BLOCKS } from './events'
import { createSubagentHookPairing } from './pairing'
import { createHookRunner } from './runner'
import { readJsonLines, script, useTempDirs } from './hooks.testkit'

const tempDir = useTempDirs()

/** One append per payload, so hooks of agents running at once never interleave their lines. */
const APPEND_STDIN = (log: string): string => `line=$(cat); printf '%s\\n' "$line" >> "${log}"`

/** A session whose SubagentStart/SubagentStop hooks append their stdin to `log`; `stopBody` ends the stop hook. */
async function session(opts: { startBody?: string; stopBody?: string } = {}) {
  const dir = await tempDir()
  const log = path.join(dir, 'log.jsonl')
  const start = await script(dir, 'start.sh', `${APPEND_STDIN(log)}; ${opts.startBody ?? ''}`)
  const stop = await script(dir, 'stop.sh', `${APPEND_STDIN(log)}; ${opts.stopBody ?? ''}`)
  const hooks = {
    SubagentStart: [{ hooks: [{ type: 'command', command: start }] }],
    SubagentStop: [{ hooks: [{ type: 'command', command: stop }] }]
  }
  const pairing = createSubagentHookPairing(
    createHookRunner({ hooks: [{ source: 's.json', hooks }], cwd: dir, sessionId: 's' })
  )
  const events = async (): Promise<string[]> =>
    (await readJsonLines(log)).map((l) => `${String(l.hook_event_name)} ${String(l.agent_id)}`)
  return { pairing, log, events }
}

const agent = (id: string) => ({ agentId: id, agentType: 'worker', agentTranscriptPath: `/t/${id}.jsonl` })

describe('SubagentStart and SubagentStop are paired on every exit path', () => {
  it('runs one stop for a completed agent; a second stop and a later stopAll are no-ops', async () => {
    const { pairing, events, log } = await session()
    const handle = pairing.start(agent('a1'))
    expect((await handle.started).kind).toBe('continue')
    expect(await handle.stop({ endedBy: 'completed', lastAssistantMessage: 'all done' })).toMatchObject({
      kind: 'continue'
    })
    expect(await handle.stop({ endedBy: 'killed', lastAssistantMessage: '' })).toEqual({
      kind: 'continue',
      warnings: [],
      results: []
    })
    await pairing.stopAll()
    expect(await events()).toEqual(['SubagentStart a1', 'SubagentStop a1'])
    expect((await readJsonLines(log))[1]).toMatchObject({
      last_assistant_message: 'all done',
      agent_transcript_path: '/t/a1.jsonl',
      stop_hook_active: false
    })
    expect(handle.closed).toBe(true)
    expect(pairing.openCount()).toBe(0)
  })

  it('runs one stop when a kill races the completion', async () => {
    const { pairing, events } = await session({ stopBody: 'sleep 0.2' })
    const handle = pairing.start(agent('a1'))
    const [first, second] = await Promise.all([
      handle.stop({ endedBy: 'completed', lastAssistantMessage: 'x' }),
      handle.stop({ endedBy: 'killed', lastAssistantMessage: '' })
    ])
    expect(first).toBe(second)
    expect(await events()).toEqual(['SubagentStart a1', 'SubagentStop a1'])
  })

  it('stops every open agent once on stopAll, even one whose start hook is still running, start first', async () => {
    const { pairing, events } = await session({ startBody: 'sleep 0.3' })
    const done = pairing.start(agent('a1'))
    await done.stop({ endedBy: 'completed', lastAssistantMessage: '' })
    pairing.start(agent('a2'))
    pairing.start(agent('a3'))
    expect(pairing.openCount()).toBe(2)
    await pairing.stopAll()
    await pairing.stopAll()
    const seen = await events()
    expect(seen.filter((e) => e.startsWith('SubagentStop')).sort()).toEqual([
      'SubagentStop a1',
      'SubagentStop a2',
      'SubagentStop a3'
    ])
    for (const id of ['a2', 'a3'])
      expect(seen.indexOf(`SubagentStart ${id}`)).toBeLessThan(seen.indexOf(`SubagentStop ${id}`))
    expect(pairing.openCount()).toBe(0)
  })
})

describe('SubagentStop blocks', () => {
  it(`keeps a completing agent working at most ${SUBAGENT_STOP_MAX_BLOCKS} times, then lets it end`, async () => {
    const { pairing, log } = await session({ stopBody: 'echo "run the tests again" >&2; exit 2' })
    const handle = pairing.start(agent('a1'))
    const kinds: string[] = []
    for (let i = 0; i <= SUBAGENT_STOP_MAX_BLOCKS; i++) {
      const outcome = await handle.stop({ endedBy: 'completed', lastAssistantMessage: `try ${i}` })
      kinds.push(outcome.kind === 'block' ? `block: ${outcome.reason}` : `continue: ${outcome.warnings.join()}`)
    }
    expect(kinds.slice(0, 3)).toEqual(Array(3).fill('block: run the tests again'))
    expect(kinds[3]).toContain(
      'continue: ignored a SubagentStop block (SubagentStop already kept this agent working 3 times'
    )
    expect(handle.closed).toBe(true)
    const stops = (await readJsonLines(log)).filter((l) => l.hook_event_name === 'SubagentStop')
    expect(stops.map((l) => l.stop_hook_active)).toEqual([false, true, true, true])
  })

  it('never keeps a killed agent working: the shutdown wins', async () => {
    const { pairing, events } = await session({ stopBody: 'echo "not yet" >&2; exit 2' })
    const handle = pairing.start(agent('a1'))
    const outcome = await handle.stop({ endedBy: 'killed', lastAssistantMessage: '' })
    expect(outcome.kind).toBe('continue')
    expect(outcome.warnings.join()).toContain('the agent is stopping): not yet')
    expect(handle.closed).toBe(true)
    expect(await events()).toEqual(['SubagentStart a1', 'SubagentStop a1'])
  })

  it('leaves a blocked pair open for the next stop, which stopAll then closes', async () => {
    const { pairing, events } = await session({ stopBody: 'exit 2' })
    const handle = pairing.start(agent('a1'))
    expect((await handle.stop({ endedBy: 'completed', lastAssistantMessage: '' })).kind).toBe('block')
    expect(pairing.openCount()).toBe(1)
    await pairing.stopAll()
    expect(pairing.openCount()).toBe(0)
    expect(await events()).toEqual(['SubagentStart a1', 'SubagentStop a1', 'SubagentStop a1'])
  })
})
