import { describe, expect, it } from 'vitest'
import { HeadTailBuffer, TailBuffer } from './outputBuffers'

describe('TailBuffer', () => {
  it('keeps exactly the last `limit` characters and counts what it dropped, carriage returns apart', () => {
    const tail = new TailBuffer(5)
    tail.push('ab\r\n')
    tail.push('cdefg')
    expect(tail.peek()).toBe('cdefg')
    expect(tail.droppedChars).toBe(4)
    expect(tail.droppedCarriageReturns).toBe(1)
    tail.push('hi')
    expect(tail.peek()).toBe('efghi')
    expect(tail.take()).toEqual({ text: 'efghi', droppedChars: 6 })
    expect(tail.take()).toEqual({ text: '', droppedChars: 0 })
  })

  it('slices a single chunk longer than the limit', () => {
    const tail = new TailBuffer(3)
    tail.push('123456')
    expect(tail.take()).toEqual({ text: '456', droppedChars: 3 })
  })
})

describe('HeadTailBuffer', () => {
  it('returns everything unchanged while it fits', () => {
    const buffer = new HeadTailBuffer(4, 4)
    buffer.push('abc')
    buffer.push('defgh')
    expect(buffer.toString()).toBe('abcdefgh')
    expect(buffer.omittedChars).toBe(0)
  })

  it('keeps head and tail with a note counting the gap without carriage returns', () => {
    const buffer = new HeadTailBuffer(4, 4)
    for (const chunk of ['ab\r\n', 'cd\r\n', 'ef\r\n', 'gh\r\n']) buffer.push(chunk)
    expect(buffer.totalChars).toBe(16)
    expect(buffer.omittedChars).toBe(6) // "cd\r\nef\r\n" minus two \r
    expect(buffer.toString()).toBe('ab\r\n\n[... 6 characters of output omitted ...]\ngh\r\n')
  })
})
