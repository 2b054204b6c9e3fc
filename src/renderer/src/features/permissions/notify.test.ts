import { describe, expect, it } from 'vitest'
import { createAppStore } from '../../store/store'
import { ev, permission, snapshot } from '../../store/store.testkit'
import { notifyClaudeWaiting, notifyNewPermissions, type Chime, type Notifier } from './notify'

function fakeNotifier(permission: NotificationPermission = 'granted') {
  const shown: string[] = []
  const n: Notifier & { shown: string[]; asks: number } = {
    permission,
    asks: 0,
    shown,
    async requestPermission() {
      n.asks++
      return 'denied'
    },
    show: (title, body) => shown.push(`${title} | ${body}`)
  }
  return n
}

function countingChime(): Chime & { plays: number } {
  const c = { plays: 0, play: () => void c.plays++ }
  return c
}

describe('permission notifications', () => {
  it('notifies each new request once, only while the window is not focused', () => {
    const store = createAppStore()
    const notifier = fakeNotifier()
    let focused = false
    const d = notifyNewPermissions(store, notifier, () => focused, null)
    store.getState().setPermissions([permission({ requestId: 'a' })])
    store
      .getState()
      .setPermissions([
        permission({ requestId: 'a' }),
        permission({ requestId: 'b', tool: 'Read', input: { file_path: '/etc/hosts' } })
      ])
    focused = true
    store.getState().setPermissions([permission({ requestId: 'c' })])
    expect(notifier.shown).toEqual([
      'team-lead asks to use Bash | Bash: npm test',
      'team-lead asks to use Read | Read: /etc/hosts'
    ])
    d.dispose()
    focused = false
    store.getState().setPermissions([permission({ requestId: 'd' })])
    expect(notifier.shown).toHaveLength(2)
  })

  it('asks for permission once and shows nothing when refused', async () => {
    const store = createAppStore()
    const notifier = fakeNotifier('default')
    notifyNewPermissions(store, notifier, () => false, null)
    store.getState().setPermissions([permission({ requestId: 'a' })])
    store.getState().setPermissions([permission({ requestId: 'b' })])
    await Promise.resolve()
    expect(notifier.asks).toBe(1)
    expect(notifier.shown).toEqual([])
  })

  it('names a teammate’s plan approval by the plan’s first line', () => {
    const store = createAppStore()
    const notifier = fakeNotifier()
    notifyNewPermissions(store, notifier, () => false, null)
    store.getState().setPermissions([
      permission({
        requestId: 'p',
        agentId: 'alice@t',
        agentName: 'alice',
        tool: 'ExitPlanMode',
        input: { plan: '\n## Fix the parser\n1. read it' },
        suggestions: []
      })
    ])
    expect(notifier.shown).toEqual(['alice asks to approve its plan | Fix the parser'])
  })

  it('chimes once per batch of new requests while the window is not focused, even with notifications refused', () => {
    const store = createAppStore()
    const chime = countingChime()
    let focused = false
    notifyNewPermissions(store, fakeNotifier('denied'), () => focused, chime)
    store.getState().setPermissions([permission({ requestId: 'a' }), permission({ requestId: 'b' })])
    expect(chime.plays).toBe(1)
    // the same requests again (an answer on its way, a re-sent list): nothing new, no sound
    store.getState().setPermissions([permission({ requestId: 'a' }), permission({ requestId: 'b' })])
    expect(chime.plays).toBe(1)
    focused = true
    store.getState().setPermissions([permission({ requestId: 'c' })])
    expect(chime.plays).toBe(1)
    focused = false
    store.getState().setPermissions([permission({ requestId: 'c' }), permission({ requestId: 'd' })])
    expect(chime.plays).toBe(2)
  })

  it('chimes where the page has no notifications at all', () => {
    const store = createAppStore()
    const chime = countingChime()
    notifyNewPermissions(store, undefined, () => false, chime)
    store.getState().setPermissions([permission({ requestId: 'a' })])
    expect(chime.plays).toBe(1)
  })
})

describe('Claude Code session notifications', () => {
  it('notifies each time a Claude Code session starts waiting, while the window is not focused; Swarmdesk agents are left to their permission cards', () => {
    const store = createAppStore()
    const notifier = fakeNotifier()
    const chime = countingChime()
    let focused = false
    notifyClaudeWaiting(store, notifier, () => focused, chime)
    store.getState().loadSnapshot(snapshot())
    const apply = store.getState().applyEvent
    apply(
      ev({ type: 'agent_started', agentId: 'claude-1', agentName: 'Claude Code 1', agentType: 'claude-code', depth: 0 })
    )
    apply(ev({ type: 'agent_started', agentId: 'alice', agentName: 'alice', agentType: 'worker', depth: 1 }))
    const state = (agentId: string, agentName: string, s: 'running' | 'awaiting_permission' | 'idle') =>
      apply(ev({ type: 'agent_state', agentId, agentName, state: s }))
    state('claude-1', 'Claude Code 1', 'running')
    state('claude-1', 'Claude Code 1', 'awaiting_permission')
    state('alice', 'alice', 'awaiting_permission')
    state('claude-1', 'Claude Code 1', 'awaiting_permission') // still the same wait
    state('claude-1', 'Claude Code 1', 'running')
    focused = true
    state('claude-1', 'Claude Code 1', 'awaiting_permission') // seen in the window: no notification
    focused = false
    state('claude-1', 'Claude Code 1', 'idle')
    state('claude-1', 'Claude Code 1', 'awaiting_permission')
    expect(notifier.shown).toEqual([
      'Claude Code 1 waits for you | Claude Code asks something in its pane.',
      'Claude Code 1 waits for you | Claude Code asks something in its pane.'
    ])
    expect(chime.plays).toBe(2)
  })
})
