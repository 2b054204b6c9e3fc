/**
 * Bounded text buffers for terminal output. A command may print gigabytes (`yes`, `cat` of a
 * log); the model sees at most 30,000 characters of it, so we keep only what can be shown and
 * count the rest.
 */

/**
 * Keeps the last `limit` characters pushed, counting what it drops — in all, and how many of
 * those were carriage returns, so a reader can report the size of the text as the model would
 * see it (a PTY sends `\r\n` for every newline; the model's text has `\n`).
 */
export class TailBuffer {
  private chunks: string[] = []
  private length = 0
  private dropped = 0
  private droppedCR = 0

  /** @param limit Most characters kept (UTF-16 code units). */
  constructor(private readonly limit: number) {}

  push(chunk: string): void {
    this.chunks.push(chunk)
    this.length += chunk.length
    while (this.length > this.limit) {
      const first = this.chunks[0]
      const excess = this.length - this.limit
      if (first.length <= excess) {
        this.chunks.shift()
        this.drop(first)
      } else {
        this.chunks[0] = first.slice(excess)
        this.drop(first.slice(0, excess))
      }
    }
  }

  private drop(text: string): void {
    this.length -= text.length
    this.dropped += text.length
    for (let at = text.indexOf('\r'); at >= 0; at = text.indexOf('\r', at + 1)) this.droppedCR++
  }

  /** Characters pushed but no longer kept, since the last {@link take}. */
  get droppedChars(): number {
    return this.dropped
  }

  /** How many of {@link droppedChars} were `\r`. */
  get droppedCarriageReturns(): number {
    return this.droppedCR
  }

  /** The kept text (at most `limit` characters). */
  peek(): string {
    return this.chunks.join('')
  }

  /** Returns the kept text and how much was dropped before it, and empties the buffer. */
  take(): { text: string; droppedChars: number } {
    const result = { text: this.peek(), droppedChars: this.dropped }
    this.chunks = []
    this.length = 0
    this.dropped = 0
    this.droppedCR = 0
    return result
  }

  /** Puts text back in front (a read that must hold back an incomplete escape sequence). */
  unshift(text: string): void {
    if (text.length === 0) return
    this.chunks.unshift(text)
    this.length += text.length
  }
}

/**
 * Keeps the first `headLimit` and the last `tailLimit` characters of a stream. Enough for the
 * Bash tool, which shows the model a head and a tail of long output, with memory bounded by
 * `headLimit + tailLimit` whatever the command prints.
 */
export class HeadTailBuffer {
  private head = ''
  private readonly tail: TailBuffer
  private total = 0

  /** Limits in characters (UTF-16 code units). */
  constructor(
    private readonly headLimit: number,
    tailLimit: number
  ) {
    this.tail = new TailBuffer(tailLimit)
  }

  push(chunk: string): void {
    this.total += chunk.length
    const room = this.headLimit - this.head.length
    if (room > 0) {
      this.head += chunk.slice(0, room)
      chunk = chunk.slice(room)
    }
    if (chunk.length > 0) this.tail.push(chunk)
  }

  /** Every character pushed, kept or not. */
  get totalChars(): number {
    return this.total
  }

  /**
   * Characters between the head and the tail that were not kept, not counting `\r`: the size
   * of the gap in the text a reader gets after CRLF → LF (ANSI sequences still count).
   */
  get omittedChars(): number {
    return this.tail.droppedChars - this.tail.droppedCarriageReturns
  }

  /**
   * Head and tail; when something was omitted between them, a one-line note naming how many
   * characters, so whoever reads the text knows it is not contiguous.
   */
  toString(): string {
    const omitted = this.omittedChars
    if (this.tail.droppedChars === 0) return this.head + this.tail.peek()
    return `${this.head}\n${omittedNote(omitted)}\n${this.tail.peek()}`
  }
}

/** The note {@link HeadTailBuffer} puts where it omitted output. */
export function omittedNote(chars: number): string {
  return `[... ${chars} characters of output omitted ...]`
}
