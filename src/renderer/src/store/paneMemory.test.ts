import { beforeEach, describe, expect, it } from 'vitest'
import {
  selectArrangedTiles,
  selectHiddenPanes,
  selectSolePane,
  selectTileHeads
} from '../features/panes/gridSelectors'
import type { KeyValueStorage } from './localMemory'
import { bindPaneMemory, loadPanes, MAX_REMEMBERED_IDS, paneMemoryKey, type SavedPanes } from './paneMemory'
import { createAppStore } from './store'
import { ev, resetSeq, snapshot } from './store.testkit'

/** A localStorage stand-in that counts writes. */
function memoryStorage(): KeyValueStorage & { data: Map<string, string>; writes: number } {
  const data = new Map<string, string>()
  const s = {
    data,
    writes: 0,
    getItem: (k: string) => data.get(k) ?? null,
    setItem: (k: string, v: string) => {
      s.writes++
      data.set(k, v)
    }
  }
  return s
}

const CWD = '/work/demo'
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

/** A store bound to `storage`, then given the workspace's snapshot and agents (as the app gets them). */
function openWorkspace(
  storage: KeyValueStorage,
  agents = [sub('s1', 'team-lead'), sub('s1a', 's1'), mate('alice'), mate('bob')],
  cwd = CWD
) {
  const store = createAppStore()
  const memory = bindPaneMemory(store, storage)
  store.getState().loadSnapshot(snapshot({ cwd }))
  for (const e of agents) store.getState().applyEvent(e)
  return { store, memory }
}

describe('pane memory per workspace', () => {
  beforeEach(() => resetSeq())

  it('brings back layout, hidden panes, order and collapsed groups after a reload', () => {
    const storage = memoryStorage()
    const first = openWorkspace(storage).store
    first.getState().setLayout('tiled')
    first.getState().hidePane('alice@t')
    first.getState().movePane('bob@t', 's1', selectTileHeads(first.getState()))
    first.getState().toggleCollapsed('s1')

    const again = openWorkspace(storage).store.getState()
    expect(again.panes.layout).toBe('tiled')
    expect(selectHiddenPanes(again)).toEqual(['alice@t'])
    expect(selectArrangedTiles(again)).toEqual(['bob@t', 's1'])
    expect(again.panes.collapsed).toEqual({ s1: true })
  })

  it('applies the memory in the same update that names the workspace, so the grid never shows the default first', () => {
    const storage = memoryStorage()
    storage.setItem(
      paneMemoryKey(CWD),
      JSON.stringify({
        schemaVersion: 1,
        layout: 'single',
        focused: 'bob@t',
        hidden: [],
        collapsed: [],
        order: []
      } satisfies SavedPanes)
    )
    const store = createAppStore()
    bindPaneMemory(store, storage)
    const seen: string[] = []
    store.subscribe((s) => seen.push(`${s.workspace.cwd}:${s.panes.layout}`))
    store.getState().loadSnapshot(snapshot({ cwd: CWD }))
    expect(store.getState().panes.layout).toBe('single')
    // every notification a component could render from already has the remembered layout
    expect(seen.filter((x) => x.startsWith(CWD))).not.toContain(`${CWD}:main-vertical`)
  })

  it('keeps choices about agents that are gone or not back yet, and adds new agents after the arranged ones', () => {
    const storage = memoryStorage()
    const first = openWorkspace(storage).store
    first.getState().hidePane('s1')
    first.getState().movePane('bob@t', 'alice@t', selectTileHeads(first.getState()))
    expect(selectTileHeads(first.getState())).toEqual(['bob@t', 'alice@t'])

    // a new session: s1 is gone, alice is not back yet, carol is new
    const store = openWorkspace(storage, [mate('bob'), mate('carol')]).store
    expect(selectTileHeads(store.getState())).toEqual(['bob@t', 'carol@t'])
    expect(selectHiddenPanes(store.getState())).toEqual([])
    // alice returns: she takes her remembered place before carol
    store.getState().applyEvent(mate('alice'))
    expect(selectTileHeads(store.getState())).toEqual(['bob@t', 'alice@t', 'carol@t'])
    // moving carol keeps alice's and the gone s1's places remembered
    store.getState().movePane('carol@t', 'bob@t', selectTileHeads(store.getState()))
    expect(loadPanes(storage, CWD)?.order.slice(0, 3)).toEqual(['carol@t', 'bob@t', 'alice@t'])
  })

  it('falls back to the leader when the remembered single pane no longer exists, and never hides the leader', () => {
    const storage = memoryStorage()
    storage.setItem(
      paneMemoryKey(CWD),
      JSON.stringify({
        schemaVersion: 1,
        layout: 'single',
        focused: 'gone',
        hidden: ['team-lead'],
        collapsed: [],
        order: []
      })
    )
    const s = openWorkspace(storage).store.getState()
    expect(selectSolePane(s)).toBe('team-lead')
    expect(s.panes.hidden).toEqual({})
  })

  it('keeps workspaces apart', () => {
    const storage = memoryStorage()
    openWorkspace(storage, [], '/a').store.getState().setLayout('single')
    expect(openWorkspace(storage, [], '/b').store.getState().panes.layout).toBe('main-vertical')
    expect(openWorkspace(storage, [], '/a').store.getState().panes.layout).toBe('single')
  })

  it('ignores an entry that does not validate, and starts from the defaults', () => {
    const storage = memoryStorage()
    for (const bad of [
      'not json',
      JSON.stringify({ schemaVersion: 2, layout: 'tiled', hidden: [], collapsed: [], order: [] }),
      JSON.stringify({ schemaVersion: 1, layout: 'spiral', hidden: [], collapsed: [], order: [] })
    ]) {
      storage.setItem(paneMemoryKey(CWD), bad)
      expect(openWorkspace(storage).store.getState().panes.layout).toBe('main-vertical')
    }
  })

  it('writes only when a remembered choice changes, never for events or a maximised pane', () => {
    const storage = memoryStorage()
    const { store } = openWorkspace(storage)
    const before = storage.writes
    store
      .getState()
      .applyEvent(ev({ type: 'assistant_text', agentId: 'team-lead', agentName: 'team-lead', text: 'hi' }))
    store.getState().toggleMaximised('bob@t')
    store.getState().setAgentRequest('s1', { pending: 'stop' })
    expect(storage.writes).toBe(before)
    store.getState().setLayout('tiled')
    expect(storage.writes).toBe(before + 1)
    expect(loadPanes(storage, CWD)?.layout).toBe('tiled')
  })

  it('does not restore a maximised pane', () => {
    const storage = memoryStorage()
    const first = openWorkspace(storage).store
    first.getState().toggleMaximised('alice@t')
    first.getState().setLayout('tiled')
    expect(selectSolePane(openWorkspace(storage).store.getState())).toBeUndefined()
  })

  it('remembers at most the newest ids of each list', () => {
    const storage = memoryStorage()
    const { store } = openWorkspace(storage, [])
    for (let i = 0; i < MAX_REMEMBERED_IDS + 20; i++) store.getState().hidePane(`old-${i}`)
    const saved = loadPanes(storage, CWD)!
    expect(saved.hidden).toHaveLength(MAX_REMEMBERED_IDS)
    expect(saved.hidden.at(-1)).toBe(`old-${MAX_REMEMBERED_IDS + 19}`)
  })

  it('stops writing once disposed', () => {
    const storage = memoryStorage()
    const { store, memory } = openWorkspace(storage)
    memory.dispose()
    const before = storage.writes
    store.getState().setLayout('single')
    expect(storage.writes).toBe(before)
  })
})
