import { describe, expect, it } from 'vitest'
import { CompletionMarker } from './completionMarker'

const marker = (status: number) => `\x1b]6973;tok;${status}\x07`

describe('CompletionMarker', () => {
  it('passes text through, removes the marker and reports the status', () => {
    const scan = new CompletionMarker('tok')
    expect(scan.push('hello\r\n')).toEqual({ text: 'hello\r\n' })
    expect(scan.push(`bye${marker(3)}junk`)).toEqual({ text: 'bye', exitCode: 3 })
    expect(scan.push('after')).toEqual({ text: '' })
    expect(scan.status).toBe(3)
  })

  it('finds a marker split across chunks at any point', () => {
    const whole = `out${marker(42)}`
    for (let cut = 1; cut < whole.length; cut++) {
      const scan = new CompletionMarker('tok')
      const first = scan.push(whole.slice(0, cut))
      const second = scan.push(whole.slice(cut))
      expect(first.text + second.text).toBe('out')
      expect(second.exitCode).toBe(42)
    }
  })

  it('passes on other escape sequences, and a held partial one when the stream ends', () => {
    const scan = new CompletionMarker('tok')
    expect(scan.push('\x1b[31mred\x1b[0m')).toEqual({ text: '\x1b[31mred\x1b[0m' })
    expect(scan.push('x\x1b]69')).toEqual({ text: 'x' })
    expect(scan.flush()).toBe('\x1b]69')
  })

  it('ignores a marker carrying the token of another run', () => {
    const scan = new CompletionMarker('tok')
    expect(scan.push('\x1b]6973;other;0\x07')).toEqual({ text: '\x1b]6973;other;0\x07' })
    expect(scan.status).toBeUndefined()
  })

  it("removes a spare shell's ready marker, also split across chunks, and goes on to the end marker", () => {
    const whole = `warn\x1b]6973;tok;ready\x07out${marker(0)}`
    for (let cut = 1; cut < whole.length; cut++) {
      const scan = new CompletionMarker('tok')
      const first = scan.push(whole.slice(0, cut))
      const second = scan.push(whole.slice(cut))
      expect(first.text + second.text).toBe('warnout')
      expect(Boolean(first.ready) !== Boolean(second.ready)).toBe(true)
      expect(second.exitCode).toBe(0)
    }
  })
})
