import { describe, expect, it } from 'vitest'
import { selectPendingCount } from './permissionsSlice'
import { selectActivePermission } from './selectors'
import { createAppStore } from './store'
import { permission } from './store.testkit'

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

  it('counts what waits, plan approvals included, for the queue and drawer badge', () => {
    const store = createAppStore()
    expect(selectPendingCount(store.getState())).toBe(0)
    store.getState().setPermissions([
      permission({ requestId: 'a' }),
      permission({
        requestId: 'p',
        agentId: 'pat@t',
        agentName: 'pat',
        tool: 'ExitPlanMode',
        input: { plan: '1. x' },
        suggestions: []
      })
    ])
    expect(selectPendingCount(store.getState())).toBe(2)
    store.getState().setPermissions([permission({ requestId: 'p' })])
    expect(selectPendingCount(store.getState())).toBe(1)
  })

  it('remembers which of a request’s two cards was used, and lets go of it', () => {
    const store = createAppStore()
    store.getState().setPermissions([permission({ requestId: 'a' }), permission({ requestId: 'b' })])
    store.getState().focusPermission('b', 'pane')
    expect(store.getState().permissions).toMatchObject({ focusedId: 'b', focusedPlacement: 'pane' })
    store.getState().focusPermission(undefined)
    expect(store.getState().permissions).toMatchObject({ focusedId: undefined, focusedPlacement: undefined })
    expect(selectActivePermission(store.getState())?.requestId).toBe('a')
    store.getState().beginDeny('b', 'queue')
    expect(store.getState().permissions).toMatchObject({ focusedId: 'b', focusedPlacement: 'queue' })
    // the focused request answered elsewhere: focus and its card go with it
    store.getState().setPermissions([permission({ requestId: 'a' })])
    expect(store.getState().permissions).toMatchObject({
      focusedId: undefined,
      focusedPlacement: undefined,
      deny: undefined
    })
  })
})
