/**
 * Disposables and a tiny emitter, after xterm.js's `src/common/Lifecycle.ts` and its
 * private-emitter/public-`onDidX` habit (STYLE.md 6, 7): whatever subscribes returns a
 * disposable, and an owner registers everything it creates so one `dispose()` undoes it all.
 * Shared by the runtime and the renderer, so it uses nothing of Node or the DOM.
 */

/** Every host this runs in has a console; src/shared declares only what it uses of it. */
declare const console: { error(...args: unknown[]): void }

/** Something that holds a resource or a subscription until disposed. */
export interface Disposable {
  dispose(): void
}

/** Wraps a cleanup function as a {@link Disposable} that runs it at most once. */
export function toDisposable(fn: () => void): Disposable {
  let done = false
  return {
    dispose() {
      if (done) return
      done = true
      fn()
    }
  }
}

/** Owns a set of disposables; disposing the store disposes them all, later additions immediately. */
export class DisposableStore implements Disposable {
  private readonly items = new Set<Disposable>()
  private disposed = false

  /** Registers `d` and returns it, so `const x = store.add(create())` reads naturally. */
  add<T extends Disposable>(d: T): T {
    if (this.disposed) d.dispose()
    else this.items.add(d)
    return d
  }

  /** True once {@link dispose} ran. */
  get isDisposed(): boolean {
    return this.disposed
  }

  dispose(): void {
    if (this.disposed) return
    this.disposed = true
    for (const d of [...this.items].reverse()) d.dispose()
    this.items.clear()
  }
}

/**
 * A private event source: the owner keeps the emitter and `fire`s; others subscribe through
 * {@link Emitter.event} and get a disposable back. A listener that throws does not stop the others.
 */
export class Emitter<T> {
  private readonly listeners = new Set<(value: T) => void>()

  /** Subscribes a listener; dispose the result to unsubscribe. */
  readonly event = (listener: (value: T) => void): Disposable => {
    const wrapped = (value: T): void => listener(value)
    this.listeners.add(wrapped)
    return toDisposable(() => this.listeners.delete(wrapped))
  }

  /** Calls every listener with `value`; errors are reported, not rethrown. */
  fire(value: T): void {
    for (const l of [...this.listeners]) {
      try {
        l(value)
      } catch (err) {
        console.error(err)
      }
    }
  }

  /** Live subscriptions, for leak checks. */
  get size(): number {
    return this.listeners.size
  }

  /** Drops every listener. */
  dispose(): void {
    this.listeners.clear()
  }
}
