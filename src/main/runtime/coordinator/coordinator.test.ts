import { afterEach, describe, expect, it } from 'vitest'
import type { EventOf, RuntimeEvent } from '../../../shared/events'
import { runUntilSettled } from '../session/headless'
import { startSubagentHarness, type SubagentHarness } from '../subagents/subagents.testkit'

let h: SubagentHarness | undefined
afterEach(async () => {
  await h?.close()
  h = undefined
})

const ofType = <T extends RuntimeEvent['type']>(events: RuntimeEvent[], type: T) =>
  events.filter((e): e is EventOf<T> => e.type === type)
type Body = {
  tools: Array<{ name: string }>
  system: Array<{ text: string }>
  messages: Array<{ content: Array<{ text?: string }> }>
}
const bodiesOf = (harness: SubagentHarness, name: string) =>
  harness.server
    .requests()
    .filter((r) => r.agentName === name)
    .map((r) => r.body as unknown as Body)

describe('coordinator mode', () => {
  it('fans out workers, continues one, stops another, and finishes on their notifications', async () => {
    h = await startSubagentHarness(
      {
        agents: {
          'team-lead': [
            {
              text: 'Fanning out.',
              tools: [
                { name: 'Agent', input: { description: 'worker a', prompt: 'research a' } },
                { name: 'Agent', input: { description: 'worker b', prompt: 'research b' } },
                { name: 'Agent', input: { description: 'worker keep', prompt: 'implement' } }
              ]
            },
            {
              tools: [
                { name: 'SendMessage', input: { to: '{{last_agent_id}}', message: 'extra instruction: add a test' } }
              ]
            },
            { tools: [{ name: 'Agent', input: { description: 'worker wrong', prompt: 'a wrong turn' } }] },
            { tools: [{ name: 'TaskStop', input: { task_id: '{{last_agent_id}}' } }] },
            { text: 'All dispatched.' },
            { when: '<task-notification>', text: 'noted 1' },
            { when: '<task-notification>', text: 'noted 2' },
            { when: '<task-notification>', text: 'noted 3' },
            { when: '<task-notification>', text: 'All workers reported.' }
          ],
          // the workers answer after the coordinator has finished dispatching
          'worker-a': [{ delayMs: 2500, text: 'a found' }],
          'worker-b': [{ delayMs: 2500, text: 'b found' }],
          'worker-keep': [
            { delayMs: 2200, tools: [{ name: 'Glob', input: { pattern: '*' } }] },
            { when: 'extra instruction', text: 'implemented, with a test' }
          ],
          'worker-wrong': [{ delayMs: 10_000, text: 'never' }]
        }
      },
      { subagents: { coordinator: true, forkEnabled: true } }
    )
    const end = await runUntilSettled(h.session, 'Build the feature.')
    expect(end.reason).toBe('completed')
    const lead = bodiesOf(h, 'team-lead')[0]!
    expect(lead.tools.map((t) => t.name)).toEqual(['Read', 'Glob', 'Grep', 'Agent', 'SendMessage', 'TaskStop'])
    expect(lead.system[0]!.text).toContain('You are the coordinator of a Swarmdesk session')
    // workers, not forks, and they never get the coordination tools
    const started = ofType(h.events, 'agent_started').filter((s) => s.depth === 1)
    expect(started.map((s) => s.agentType)).toEqual(['worker', 'worker', 'worker', 'worker'])
    for (const name of ['worker-a', 'worker-b', 'worker-keep']) {
      const tools = bodiesOf(h, name)[0]!.tools.map((t) => t.name)
      for (const forbidden of ['SendMessage', 'TeamCreate', 'Agent', 'TaskStop']) expect(tools).not.toContain(forbidden)
      expect(tools).toEqual(expect.arrayContaining(['Read', 'Edit', 'Bash']))
    }
    expect(JSON.stringify(bodiesOf(h, 'worker-keep').at(-1)!.messages)).toContain('extra instruction: add a test')
    const notes = ofType(h.events, 'task_notification')
    expect(notes.map((n) => n.status).sort()).toEqual(['completed', 'completed', 'completed', 'killed'])
  })

  it('starts workers only: another type is refused with no side effects', async () => {
    h = await startSubagentHarness(
      {
        agents: {
          'team-lead': [
            { tools: [{ name: 'Agent', input: { subagent_type: 'Explore', description: 'look', prompt: 'x' } }] },
            { text: 'ok' }
          ]
        }
      },
      { subagents: { coordinator: true } }
    )
    await runUntilSettled(h.session, 'go')
    const result = ofType(h.events, 'tool_result')[0]!
    expect(result).toMatchObject({ isError: true })
    expect(result.output).toContain('In coordinator mode you start workers only')
    expect(ofType(h.events, 'agent_started')).toHaveLength(1)
  })
})
