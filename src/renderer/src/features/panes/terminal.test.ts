// @vitest-environment happy-dom
import { Terminal } from '@xterm/xterm'
import { describe, expect, it } from 'vitest'
import { scrollbarOnHoverOnly } from './terminal'

describe('scrollbarOnHoverOnly', () => {
  it("turns off xterm's scrollbar reveal on every scroll (an xterm upgrade that moves it fails here)", () => {
    const host = document.createElement('div')
    document.body.append(host)
    const term = new Terminal({ allowProposedApi: true })
    term.open(host)
    const element = (term as unknown as { _core: { _viewport: { _scrollableElement: { _revealOnScroll: boolean } } } })
      ._core._viewport._scrollableElement
    expect(element._revealOnScroll).toBe(true)
    expect(scrollbarOnHoverOnly(term)).toBe(true)
    expect(element._revealOnScroll).toBe(false)
    term.dispose()
    host.remove()
  })

  it('does nothing to a terminal without that element', () => {
    expect(scrollbarOnHoverOnly({} as Terminal)).toBe(false)
  })
})
