import type { EventOf, RuntimeEvent } from '../../../../shared/events'
import { createMailbox } from '../../mailbox'
import type { ScenarioInput } from '../../scripted'
import { runUntilSettled } from '../../session/headless'
import type { SessionOptions } from '../../session/options'
import { startSubagentHarness, type SubagentHarness } from '../../subagents/subagents.testkit'
import { TaskStore } from '../../tasks'
import { TeamStore } from '../../teams'

/**
 * Team tool tests: the subagent harness (scripted model, a leader session with the agent and
 * team tools, a temporary SWARMDESK home) plus helpers to inspect teams, tasks and inboxes.
 */
export interface TeamHarness extends SubagentHarness {
  /** Runs one prompt to the end (the leader consumes its scripted turns in order). */
  prompt(text: string): Promise<void>
  /** The leader's tool results, in order. */
  results(): Array<{ isError: boolean; output: string }>
  /** Adds members to `team` as a teammate spawn would (active unless said otherwise). */
  addMembers(team: string, names: string[], isActive?: boolean): Promise<void>
  /** Messages in `agent`'s inbox, oldest first. */
  inbox(team: string, agent: string): Promise<Array<{ from: string; text: string; summary?: string }>>
  tasks(list: string): TaskStore
  ofType<T extends RuntimeEvent['type']>(type: T): Array<EventOf<T>>
}

/** A hook settings source with one command per event, as a settings file would give it. */
export function hookSettings(hooks: Record<string, string>): NonNullable<SessionOptions['hookSettings']> {
  return [
    {
      source: 'test-settings.json',
      hooks: Object.fromEntries(
        Object.entries(hooks).map(([event, command]) => [event, [{ hooks: [{ type: 'command', command }] }]])
      )
    }
  ]
}

type Turns = NonNullable<ScenarioInput['agents']>[string]

/** Starts a {@link TeamHarness} on `leaderTurns` (the scripted turns of `team-lead`). */
export async function startTeamHarness(
  leaderTurns: Turns,
  options: {
    hookSettings?: SessionOptions['hookSettings']
    /** Scripts of other agents, by name. */ subagentTurns?: Record<string, Turns>
  } = {}
): Promise<TeamHarness> {
  const h = await startSubagentHarness(
    { agents: { 'team-lead': leaderTurns, ...options.subagentTurns } },
    { mode: 'default', ...(options.hookSettings ? { hookSettings: options.hookSettings } : {}) }
  )
  const teams = new TeamStore(h.home)
  const mailbox = createMailbox({ home: h.home })
  return Object.assign(h, {
    async prompt(text: string) {
      const end = await runUntilSettled(h.session, text)
      if (end.reason !== 'completed') throw new Error(`prompt "${text}" ended ${end.reason}`)
    },
    results: () =>
      h.events
        .filter((e): e is EventOf<'tool_result'> => e.type === 'tool_result' && e.agentName === 'team-lead')
        .map((e) => ({ isError: e.isError, output: e.output })),
    async addMembers(team: string, names: string[], isActive = true) {
      for (const name of names)
        await teams.addMember(team, {
          name,
          agentType: 'general-purpose',
          model: 'claude-sonnet-5-5',
          backendType: 'worker',
          cwd: h.work,
          isActive
        })
    },
    async inbox(team: string, agent: string) {
      return (await mailbox.read(team, agent)).messages.map((e) => e.message)
    },
    tasks: (list: string) => new TaskStore(h.home, list),
    ofType: <T extends RuntimeEvent['type']>(type: T) => h.events.filter((e): e is EventOf<T> => e.type === type)
  })
}
