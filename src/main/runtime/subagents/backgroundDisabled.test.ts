import { afterEach, describe, expect, it } from 'vitest'
import type { EventOf, RuntimeEvent } from '../../../shared/events'
import { runUntilSettled } from '../session/headless'
import { startSubagentHarness, type SubagentHarness } from './subagents.testkit'

/**
 * `backgroundDisabled` (docs/agents.md#sync-and-background-runs "unless background work is disabled"; a teammate's runtime sets
 * it, docs/teams.md#spawning-a-teammate): every spawn is sync and stays sync — the auto-background timer (docs/agents.md#auto-background) and
 * a by-hand move to the background leave the parent waiting for the final text.
 */

let h: SubagentHarness | undefined
afterEach(async () => {
  await h?.close()
  h = undefined
})

const ofType = <T extends RuntimeEvent['type']>(events: RuntimeEvent[], type: T) =>
  events.filter((e): e is EventOf<T> => e.type === type)

describe('subagents with background work disabled', () => {
  it('keeps a slow sync agent past the auto-background delay, and one moved by hand, in the foreground', async () => {
    h = await startSubagentHarness(
      {
        agents: {
          'team-lead': [
            { tools: [{ name: 'Agent', input: { description: 'slow one', prompt: 'take time' } }] },
            {
              when: 'agentId:',
              tools: [{ name: 'Agent', input: { description: 'moved one', prompt: 'take time too' } }]
            },
            { when: 'moved one finally', text: 'both answered' }
          ],
          'slow-one': [{ delayMs: 900, text: 'slow one finally done' }],
          'moved-one': [{ delayMs: 900, text: 'moved one finally done' }]
        }
      },
      { subagents: { backgroundDisabled: true, autoBackgroundMs: 200 } }
    )
    const rt = h.session.subagents!
    expect(rt.autoBackgroundMs).toBe(0)
    // a person's "move to background" on the second agent as soon as it starts
    h.bus.onEvent((e) => {
      if (e.type === 'agent_started' && e.agentName === 'moved-one') rt.background(e.agentId)
    })
    const end = await runUntilSettled(h.session, 'go')
    expect(end.finalText).toBe('both answered')
    const results = ofType(h.events, 'tool_result').filter((e) => e.agentName === 'team-lead')
    expect(results.map((r) => r.output.split('\n')[0])).toEqual(['slow one finally done', 'moved one finally done'])
    expect(rt.list().map((t) => t.isAsync)).toEqual([false, false])
    expect(ofType(h.events, 'task_notification')).toEqual([])
  })

  it('runs a definition marked `background` in the foreground', async () => {
    h = await startSubagentHarness(
      {
        agents: {
          'team-lead': [
            {
              tools: [
                { name: 'Agent', input: { subagent_type: 'worker', description: 'bg by definition', prompt: 'do it' } }
              ]
            },
            { when: 'agentId:', text: 'got {{last_tool_result}}' }
          ],
          'bg-by-definition': [{ text: 'did it in the foreground' }]
        }
      },
      { subagents: { backgroundDisabled: true } }
    )
    const end = await runUntilSettled(h.session, 'go')
    expect(end.finalText).toMatch(/^got did it in the foreground\n\nagentId: a[0-9a-f]{16}$/)
    expect(ofType(h.events, 'task_notification')).toEqual([])
  })
})
