/**
 * Output an off-screen pane holds for its next show, in UTF-16 units. Past this the held output is
 * dropped and the pane restores from main's scrollback when shown instead (which costs less than
 * replaying megabytes).
 */
export const MAX_HELD_OFFSCREEN = 1 << 20

/**
 * The live output an off-screen pane holds for its next show, in arrival order, with its size in
 * UTF-16 units so the owner knows when to give up on it ({@link MAX_HELD_OFFSCREEN}).
 */
export class HeldOutput {
  private parts: string[] = []
  private chars = 0

  /** Holds `data`; true once more than {@link MAX_HELD_OFFSCREEN} units are held. */
  push(data: string): boolean {
    this.parts.push(data)
    this.chars += data.length
    return this.chars > MAX_HELD_OFFSCREEN
  }

  /** Everything held, joined, and forgets it; '' when nothing is. */
  take(): string {
    const data = this.parts.join('')
    this.clear()
    return data
  }

  clear(): void {
    this.parts = []
    this.chars = 0
  }

  get isEmpty(): boolean {
    return this.parts.length === 0
  }
}
