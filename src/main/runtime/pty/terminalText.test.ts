import { describe, expect, it } from 'vitest'
import { cleanTerminalOutput } from './terminalText'

describe('cleanTerminalOutput', () => {
  it('removes colour and cursor sequences and turns CRLF into LF', () => {
    expect(cleanTerminalOutput('\x1b[1;31merror\x1b[0m: bad\r\n\x1b[2Kok\r\n')).toBe('error: bad\nok\n')
  })

  it('keeps the last state of a line redrawn with carriage returns', () => {
    expect(cleanTerminalOutput('0%\r\x1b[K50%\r\x1b[K100%\r\ndone\r\n')).toBe('100%\ndone\n')
    expect(cleanTerminalOutput('tick\r')).toBe('tick')
  })

  it('drops other control characters but keeps tabs', () => {
    expect(cleanTerminalOutput('a\tb\x07c\x08d\r\n')).toBe('a\tbcd\n')
  })
})
