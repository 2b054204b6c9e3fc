import { type PtyRunResult } from '../../pty/types'
import { describe, expect, it } from 'vitest'
import { omittedNote } from '../../pty/outputBuffers'
import { formatRunResult } from './bash'
import { MODEL_OUTPUT_CAP, capForModel, truncationMarker } from './bashFormat'

const lines = (count: number) => Array.from({ length: count }, (_, i) => `line ${i + 1}`).join('\n')

describe('capForModel', () => {
  it('leaves text within the cap unchanged', () => {
    const text = 'x'.repeat(MODEL_OUTPUT_CAP)
    expect(capForModel(text)).toBe(text)
  })

  it('keeps whole lines of the head and tail and counts exactly what it cut', () => {
    const text = lines(10_000)
    const capped = capForModel(text)
    expect(capped.length).toBeLessThanOrEqual(MODEL_OUTPUT_CAP)
    const [head, tail] = capped.split(/\n\n\[\.\.\. \d+ characters truncated \.\.\.\]\n\n/)
    expect(text.startsWith(head + '\n')).toBe(true)
    expect(text.endsWith('\n' + tail)).toBe(true)
    const cut = text.length - head.length - tail.length
    expect(capped).toContain(truncationMarker(cut))
  })

  it('adds what the host already left out, without counting the host note twice', () => {
    const note = omittedNote(1_000_000)
    const text = `${lines(3_000)}\n${note}\n${lines(3_000)}`
    const capped = capForModel(text, 1_000_000)
    const cut = Number(/\[\.\.\. (\d+) characters truncated/.exec(capped)?.[1])
    const [head, tail] = capped.split(/\n\n\[\.\.\. \d+ characters truncated \.\.\.\]\n\n/)
    expect(cut).toBe(text.length - head.length - tail.length - (note.length + 2) + 1_000_000)
  })
})

describe('formatRunResult', () => {
  const base: PtyRunResult = { pid: 1, exitCode: 0, signal: null, output: '', timedOut: false, aborted: false }

  it('names each way a command can fail on its last line', () => {
    expect(formatRunResult({ ...base, output: 'x\r\n', exitCode: 2 }, 1)).toEqual({
      content: 'x\nExit code 2',
      isError: true
    })
    expect(formatRunResult({ ...base, exitCode: null, signal: 9 }, 1)).toEqual({
      content: 'Killed by signal 9',
      isError: true
    })
    expect(formatRunResult({ ...base, exitCode: null, signal: 9, timedOut: true }, 750)).toEqual({
      content: 'Command timed out after 750 ms (process group killed)',
      isError: true
    })
    expect(formatRunResult({ ...base, output: 'partial\r\n', exitCode: null, aborted: true }, 1)).toEqual({
      content: 'partial\nCommand was aborted',
      isError: true
    })
  })

  it('trims trailing whitespace and says (no output) for nothing', () => {
    expect(formatRunResult({ ...base, output: 'ok  \r\n\r\n' }, 1)).toEqual({ content: 'ok' })
    expect(formatRunResult({ ...base, output: '\r\n' }, 1)).toEqual({ content: '(no output)' })
  })
})
