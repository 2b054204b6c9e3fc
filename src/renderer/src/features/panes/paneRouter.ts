import type { PaneScrollback, PushOf } from '../../../../shared/ipc'
import { toDisposable, type Disposable } from '../../lib/lifecycle'

/** One `pane.data` push: an ANSI chunk for an agent's pane, numbered per pane from 1. */
export type PaneChunk = PushOf<'pane.data'>

/** What a pane owner registers with the router. */
export interface PaneSubscriber {
  /** A live chunk for this pane. */
  onData(chunk: PaneChunk): void
  /** Pushes may have been missed (a reconnect): restore from the scrollback again. */
  onResync(): void
  /** The pane's text, for the test hook. */
  text(): string
}

/** Where pane owners get their data: live chunks, resync requests and the kept scrollback. */
export interface PaneSource {
  /** Registers a subscriber for one agent's pane; dispose to unregister. */
  register(agentId: string, subscriber: PaneSubscriber): Disposable
  /** The scrollback main keeps for the pane (SPEC §11). */
  fetchScrollback(agentId: string): Promise<PaneScrollback>
}

/**
 * The one module-level route from the client's `pane.data` pushes to the pane owners: the wiring
 * feeds it, owners register with it. One subscription on the client serves every pane, and the
 * router's count of registrations is what the leak checks read.
 */
export class PaneRouter implements PaneSource {
  private readonly subscribers = new Map<string, Set<PaneSubscriber>>()
  private fetcher: ((agentId: string) => Promise<PaneScrollback>) | undefined

  register(agentId: string, subscriber: PaneSubscriber): Disposable {
    let set = this.subscribers.get(agentId)
    if (!set) this.subscribers.set(agentId, (set = new Set()))
    set.add(subscriber)
    return toDisposable(() => {
      set.delete(subscriber)
      if (set.size === 0 && this.subscribers.get(agentId) === set) this.subscribers.delete(agentId)
    })
  }

  /** Sets how scrollback is fetched (the wiring passes the client's `pane.scrollback`). */
  setScrollbackFetcher(fetcher: ((agentId: string) => Promise<PaneScrollback>) | undefined): void {
    this.fetcher = fetcher
  }

  fetchScrollback(agentId: string): Promise<PaneScrollback> {
    if (!this.fetcher) return Promise.reject(new Error('No workspace connection to fetch scrollback from'))
    return this.fetcher(agentId)
  }

  /** Hands a chunk to the panes of its agent. */
  dispatch(chunk: PaneChunk): void {
    const set = this.subscribers.get(chunk.agentId)
    if (!set) return
    for (const s of [...set]) s.onData(chunk)
  }

  /** Asks every pane to restore from scrollback (after a reconnect). */
  resyncAll(): void {
    for (const set of [...this.subscribers.values()]) for (const s of [...set]) s.onResync()
  }

  /** The text of an agent's pane (the first registered), or '' when it has none. */
  text(agentId: string): string {
    const first = this.subscribers.get(agentId)?.values().next().value
    return first ? first.text() : ''
  }

  /** Live registrations, for leak checks. */
  get size(): number {
    let n = 0
    for (const set of this.subscribers.values()) n += set.size
    return n
  }
}

/** The app's router. */
export const paneRouter = new PaneRouter()
