// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest'
import { DEFAULT_PANE_SCROLLBACK_LINES } from '../../../../shared/paneScrollback'
import type { PaneScrollback } from '../../../../shared/ipc'
import { actions, appStore, createAppStore } from '../../store/store'
import { snapshot } from '../../store/store.testkit'
import { PaneOwner } from './PaneOwner'
import { PaneRouter } from './paneRouter'
import { paneScrollbackSetting, scrollbackSettingOf, type PaneScrollbackSetting } from './scrollbackSetting'
import { createXtermTerminal } from './terminal'
import type { PaneWriter } from './writeScheduler'

/** `line from` … `line to`, each ended by CRLF. */
const lines = (from: number, to: number): string =>
  Array.from({ length: to - from + 1 }, (_, i) => `line ${from + i}\r\n`).join('')
const sb = (data: string, chunk: number): PaneScrollback => ({ agentId: 'team-lead', data, chunk, cols: 80, rows: 24 })
/** Turns granted the moment they are asked for: a live chunk of a visible pane is written at once. */
const immediateWrites = { request: (w: PaneWriter) => w.takeTurn(), cancel: () => undefined }

/**
 * The first line and the number of lines of a pane's text. In happy-dom nothing measures the
 * host, so the terminal stays 80 × 24: it holds `scrollback + 24` rows, the last of them the empty
 * row the cursor sits on after the final CRLF (left out of the text).
 */
function shape(router: PaneRouter): { first: string; count: number } {
  const text = router.text('team-lead').split('\n')
  return { first: text[0]!, count: text.length }
}

/** The setting of `store`, counting the subscriptions still open (a leak test). */
function counted(setting: PaneScrollbackSetting): PaneScrollbackSetting & { open: number } {
  const wrapper = {
    open: 0,
    get lines() {
      return setting.lines
    },
    onDidChange(listener: (lines: number) => void) {
      wrapper.open++
      const sub = setting.onDidChange(listener)
      return { dispose: () => (wrapper.open--, sub.dispose()) }
    }
  }
  return wrapper
}

describe("a pane's scrollback in the page (the paneScrollbackLines setting)", () => {
  it('creates a real xterm with the setting; an open pane follows a change at once, keeping the newest lines; disposing stops following', async () => {
    const store = createAppStore()
    store.getState().loadPaneSettings(snapshot({ paneScrollbackLines: 100 }))
    const setting = counted(scrollbackSettingOf(store))
    const router = new PaneRouter()
    const asked: Array<number | undefined> = []
    router.setScrollbackFetcher(async (_, wanted) => (asked.push(wanted), sb(lines(1, 300), 1)))
    const host = document.createElement('div')
    document.body.append(host)
    const owner = new PaneOwner(host, 'team-lead', { source: router, scrollback: setting, writes: immediateWrites })
    expect(setting.open).toBe(1)
    // 100 lines of scrollback: of 301 rows (the last one empty), the newest 124
    await expect.poll(() => shape(router)).toEqual({ first: 'line 178', count: 123 })
    // main is asked for no more lines than the terminal keeps
    expect(asked).toEqual([100])

    store.getState().setPaneScrollback(1_000)
    router.dispatch({ agentId: 'team-lead', data: lines(301, 1500), chunk: 2 })
    await expect.poll(() => shape(router)).toEqual({ first: 'line 478', count: 1_023 })

    // fewer lines: the oldest go at once
    store.getState().setPaneScrollback(100)
    expect(shape(router)).toEqual({ first: 'line 1378', count: 123 })

    owner.dispose()
    expect(setting.open).toBe(0)
    store.getState().setPaneScrollback(5_000)
    host.remove()
  })

  it(`keeps ${DEFAULT_PANE_SCROLLBACK_LINES} lines when the owner is given no setting`, async () => {
    const router = new PaneRouter()
    const asked: Array<number | undefined> = []
    router.setScrollbackFetcher(async (_, wanted) => (asked.push(wanted), sb(lines(1, 2_100), 1)))
    const host = document.createElement('div')
    document.body.append(host)
    const owner = new PaneOwner(host, 'team-lead', { source: router, writes: immediateWrites })
    // the screen's 23 rows above the cursor line and the scrollback: the newest lines of the 2,100
    const kept = DEFAULT_PANE_SCROLLBACK_LINES + 23
    await expect.poll(() => shape(router)).toEqual({ first: `line ${2_100 - kept + 1}`, count: kept })
    expect(asked).toEqual([DEFAULT_PANE_SCROLLBACK_LINES])
    owner.dispose()
    host.remove()
  })

  it('refuses a scrollback that is not a whole number of lines from 100 to 100,000, naming the setting', () => {
    const host = document.createElement('div')
    document.body.append(host)
    expect(() => createXtermTerminal(host, { scrollbackLines: 99 })).toThrow(
      /whole number of lines from 100 to 100000, not 99: check the paneScrollbackLines setting/
    )
    expect(() => createXtermTerminal(host, { scrollbackLines: 100_001 })).toThrow(RangeError)
    const term = createXtermTerminal(host, { scrollbackLines: 100 })
    expect(() => term.setScrollback?.(Number.NaN)).toThrow(/not NaN/)
    expect(() => term.setScrollback?.(2000.5)).toThrow(/not 2000.5/)
    term.dispose()
    host.remove()
  })

  it("the app's panes follow the setting of the app's store, which a snapshot sets", () => {
    expect(paneScrollbackSetting.lines).toBe(DEFAULT_PANE_SCROLLBACK_LINES)
    const seen: number[] = []
    const sub = paneScrollbackSetting.onDidChange((n) => seen.push(n))
    actions.loadSnapshot(snapshot({ paneScrollbackLines: 700 }))
    actions.loadSnapshot(snapshot({ paneScrollbackLines: 700 }))
    actions.setPaneScrollback(3_000)
    sub.dispose()
    actions.setPaneScrollback(4_000)
    expect(seen).toEqual([700, 3_000])
    expect(appStore.getState().panes.scrollbackLines).toBe(4_000)
  })
})

describe('a restore over output xterm has not parsed yet', () => {
  it('shows that output once: the terminal is reset after xterm parsed what was written before the restore, not over it', async () => {
    const router = new PaneRouter()
    let kept = sb('first\r\n', 1)
    router.setScrollbackFetcher(async () => kept)
    const host = document.createElement('div')
    document.body.append(host)
    const owner = new PaneOwner(host, 'team-lead', { source: router, writes: immediateWrites })
    await expect.poll(() => router.text('team-lead')).toContain('first')
    // written into xterm, which parses it on a later task; a reconnect restores at once
    router.dispatch({ agentId: 'team-lead', data: 'second\r\n', chunk: 2 })
    kept = sb('first\r\nsecond\r\n', 2)
    router.resyncAll()
    router.dispatch({ agentId: 'team-lead', data: 'third\r\n', chunk: 3 })
    await expect.poll(() => router.text('team-lead')).toContain('third')
    expect(
      router
        .text('team-lead')
        .split('\n')
        .filter((l) => l !== '')
    ).toEqual(['first', 'second', 'third'])
    owner.dispose()
    host.remove()
  })
})
