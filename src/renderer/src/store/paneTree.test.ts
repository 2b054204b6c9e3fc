import { describe, expect, it } from 'vitest'
import type { AgentView } from '../../../shared/ipc'
import { descendantCount, nestLevel, paneParentId, visibleTileIds } from './paneTree'
import { agentView } from './store.testkit'

function agents(...list: AgentView[]): { order: string[]; byId: Record<string, AgentView> } {
  return { order: list.map((a) => a.agentId), byId: Object.fromEntries(list.map((a) => [a.agentId, a])) }
}

// team-lead ─┬─ a ─── a1 ─── a11
//            └─ b
// mate (a teammate, no parent) ─── m1
// orphan (its parent is unknown)
const tree = agents(
  agentView({ agentId: 'team-lead' }),
  agentView({ agentId: 'a', parentId: 'team-lead', depth: 1 }),
  agentView({ agentId: 'mate', depth: 1 }),
  agentView({ agentId: 'b', parentId: 'team-lead', depth: 1 }),
  agentView({ agentId: 'a1', parentId: 'a', depth: 2 }),
  agentView({ agentId: 'm1', parentId: 'mate', depth: 2 }),
  agentView({ agentId: 'orphan', parentId: 'gone', depth: 2 }),
  agentView({ agentId: 'a11', parentId: 'a1', depth: 3 })
)

describe('pane tree', () => {
  it('tiles each subagent right under its parent, the leader’s first, then the other roots with theirs', () => {
    expect(visibleTileIds(tree.order, tree.byId, {})).toEqual(['a', 'a1', 'a11', 'b', 'mate', 'm1', 'orphan'])
  })

  it('hides the whole subtree of a collapsed agent but keeps the agent itself', () => {
    expect(visibleTileIds(tree.order, tree.byId, { a: true })).toEqual(['a', 'b', 'mate', 'm1', 'orphan'])
    expect(visibleTileIds(tree.order, tree.byId, { a1: true, mate: true })).toEqual(['a', 'a1', 'b', 'mate', 'orphan'])
  })

  it('collapsing the leader hides its subagents only', () => {
    expect(visibleTileIds(tree.order, tree.byId, { 'team-lead': true })).toEqual(['mate', 'm1', 'orphan'])
  })

  it('indents by the ancestors between an agent and its root', () => {
    expect([nestLevel('a', tree.byId), nestLevel('a1', tree.byId), nestLevel('a11', tree.byId)]).toEqual([0, 1, 2])
    expect([nestLevel('mate', tree.byId), nestLevel('m1', tree.byId), nestLevel('orphan', tree.byId)]).toEqual([
      0, 1, 0
    ])
  })

  it('counts what collapsing an agent hides', () => {
    expect(descendantCount('team-lead', tree.order, tree.byId)).toBe(4)
    expect(descendantCount('a', tree.order, tree.byId)).toBe(2)
    expect(descendantCount('b', tree.order, tree.byId)).toBe(0)
  })

  it('survives a parent cycle without looping', () => {
    const loop = agents(
      agentView({ agentId: 'team-lead' }),
      agentView({ agentId: 'x', parentId: 'y' }),
      agentView({ agentId: 'y', parentId: 'x' })
    )
    expect(visibleTileIds(loop.order, loop.byId, {})).toEqual([])
    expect(nestLevel('x', loop.byId)).toBeLessThanOrEqual(32)
    expect(descendantCount('x', loop.order, loop.byId)).toBe(1)
  })

  it('makes a teammate a top-level tile even though its parentId names the leader, with its subagents under it', () => {
    const team = agents(
      agentView({ agentId: 'team-lead' }),
      agentView({ agentId: 'alice@t', parentId: 'team-lead', depth: 1, backend: 'worker' }),
      agentView({ agentId: 's', parentId: 'team-lead', depth: 1 }),
      agentView({ agentId: 'as', parentId: 'alice@t', depth: 2 }),
      agentView({ agentId: 'bob@t', parentId: 'team-lead', depth: 1 })
    )
    expect(visibleTileIds(team.order, team.byId, {})).toEqual(['s', 'alice@t', 'as', 'bob@t'])
    expect(visibleTileIds(team.order, team.byId, { 'team-lead': true })).toEqual(['alice@t', 'as', 'bob@t'])
    expect([nestLevel('alice@t', team.byId), nestLevel('as', team.byId), nestLevel('bob@t', team.byId)]).toEqual([
      0, 1, 0
    ])
    expect(descendantCount('team-lead', team.order, team.byId)).toBe(1)
    expect(paneParentId('alice@t', team.byId)).toBeUndefined()
    expect(paneParentId('as', team.byId)).toBe('alice@t')
  })
})
