import { MAX_PANE_ACKS, type PaneAck, type PaneScrollback, type PushOf } from '../../../../shared/ipc'
import type { TerminalSize } from '../../../../shared/terminalSize'
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
  /** The size the pane last reported to main (`pane.resize`), for the test hook; undefined before one. */
  reportedSize?(): TerminalSize | undefined
}

/** Where pane owners get their data: live chunks, resync requests and the kept scrollback. */
export interface PaneSource {
  /** Registers a subscriber for one agent's pane; dispose to unregister. */
  register(agentId: string, subscriber: PaneSubscriber): Disposable
  /** The scrollback main keeps for the pane (SPEC §11), with at most `lines` lines above the screen (default: all main keeps). */
  fetchScrollback(agentId: string, lines?: number): Promise<PaneScrollback>
  /** The page is done with the pane's chunks up to `chunk` (see {@link PaneRouter.ack}). */
  ack?(agentId: string, chunk: number): void
  /** The pane's fitted size changed (see {@link PaneRouter.resize}); the owner debounces. */
  resize?(agentId: string, size: TerminalSize): void
}

/** How long acknowledgements are gathered into one `pane.ack` request, for every pane at once (ms). */
export const ACK_INTERVAL_MS = 50

/**
 * The one module-level route from the client's `pane.data` pushes to the pane owners: the wiring
 * feeds it, owners register with it. One subscription on the client serves every pane, and the
 * router's count of registrations is what the leak checks read.
 */
export class PaneRouter implements PaneSource {
  private readonly subscribers = new Map<string, Set<PaneSubscriber>>()
  private fetcher: ((agentId: string, lines?: number) => Promise<PaneScrollback>) | undefined
  private ackSender: ((acks: PaneAck[]) => void) | undefined
  private sizeSender: ((agentId: string, size: TerminalSize) => void) | undefined
  /** Highest chunk acknowledged per pane and not yet sent. */
  private readonly acks = new Map<string, number>()
  private ackTimer: ReturnType<typeof setTimeout> | undefined

  /**
   * Sets how acknowledgements reach main (the wiring passes the client's `pane.ack`, one request
   * per batch of at most {@link MAX_PANE_ACKS} panes); undefined stops them.
   */
  setAckSender(sender: ((acks: PaneAck[]) => void) | undefined): void {
    this.ackSender = sender
    if (!sender) {
      this.acks.clear()
      if (this.ackTimer !== undefined) clearTimeout(this.ackTimer)
      this.ackTimer = undefined
    }
  }

  /**
   * Records that the page is done with a pane's chunks up to `chunk` (written, held, or not shown
   * at all) and sends the highest number of every pane that has one, together, at most every
   * {@link ACK_INTERVAL_MS}: main's backpressure (paneBatcher.ts) pauses a pane's PTYs while too much is unacknowledged.
   */
  ack(agentId: string, chunk: number): void {
    if (!this.ackSender) return
    if ((this.acks.get(agentId) ?? 0) < chunk) this.acks.set(agentId, chunk)
    this.ackTimer ??= setTimeout(() => {
      this.ackTimer = undefined
      const send = this.ackSender
      const batch = [...this.acks].map(([agentId, n]) => ({ agentId, chunk: n }))
      this.acks.clear()
      if (send) for (let i = 0; i < batch.length; i += MAX_PANE_ACKS) send(batch.slice(i, i + MAX_PANE_ACKS))
    }, ACK_INTERVAL_MS)
  }

  /** Sets how pane sizes reach main (the wiring passes the client's `pane.resize`); undefined stops them. */
  setSizeSender(sender: ((agentId: string, size: TerminalSize) => void) | undefined): void {
    this.sizeSender = sender
  }

  /**
   * Tells main a pane's new size in character cells (`pane.resize`: a process teammate's terminal
   * follows it). Owners send only changed sizes of visible panes, debounced (PaneOwner.ts); with no
   * connection the size is dropped, and an owner sends it again after a reconnect.
   */
  resize(agentId: string, size: TerminalSize): void {
    this.sizeSender?.(agentId, { cols: size.cols, rows: size.rows })
  }

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
  setScrollbackFetcher(fetcher: ((agentId: string, lines?: number) => Promise<PaneScrollback>) | undefined): void {
    this.fetcher = fetcher
  }

  fetchScrollback(agentId: string, lines?: number): Promise<PaneScrollback> {
    if (!this.fetcher) return Promise.reject(new Error('No workspace connection to fetch scrollback from'))
    return this.fetcher(agentId, lines)
  }

  /** Hands a chunk to the panes of its agent. */
  dispatch(chunk: PaneChunk): void {
    const set = this.subscribers.get(chunk.agentId)
    // No pane shows this agent (hidden, collapsed, maximised away): nothing to do here; its pane restores from scrollback.
    if (!set) return this.ack(chunk.agentId, chunk.chunk)
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

  /** The size an agent's pane (the first registered) last reported to main, or undefined. */
  reportedSize(agentId: string): TerminalSize | undefined {
    return this.subscribers.get(agentId)?.values().next().value?.reportedSize?.()
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
