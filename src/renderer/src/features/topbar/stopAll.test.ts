import { describe, expect, it } from 'vitest'
import { ZERO_USAGE } from '../../../../shared/events'
import type { AgentView } from '../../../../shared/ipc'
import { stopAllLines, stopAllTargets } from './stopAll'

const agent = (agentId: string, state: AgentView['state'], extra: Partial<AgentView> = {}): AgentView => ({
  agentId,
  agentName: agentId.split('@')[0]!,
  agentType: 'general-purpose',
  depth: agentId === 'team-lead' ? 0 : 1,
  state,
  color: '#888888',
  usage: ZERO_USAGE,
  costUsd: 0,
  ...extra
})

describe('what Stop all says it will stop', () => {
  it('names the leader’s turn, the working subagents and every live teammate, idle ones too', () => {
    const agents = Object.fromEntries(
      [
        agent('team-lead', 'running'),
        agent('explore-api', 'running', { parentId: 'team-lead' }),
        agent('done-job', 'exited', { parentId: 'team-lead' }),
        agent('alice@crew', 'idle', { backend: 'worker' }),
        agent('bob@crew', 'awaiting_permission', { backend: 'process' }),
        agent('carol@crew', 'exited', { backend: 'worker' })
      ].map((a) => [a.agentId, a])
    )
    const targets = stopAllTargets(agents, Object.keys(agents))
    expect(targets).toEqual({ leaderWorking: true, subagents: ['explore-api'], teammates: ['alice', 'bob'] })
    expect(stopAllLines(targets)).toEqual([
      "Stops the leader's current turn.",
      'Stops 1 subagent: explore-api.',
      'Kills 2 teammates at once, without asking: alice and bob.'
    ])
  })

  it('says nothing when nothing runs', () => {
    const agents = { 'team-lead': agent('team-lead', 'idle') }
    expect(stopAllLines(stopAllTargets(agents, ['team-lead']))).toEqual([])
  })
})
