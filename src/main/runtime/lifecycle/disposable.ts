/** Something that holds a resource or a subscription; `dispose` releases it and is idempotent. */
export interface Disposable {
  dispose(): void
}

/** Wraps a function as a {@link Disposable} that runs it at most once. */
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

/** Owns disposables registered with it and disposes them together, newest first. */
export class DisposableStore implements Disposable {
  private readonly items: Disposable[] = []
  private disposed = false

  /** Registers `d`; if the store is already disposed, disposes `d` at once. */
  add<T extends Disposable>(d: T): T {
    if (this.disposed) d.dispose()
    else this.items.push(d)
    return d
  }

  dispose(): void {
    if (this.disposed) return
    this.disposed = true
    for (const d of this.items.splice(0).reverse()) d.dispose()
  }
}
