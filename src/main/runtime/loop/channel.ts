/**
 * An unbounded single-consumer queue that an async generator drains while producers (tool calls,
 * permission prompts) push from callbacks. Keeps events in push order.
 */
export class Channel<T> {
  private readonly items: T[] = []
  private waiter: (() => void) | undefined

  push(item: T): void {
    this.items.push(item)
    const w = this.waiter
    this.waiter = undefined
    w?.()
  }

  /** Takes everything queued now. */
  drain(): T[] {
    return this.items.splice(0)
  }

  /** Resolves when an item is queued (at once if one already is) or `until` settles. */
  async wait(until: Promise<unknown>): Promise<void> {
    if (this.items.length > 0) return
    await Promise.race([
      new Promise<void>((resolve) => {
        this.waiter = resolve
      }),
      until.then(
        () => undefined,
        () => undefined
      )
    ])
    this.waiter = undefined
  }
}

/**
 * Runs `work` with an `emit` callback and yields everything emitted, in order, while it runs;
 * returns `work`'s result. A rejection of `work` is rethrown after the events emitted before it.
 */
export async function* pumpWhile<E, R>(work: (emit: (event: E) => void) => Promise<R>): AsyncGenerator<E, R> {
  const channel = new Channel<E>()
  const running = work((e) => channel.push(e))
  let settled = false
  running.then(
    () => (settled = true),
    () => (settled = true)
  )
  while (!settled) {
    await channel.wait(running)
    yield* channel.drain()
  }
  yield* channel.drain()
  return await running
}
