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
})
