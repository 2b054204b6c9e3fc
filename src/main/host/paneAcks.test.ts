import { describe, expect, it } from 'vitest'
import { PaneAckLedger } from './paneAcks'

function ledger() {
  const forwarded: string[] = []
  const acks = new PaneAckLedger((agentId, chunk) => forwarded.push(`${agentId}:${chunk}`))
  return { acks, forwarded }
}

describe('PaneAckLedger', () => {
  it('acknowledges only as far as the slowest page has taken the pane', () => {
    const { acks, forwarded } = ledger()
    const fast = {}
    const slow = {}
    acks.open(fast)
    acks.open(slow)
    for (let chunk = 1; chunk <= 10; chunk++) acks.pushed('a', chunk)
    acks.acked(fast, 'a', 10)
    expect(forwarded).toEqual([])
    acks.acked(slow, 'a', 4)
    expect(forwarded).toEqual(['a:4'])
    acks.acked(slow, 'a', 3) // older news: ignored
    acks.acked(slow, 'a', 9)
    expect(forwarded).toEqual(['a:4', 'a:9'])
    expect(acks.behind('a')).toBe(1)
  })

  it('places a client that never acknowledges by what its socket wrote, and a page by its acknowledgements once it sends one', () => {
    const { acks, forwarded } = ledger()
    const page = {}
    acks.open(page)
    acks.pushed('a', 1)
    acks.pushed('a', 2)
    acks.written(page, 'a', 1)
    expect(forwarded).toEqual(['a:1'])
    acks.acked(page, 'a', 1)
    acks.written(page, 'a', 2) // written, not yet parsed by the page: holds nothing more
    expect(forwarded).toEqual(['a:1'])
    acks.acked(page, 'a', 2)
    expect(forwarded).toEqual(['a:1', 'a:2'])
  })

  it('does not wait for a client on chunks pushed before it connected', () => {
    const { acks, forwarded } = ledger()
    const old = {}
    acks.open(old)
    acks.pushed('a', 1)
    acks.acked(old, 'a', 1)
    const late = {}
    acks.open(late)
    acks.pushed('a', 2)
    acks.acked(old, 'a', 2)
    expect(forwarded).toEqual(['a:1'])
    acks.acked(late, 'a', 2)
    expect(forwarded).toEqual(['a:1', 'a:2'])
  })

  it('lets the agents go the moment the last page of a pane closes, and acknowledges output nobody is connected for', () => {
    const { acks, forwarded } = ledger()
    const a = {}
    const b = {}
    acks.open(a)
    acks.open(b)
    for (let chunk = 1; chunk <= 5; chunk++) acks.pushed('p', chunk)
    acks.acked(a, 'p', 5)
    acks.acked(b, 'p', 2)
    expect(forwarded).toEqual(['p:2'])
    acks.close(b) // the slow page went away: the fast one's place counts
    expect(forwarded).toEqual(['p:2', 'p:5'])
    acks.pushed('p', 6)
    acks.close(a)
    expect(forwarded).toEqual(['p:2', 'p:5', 'p:6'])
    acks.pushed('p', 7) // no page open
    expect(forwarded).toEqual(['p:2', 'p:5', 'p:6', 'p:7'])
  })

  it('counts a fetched scrollback as taken up to its chunk', () => {
    const { acks, forwarded } = ledger()
    const page = {}
    acks.open(page)
    for (let chunk = 1; chunk <= 3; chunk++) acks.pushed('p', chunk)
    acks.acked(page, 'p', 3)
    expect(forwarded).toEqual(['p:3'])
  })

  it('does not wait for a page on a pane it muted, and ignores its late acknowledgements there', () => {
    const { acks, forwarded } = ledger()
    const shown = {}
    const muting = {}
    acks.open(shown)
    acks.open(muting)
    for (let chunk = 1; chunk <= 4; chunk++) acks.pushed('p', chunk)
    acks.acked(shown, 'p', 4)
    acks.acked(muting, 'p', 1)
    expect(forwarded).toEqual(['p:1'])
    acks.mute(muting, 'p', true) // it was the slowest: the pane goes on at once
    expect(forwarded).toEqual(['p:1', 'p:4'])
    expect(acks.isMuted(muting, 'p')).toBe(true)
    acks.acked(muting, 'p', 2) // sent before the mute, read after it: must not make it a member again
    for (let chunk = 5; chunk <= 8; chunk++) acks.pushed('p', chunk)
    acks.acked(shown, 'p', 8)
    expect(forwarded).toEqual(['p:1', 'p:4', 'p:8'])
    expect(acks.behind('p')).toBe(0)
  })

  it('lets a page that mutes its only pane release the agents, and still waits for it on panes it did not mute', () => {
    const { acks, forwarded } = ledger()
    const page = {}
    acks.open(page)
    acks.pushed('p', 1)
    acks.pushed('q', 1)
    acks.acked(page, 'q', 0)
    acks.mute(page, 'p', true)
    expect(forwarded).toEqual(['p:1'])
    acks.pushed('p', 2)
    acks.pushed('q', 2)
    expect(forwarded).toEqual(['p:1', 'p:2'])
    expect(acks.behind('q')).toBe(2)
  })

  it('takes an unmuted page back with the next chunk pushed, or at the chunk of the scrollback it fetched', () => {
    const { acks, forwarded } = ledger()
    const other = {}
    const page = {}
    acks.open(other)
    acks.open(page)
    acks.acked(page, 'q', 0)
    acks.mute(page, 'p', true)
    for (let chunk = 1; chunk <= 3; chunk++) acks.pushed('p', chunk)
    acks.acked(other, 'p', 3)
    expect(forwarded).toEqual(['p:3'])
    acks.mute(page, 'p', false)
    expect(acks.isMuted(page, 'p')).toBe(false)
    acks.pushed('p', 4) // joins here, at 3: it holds chunk 4 back
    acks.acked(other, 'p', 4)
    expect(forwarded).toEqual(['p:3'])
    acks.acked(page, 'p', 4) // its scrollback included chunk 4
    expect(forwarded).toEqual(['p:3', 'p:4'])
    // muted again and unmuted before anything was pushed: the scrollback places it
    acks.mute(page, 'p', true)
    acks.mute(page, 'p', false)
    acks.acked(page, 'p', 4)
    acks.pushed('p', 5)
    acks.acked(other, 'p', 5)
    expect(forwarded).toEqual(['p:3', 'p:4'])
    acks.acked(page, 'p', 5)
    expect(forwarded).toEqual(['p:3', 'p:4', 'p:5'])
  })

  it("forgets a closed connection's mutes, and ignores a mute from one that is not open", () => {
    const { acks } = ledger()
    const page = {}
    acks.mute(page, 'p', true)
    expect(acks.isMuted(page, 'p')).toBe(false)
    acks.open(page)
    acks.mute(page, 'p', true)
    expect(acks.mutedBy(page)).toEqual(new Set(['p']))
    acks.close(page)
    expect(acks.mutedBy(page)).toBeUndefined()
    acks.open(page) // the same object reopened (a socket never is, but nothing must linger)
    expect(acks.isMuted(page, 'p')).toBe(false)
  })
})
