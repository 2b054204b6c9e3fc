/**
 * Bounded text buffers for terminal output. A command may print gigabytes (`yes`, `cat` of a
 * log); the model sees at most 30,000 characters of it, so we keep only what can be shown and
 * count the rest.
 */

/** Keeps the last `limit` characters pushed (at chunk granularity plus one slice), counting what it drops. */
export class TailBuffer {
  private chunks: string[] = []
  private length = 0
  private dropped = 0

  /** @param limit Most characters kept (UTF-16 code units). */
  constructor(private readonly limit: number) {}

  push(chunk: string): void {
    if (chunk.length > this.limit) {
      this.dropped += chunk.length - this.limit
      chunk = chunk.slice(chunk.length - this.limit)
    }
    this.chunks.push(chunk)
    this.length += chunk.length
    while (this.length - this.chunks[0].length >= this.limit) {
      const first = this.chunks.shift() as string
      this.length -= first.length
      this.dropped += first.length
    }
  }

  /** Characters pushed but no longer kept, since the last {@link take}. */
  get droppedChars(): number {
    return this.dropped + Math.max(0, this.length - this.limit)
  }

  /** The kept text (at most `limit` characters). */
  peek(): string {
    const text = this.chunks.join('')
    return text.length > this.limit ? text.slice(text.length - this.limit) : text
  }

  /** Returns the kept text and how much was dropped before it, and empties the buffer. */
  take(): { text: string; droppedChars: number } {
    const result = { text: this.peek(), droppedChars: this.droppedChars }
    this.chunks = []
    this.length = 0
    this.dropped = 0
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

  /** Characters between the head and the tail that were not kept. */
  get omittedChars(): number {
    return this.tail.droppedChars
  }

  /**
   * Head and tail; when something was omitted between them, a one-line note naming how many
   * characters, so whoever reads the text knows it is not contiguous.
   */
  toString(): string {
    const omitted = this.omittedChars
    if (omitted === 0) return this.head + this.tail.peek()
    return `${this.head}\n${omittedNote(omitted)}\n${this.tail.peek()}`
  }
}

/** The note {@link HeadTailBuffer} puts where it omitted output. */
export function omittedNote(chars: number): string {
  return `[... ${chars} characters of output omitted ...]`
}
