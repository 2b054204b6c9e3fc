import { beforeEach, describe, expect, it } from 'vitest'
import {
  selectArrangedTiles,
  selectHiddenPanes,
  selectSolePane,
  selectTileHeads
} from '../features/panes/gridSelectors'
import { createAppStore } from './store'
import { ev, resetSeq, snapshot } from './store.testkit'

const sub = (agentId: string, parentId: string) =>
  ev({ type: 'agent_started', agentId, agentName: agentId, agentType: 'general-purpose', parentId, depth: 1 })
const mate = (name: string) =>
  ev({
    type: 'agent_started',
    agentId: `${name}@t`,
    agentName: name,
    agentType: 'general-purpose',
    parentId: 'team-lead',
    depth: 1,
    backend: 'worker'
  })

/** A leader with a subagent `s1` (whose child is `s1a`) and teammates alice and bob. */
function team() {
  const store = createAppStore()
  store.getState().loadSnapshot(snapshot())
  for (const e of [sub('s1', 'team-lead'), sub('s1a', 's1'), mate('alice'), mate('bob')]) store.getState().applyEvent(e)
  return store
}

describe('pane grid layout state', () => {
  beforeEach(() => resetSeq())

  it('starts in main-vertical with every tile in tree order and nothing hidden or maximised', () => {
    const s = team().getState()
    expect(s.panes.layout).toBe('main-vertical')
    expect(selectArrangedTiles(s)).toEqual(['s1', 's1a', 'alice@t', 'bob@t'])
    expect(selectTileHeads(s)).toEqual(['s1', 'alice@t', 'bob@t'])
    expect(selectSolePane(s)).toBeUndefined()
  })

  it('hides a pane and lists it to show again; the leader’s cannot be hidden', () => {
    const store = team()
    store.getState().hidePane('alice@t')
    store.getState().hidePane('team-lead')
    expect(selectArrangedTiles(store.getState())).toEqual(['s1', 's1a', 'bob@t'])
    expect(selectHiddenPanes(store.getState())).toEqual(['alice@t'])
    store.getState().showPane('alice@t')
    expect(selectArrangedTiles(store.getState())).toEqual(['s1', 's1a', 'alice@t', 'bob@t'])
    expect(selectHiddenPanes(store.getState())).toEqual([])
  })

  it('maximises a pane alone and restores the grid on the second toggle; hiding it also restores', () => {
    const store = team()
    store.getState().toggleMaximised('bob@t')
    expect(selectSolePane(store.getState())).toBe('bob@t')
    store.getState().toggleMaximised('bob@t')
    expect(selectSolePane(store.getState())).toBeUndefined()
    store.getState().toggleMaximised('bob@t')
    store.getState().hidePane('bob@t')
    expect(selectSolePane(store.getState())).toBeUndefined()
  })

  it('shows the leader in single until another pane is picked, and un-hides a picked hidden pane', () => {
    const store = team()
    store.getState().setLayout('single')
    expect(selectSolePane(store.getState())).toBe('team-lead')
    store.getState().hidePane('alice@t')
    store.getState().focusPane('alice@t')
    expect(selectSolePane(store.getState())).toBe('alice@t')
    expect(selectHiddenPanes(store.getState())).toEqual([])
    store.getState().setLayout('tiled')
    expect(selectSolePane(store.getState())).toBeUndefined()
  })

  it('reorders top-level tiles, carrying each one’s subagents along', () => {
    const store = team()
    store.getState().movePane('bob@t', 's1', selectTileHeads(store.getState()))
    expect(selectArrangedTiles(store.getState())).toEqual(['bob@t', 's1', 's1a', 'alice@t'])
    store.getState().movePane('s1', 'alice@t', selectTileHeads(store.getState()))
    expect(selectArrangedTiles(store.getState())).toEqual(['bob@t', 'alice@t', 's1', 's1a'])
    // a pane that arrives later goes after the arranged ones
    store.getState().applyEvent(mate('carol'))
    expect(selectTileHeads(store.getState())).toEqual(['bob@t', 'alice@t', 's1', 'carol@t'])
    // unknown ids change nothing
    const before = store.getState().panes
    store.getState().movePane('nobody', 's1', selectTileHeads(store.getState()))
    expect(store.getState().panes).toBe(before)
  })

  it('leaves out a collapsed subtree but keeps its head', () => {
    const store = team()
    store.getState().toggleCollapsed('s1')
    expect(selectArrangedTiles(store.getState())).toEqual(['s1', 'alice@t', 'bob@t'])
  })
})
