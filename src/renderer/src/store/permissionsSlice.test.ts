import { describe, expect, it } from 'vitest'
import { selectActivePermission } from './selectors'
import { createAppStore } from './store'
import { permission } from './testing'

describe('permissions slice', () => {
  it('replaces the whole list on every change', () => {
    const store = createAppStore()
    store.getState().setPermissions([permission({ requestId: 'a' }), permission({ requestId: 'b' })])
    store.getState().setPermissions([permission({ requestId: 'c' })])
    expect(store.getState().permissions.pending.map((p) => p.requestId)).toEqual(['c'])
  })

  it('acts on the focused request, else the oldest', () => {
    const store = createAppStore()
    store.getState().setPermissions([permission({ requestId: 'a' }), permission({ requestId: 'b' })])
    expect(selectActivePermission(store.getState())?.requestId).toBe('a')
    store.getState().focusPermission('b')
    expect(selectActivePermission(store.getState())?.requestId).toBe('b')
    store.getState().setPermissions([permission({ requestId: 'a' })])
    expect(store.getState().permissions.focusedId).toBeUndefined()
    expect(selectActivePermission(store.getState())?.requestId).toBe('a')
  })

  it('forgets a denial being written and answers on their way when the request goes', () => {
    const store = createAppStore()
    store.getState().setPermissions([permission({ requestId: 'a' }), permission({ requestId: 'b' })])
    store.getState().beginDeny('a', 'queue')
    store.getState().setDenyReason('not now')
    store.getState().setResponding('b', true)
    expect(store.getState().permissions.deny).toEqual({ requestId: 'a', reason: 'not now', origin: 'queue' })
    store.getState().setPermissions([permission({ requestId: 'b' })])
    expect(store.getState().permissions.deny).toBeUndefined()
    expect(store.getState().permissions.responding).toEqual({ b: true })
    store.getState().setPermissions([])
    expect(store.getState().permissions.responding).toEqual({})
  })
})
