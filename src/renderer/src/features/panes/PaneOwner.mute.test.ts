// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest'
import { WebSocket } from 'ws'
import { startHostFixture } from '../../../../main/host/hostFixture.testkit'
import { paneWorkspace } from '../../../../main/host/paneWorkspace.testkit'
import type { PaneScrollback } from '../../../../shared/ipc'
import { createWebSocketClient, type SocketConstructor } from '../../api/wsClient'
import { MAX_HELD_OFFSCREEN, PaneOwner } from './PaneOwner'
import { PaneRouter } from './paneRouter'
import { createXtermTerminal } from './terminal'
import type { PaneWriter } from './writeScheduler'

/** Turns granted the moment they are asked for: a live chunk of a visible pane is written at once. */
const immediateWrites = { request: (w: PaneWriter) => w.takeTurn(), cancel: () => undefined }
const sb = (agentId: string, data: string, chunk: number): PaneScrollback => ({
  agentId,
  data,
  chunk,
  cols: 80,
  rows: 24
})
const flush = () => new Promise((r) => setTimeout(r, 0))

const cleanups: Array<() => unknown> = []
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c()
})

/**
 * A router whose requests to main are recorded in order, as the page sends them: `mute <id>`,
 * `unmute <id>`, `fetch <id>` (answered with a scrollback ending at the last chunk dispatched).
 */
function recordingRouter() {
  const router = new PaneRouter()
  const sent: string[] = []
  const last = new Map<string, number>()
  router.setMuteSender((agentId, muted) => sent.push(`${muted ? 'mute' : 'unmute'} ${agentId}`))
  router.setScrollbackFetcher(async (agentId) => {
    sent.push(`fetch ${agentId}`)
    return sb(agentId, `[restored ${agentId}]`, last.get(agentId) ?? 0)
  })
  const dispatch = (agentId: string, data: string) => {
    const chunk = (last.get(agentId) ?? 0) + 1
    last.set(agentId, chunk)
    router.dispatch({ agentId, data, chunk })
  }
  return { router, sent, dispatch }
}

function owner(router: PaneRouter, agentId: string, visible: boolean): PaneOwner {
  const host = document.createElement('div')
  document.body.append(host)
  const pane = new PaneOwner(host, agentId, {
    source: router,
    createTerminal: createXtermTerminal,
    visible,
    writes: immediateWrites
  })
  cleanups.push(() => {
    pane.dispose()
    host.remove()
  })
  return pane
}

const half = 'x'.repeat(MAX_HELD_OFFSCREEN / 2 + 1)

describe('PaneOwner mutes an off-screen pane that will restore from the scrollback (pane.mute)', () => {
  it('asks once to mute when it drops its held output, and on show unmutes before it fetches the scrollback', async () => {
    const { router, sent, dispatch } = recordingRouter()
    const pane = owner(router, 'carol', false)
    await expectText(router, 'carol', '[restored carol]')
    expect(sent).toEqual(['fetch carol'])
    dispatch('carol', half)
    expect(sent).toEqual(['fetch carol'])
    dispatch('carol', half) // past the limit: restoreOnShow
    dispatch('carol', 'late') // in flight when the mute went out: held for nothing, no second request
    expect(sent).toEqual(['fetch carol', 'mute carol'])
    expect(router.mutedAgents).toEqual(['carol'])
    pane.setVisible(true)
    expect(sent).toEqual(['fetch carol', 'mute carol', 'unmute carol', 'fetch carol'])
    expect(router.mutedAgents).toEqual([])
    dispatch('carol', 'after the restore')
    await expectText(router, 'carol', '[restored carol]after the restore')
  })

  it('stays muted when it is disposed while muted (no pane shows the agent); the next pane unmutes before its restore', async () => {
    const { router, sent, dispatch } = recordingRouter()
    const pane = owner(router, 'carol', false)
    await flush()
    dispatch('carol', half)
    dispatch('carol', half)
    pane.dispose()
    expect(sent).toEqual(['fetch carol', 'mute carol'])
    expect(router.mutedAgents).toEqual(['carol'])
    const again = owner(router, 'carol', true)
    expect(sent).toEqual(['fetch carol', 'mute carol', 'unmute carol', 'fetch carol'])
    expect(router.mutedAgents).toEqual([])
    again.dispose()
  })

  it("mutes an agent whose output comes while no pane shows it, and unmutes when a pane mounts, before its restore's fetch", async () => {
    const { router, sent, dispatch } = recordingRouter()
    dispatch('dave', half)
    dispatch('dave', half)
    expect(sent).toEqual(['mute dave'])
    const pane = owner(router, 'dave', true)
    expect(sent).toEqual(['mute dave', 'unmute dave', 'fetch dave'])
    pane.dispose()
  })

  it("keeps the agent's output coming while another pane of it still shows it, and mutes once both have given up", async () => {
    const { router, sent, dispatch } = recordingRouter()
    const hidden = owner(router, 'carol', false)
    const shown = owner(router, 'carol', true)
    await flush()
    dispatch('carol', half)
    dispatch('carol', half)
    expect(sent.filter((s) => !s.startsWith('fetch'))).toEqual([])
    shown.setVisible(false)
    dispatch('carol', half)
    dispatch('carol', half)
    expect(sent.filter((s) => !s.startsWith('fetch'))).toEqual(['mute carol'])
    hidden.setVisible(true)
    expect(sent.filter((s) => !s.startsWith('fetch'))).toEqual(['mute carol', 'unmute carol'])
    // given up again, by the only other pane: muted until a new pane of the agent wants its output
    await flush()
    hidden.setVisible(false)
    dispatch('carol', half)
    dispatch('carol', half)
    expect(router.mutedAgents).toEqual(['carol'])
    owner(router, 'carol', false)
    expect(sent.filter((s) => !s.startsWith('fetch'))).toEqual([
      'mute carol',
      'unmute carol',
      'mute carol',
      'unmute carol'
    ])
  })

  it('after a reconnect, unmutes on the new connection what it had muted; a pane off screen mutes again and restores on its show, one on screen restores at once', async () => {
    const { router, sent, dispatch } = recordingRouter()
    const hidden = owner(router, 'carol', false)
    owner(router, 'erin', true)
    await flush()
    dispatch('carol', half)
    dispatch('carol', half)
    // a subscriber that stays muted through a resync
    const quiet = router.register('dave', { onData: () => undefined, onResync: () => undefined, text: () => '' })
    cleanups.push(() => quiet.dispose())
    quiet.setMuted(true)
    sent.length = 0
    router.resyncAll()
    expect(sent).toEqual(['unmute carol', 'unmute dave', 'mute carol', 'fetch erin', 'mute dave'])
    expect(router.mutedAgents.sort()).toEqual(['carol', 'dave'])
    hidden.setVisible(true)
    expect(sent.slice(5)).toEqual(['unmute carol', 'fetch carol'])
  })

  it('waits for the show to restore after a gap in the numbering while off screen, muted meanwhile', async () => {
    const { router, sent, dispatch } = recordingRouter()
    const acks: Array<[string, number]> = []
    router.setAckSender((batch) => acks.push(...batch.map((a): [string, number] => [a.agentId, a.chunk])))
    const hidden = owner(router, 'carol', false)
    await expectText(router, 'carol', '[restored carol]')
    dispatch('carol', 'one')
    router.dispatch({ agentId: 'carol', data: 'three', chunk: 3 }) // chunk 2 never came
    expect(sent).toEqual(['fetch carol', 'mute carol'])
    await until(() => acks.some(([, n]) => n === 3), 'the chunk after the gap is acknowledged')
    router.dispatch({ agentId: 'carol', data: 'four', chunk: 4 }) // sent before main read the mute
    hidden.setVisible(true)
    expect(sent).toEqual(['fetch carol', 'mute carol', 'unmute carol', 'fetch carol'])
    await expectText(router, 'carol', '[restored carol]')
  })

  it('asks nothing of main without a connection, and forgets its mutes when the connection goes', async () => {
    const { router, sent, dispatch } = recordingRouter()
    owner(router, 'carol', false)
    await flush()
    dispatch('carol', half)
    dispatch('carol', half)
    router.setMuteSender(undefined)
    expect(router.mutedAgents).toEqual([])
    const quiet = router.register('dave', { onData: () => undefined, onResync: () => undefined, text: () => '' })
    quiet.setMuted(true)
    quiet.dispose()
    expect(sent).toEqual(['fetch carol', 'mute carol'])
  })
})

describe('PaneOwner muted over the real bridge', () => {
  it('stops the pane output crossing the socket while it is muted, and on show restores every line exactly once, in order', async () => {
    const ws = paneWorkspace(['p'], 50)
    cleanups.push(() => ws.dispose())
    const fx = await startHostFixture(ws.service)
    cleanups.push(() => fx.dispose())
    const client = createWebSocketClient({
      url: `ws://127.0.0.1:${fx.host.port}/bridge?token=${fx.host.token}`,
      WebSocket: WebSocket as unknown as SocketConstructor
    })
    cleanups.push(() => client.dispose())
    const router = new PaneRouter()
    // as the page's wiring connects them (src/renderer/src/store/wiring.ts)
    let received = 0
    const off = client.on('pane.data', (c) => {
      received++
      router.dispatch(c)
    })
    cleanups.push(off)
    router.setScrollbackFetcher((agentId) => client.request('pane.scrollback', { agentId }))
    router.setAckSender((acks) => void client.request('pane.ack', { acks }).catch(() => undefined))
    router.setMuteSender(
      (agentId, muted) => void client.request('pane.mute', { agentId, muted }).catch(() => undefined)
    )
    await until(() => client.status === 'open', 'the client connects')
    const pane = owner(router, 'p', false)
    ws.start()
    await until(() => router.mutedAgents.includes('p'), 'the hidden pane gives up its held output and mutes')
    // the bridge reads a socket's requests in order: once this one is answered, the mute was applied and what was sent before it has arrived
    const settle = () => client.request('pane.ack', { acks: [{ agentId: 'other', chunk: 0 }] })
    await settle()
    const whenMuted = received
    const linesWhenMuted = ws.lines('p')
    await until(
      () => ws.lines('p') >= linesWhenMuted + 10_000,
      'the agent writes 10,000 more lines (~600 KB) while muted'
    )
    await settle()
    expect(received).toBe(whenMuted)
    // shown while the agent writes on: the unmute and the fetch go out back to back
    pane.setVisible(true)
    const linesAtShow = ws.lines('p')
    await until(() => ws.lines('p') >= linesAtShow + 300, 'the agent writes on during the restore')
    ws.stop()
    const last = ws.lines('p')
    expect(received).toBeGreaterThan(whenMuted)
    await until(() => router.text('p').includes(`p line ${last} `), 'the last line reaches the pane')
    const numbers = router
      .text('p')
      .split('\n')
      .map((line) => Number(/^p line (\d+) x{40}$/.exec(line)?.[1] ?? NaN))
    expect(numbers.every(Number.isInteger)).toBe(true)
    expect(numbers).toEqual(numbers.map((_, i) => numbers[0]! + i))
    expect(numbers.at(-1)).toBe(last)
    // the restore spans lines from before the show to the last one
    expect(numbers[0]).toBeLessThan(linesAtShow)
  }, 60_000)
})

async function until(probe: () => boolean, what: string, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms
  while (!probe()) {
    if (Date.now() > deadline) throw new Error(`timed out: ${what}`)
    await new Promise((r) => setTimeout(r, 20))
  }
}

async function expectText(router: PaneRouter, agentId: string, text: string): Promise<void> {
  await until(
    () => router.text(agentId) === text,
    `the pane shows ${JSON.stringify(text)}; it shows ${JSON.stringify(router.text(agentId))}`
  )
}
