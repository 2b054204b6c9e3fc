import { describe, expect, it } from 'vitest'
import { createAppStore } from '../../store/store'
import type { CardPlacement } from '../../store/permissionsSlice'
import { permission } from '../../store/store.testkit'
import { onPermissionKey, type PermissionKeyDeps } from './keyboard'
import { shortcutFor, type KeyLike } from './shortcuts'

const key = (k: string, over: Partial<KeyLike> = {}): KeyLike => ({
  key: k,
  shiftKey: false,
  ctrlKey: false,
  metaKey: false,
  altKey: false,
  target: null,
  ...over
})
const field = (tagName: string, classes: string[] = []) =>
  ({ tagName, classList: { contains: (c: string) => classes.includes(c) } }) as unknown as EventTarget

/** A real store, and a record of what the keys asked the card commands to do. */
function setup(onScreen: { queue: boolean; pane: boolean } = { queue: true, pane: true }) {
  const store = createAppStore()
  const ran: Array<[string, string, CardPlacement]> = []
  let blurred = 0
  const deps: PermissionKeyDeps = {
    store,
    run: (p, action, origin) => ran.push([p.requestId, action, origin]),
    shows: () => onScreen,
    blur: () => void blurred++
  }
  return { store, ran, deps, blurred: () => blurred }
}

describe('permission keys', () => {
  it('maps A, Shift+A, D and Esc, in either case', () => {
    expect(
      [key('a'), key('A', { shiftKey: true }), key('d'), key('Escape'), key('y'), key('n')].map(shortcutFor)
    ).toEqual(['allow-once', 'always-allow', 'deny', 'dismiss', undefined, undefined])
    // Caps Lock: an upper-case A without Shift is still "allow once"
    expect(shortcutFor(key('A'))).toBe('allow-once')
    expect(shortcutFor(key('D', { shiftKey: true }))).toBeUndefined()
  })

  it('never fires with Ctrl, Meta or Alt, nor while the person types in a field — a pane is not a field', () => {
    expect(shortcutFor(key('a', { ctrlKey: true }))).toBeUndefined()
    expect(shortcutFor(key('a', { metaKey: true }))).toBeUndefined()
    expect(shortcutFor(key('d', { altKey: true }))).toBeUndefined()
    for (const tag of ['INPUT', 'TEXTAREA', 'SELECT']) {
      expect(shortcutFor(key('a', { target: field(tag) }))).toBeUndefined()
      expect(shortcutFor(key('Escape', { target: field(tag) }))).toBeUndefined()
    }
    expect(
      shortcutFor(key('a', { target: { tagName: 'DIV', isContentEditable: true } as unknown as EventTarget }))
    ).toBeUndefined()
    expect(shortcutFor(key('a', { target: field('TEXTAREA', ['xterm-helper-textarea']) }))).toBe('allow-once')
    expect(shortcutFor(key('a', { target: field('BUTTON') }))).toBe('allow-once')
  })

  it('acts on the oldest request, or on the focused one', () => {
    const { store, ran, deps } = setup()
    store.getState().setPermissions([permission({ requestId: 'old' }), permission({ requestId: 'new' })])
    expect(onPermissionKey(key('a'), deps)).toBe(true)
    expect(onPermissionKey(key('A', { shiftKey: true }), deps)).toBe(true)
    store.getState().focusPermission('new', 'queue')
    expect(onPermissionKey(key('a'), deps)).toBe(true)
    expect(ran).toEqual([
      ['old', 'allow-once', 'queue'],
      ['old', 'always-allow', 'queue'],
      ['new', 'allow-once', 'queue']
    ])
  })

  it('opens the reason field on the card the person used, else the queue’s when on screen, else the pane’s', () => {
    const both = setup()
    both.store.getState().setPermissions([permission({ requestId: 'a' })])
    onPermissionKey(key('d'), both.deps)
    both.store.getState().focusPermission('a', 'pane')
    onPermissionKey(key('d'), both.deps)
    const paneOnly = setup({ queue: false, pane: true })
    paneOnly.store.getState().setPermissions([permission({ requestId: 'a' })])
    onPermissionKey(key('d'), paneOnly.deps)
    // the card used is gone from the screen (the drawer switched tabs): the one still shown
    paneOnly.store.getState().focusPermission('a', 'queue')
    onPermissionKey(key('d'), paneOnly.deps)
    expect([...both.ran, ...paneOnly.ran]).toEqual([
      ['a', 'deny', 'queue'],
      ['a', 'deny', 'pane'],
      ['a', 'deny', 'pane'],
      ['a', 'deny', 'pane']
    ])
  })

  it('never answers a request none of whose cards is on screen', () => {
    const { store, ran, deps } = setup({ queue: false, pane: false })
    store.getState().setPermissions([permission({ requestId: 'a' })])
    expect(onPermissionKey(key('a'), deps)).toBe(false)
    expect(onPermissionKey(key('d'), deps)).toBe(false)
    expect(ran).toEqual([])
  })

  it('Esc closes an open reason field first, then lets go of the focused card, then does nothing', () => {
    const { store, deps, blurred } = setup()
    store.getState().setPermissions([permission({ requestId: 'a' }), permission({ requestId: 'b' })])
    store.getState().beginDeny('b', 'queue')
    expect(onPermissionKey(key('Escape'), deps)).toBe(true)
    expect(store.getState().permissions.deny).toBeUndefined()
    expect(store.getState().permissions.focusedId).toBe('b')
    expect(onPermissionKey(key('Escape'), deps)).toBe(true)
    expect(store.getState().permissions.focusedId).toBeUndefined()
    expect(blurred()).toBe(1)
    // nothing left to dismiss: the key is not swallowed
    expect(onPermissionKey(key('Escape'), deps)).toBe(false)
  })

  it('does nothing without a request, and nothing twice while an answer is on its way', () => {
    const { store, ran, deps } = setup()
    expect(onPermissionKey(key('a'), deps)).toBe(false)
    store.getState().setPermissions([permission({ requestId: 'a' })])
    store.getState().setResponding('a', true)
    expect(onPermissionKey(key('a'), deps)).toBe(true)
    expect(ran).toEqual([])
  })
})

describe('moving between cards and Shift+A without a rule (issue 19 item 11)', () => {
  it('↓ and ↑ make the next and previous card active, round the end; Esc lets go, back to the oldest', () => {
    const { store, deps } = setup()
    const focused: string[] = []
    deps.focus = (id) => void focused.push(id)
    store
      .getState()
      .setPermissions([permission({ requestId: 'a' }), permission({ requestId: 'b' }), permission({ requestId: 'c' })])
    expect(onPermissionKey(key('ArrowDown'), deps)).toBe(true)
    expect(store.getState().permissions.focusedId).toBe('b')
    onPermissionKey(key('ArrowDown'), deps)
    onPermissionKey(key('ArrowDown'), deps)
    expect(store.getState().permissions.focusedId).toBe('a')
    onPermissionKey(key('ArrowUp'), deps)
    expect(store.getState().permissions.focusedId).toBe('c')
    expect(focused).toEqual(['b', 'c', 'a', 'c'])
    onPermissionKey(key('Escape'), deps)
    expect(store.getState().permissions.focusedId).toBeUndefined()
  })

  it('leaves the arrows alone where they mean something else', () => {
    const { store, deps } = setup()
    deps.arrowsFree = () => false
    store.getState().setPermissions([permission({ requestId: 'a' }), permission({ requestId: 'b' })])
    expect(onPermissionKey(key('ArrowDown'), deps)).toBe(false)
    expect(store.getState().permissions.focusedId).toBeUndefined()
  })

  it('Shift+A on a request with no suggested rule says so on its card', async () => {
    const { runAction } = await import('./answer')
    const { appStore } = await import('../../store/store')
    appStore.getState().setPermissions([permission({ requestId: 'r', suggestions: [] })])
    runAction(appStore.getState().permissions.pending[0]!, 'always-allow', 'queue')
    expect(appStore.getState().permissions.notice).toEqual({
      requestId: 'r',
      text: expect.stringContaining('No rule can be suggested for this request')
    })
  })
})
