import { MAX_PANE_ACKS, type PaneAck, type PaneScrollback, type PushOf } from '../../../../shared/ipc'
import type { TerminalSize } from '../../../../shared/terminalSize'
import { type Disposable } from '../../lib/lifecycle'

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

/** A subscriber's place in a {@link PaneSource}: dispose to unregister. */
export interface PaneRegistration extends Disposable {
  /**
   * Whether this subscriber wants the pane's live chunks (`false`) or will restore from the
   * scrollback anyway and wants none (`true`). The page asks main to stop sending them
   * (`pane.mute`) once every subscriber of the agent wants none (or the agent has none left), and
   * to resume as soon as one wants them again or a new one registers; unmute before fetching the
   * scrollback, so no chunk after it is missed.
   */
  setMuted(muted: boolean): void
}

/** Where pane owners get their data: live chunks, resync requests and the kept scrollback. */
export interface PaneSource {
  /** Registers a subscriber for one agent's pane; dispose to unregister. */
  register(agentId: string, subscriber: PaneSubscriber): PaneRegistration
  /** The scrollback main keeps for the pane (docs/ui.md#the-workspace-ui), with at most `lines` lines above the screen (default: all main keeps). */
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
  private muteSender: ((agentId: string, muted: boolean) => void) | undefined
  /** Subscribers that want no live chunks, per agent (see {@link PaneRegistration.setMuted}). */
  private readonly mutedSubscribers = new Map<string, Set<PaneSubscriber>>()
  /** Agents this page told main to mute, over the current connection. */
  private readonly mutedInMain = new Set<string>()
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

  /**
   * Sets how mutes reach main (the wiring passes the client's `pane.mute`); undefined stops them
   * and forgets what main was told (no connection, no mutes).
   */
  setMuteSender(sender: ((agentId: string, muted: boolean) => void) | undefined): void {
    this.muteSender = sender
    if (!sender) this.mutedInMain.clear()
  }

  register(agentId: string, subscriber: PaneSubscriber): PaneRegistration {
    let set = this.subscribers.get(agentId)
    if (!set) this.subscribers.set(agentId, (set = new Set()))
    set.add(subscriber)
    // a new subscriber wants the live chunks: main resumes them if every other one had muted
    this.updateMute(agentId)
    let live = true
    return {
      dispose: () => {
        if (!live) return
        live = false
        set.delete(subscriber)
        if (set.size === 0 && this.subscribers.get(agentId) === set) this.subscribers.delete(agentId)
        this.setSubscriberMuted(agentId, subscriber, false)
      },
      setMuted: (muted) => {
        if (live) this.setSubscriberMuted(agentId, subscriber, muted)
      }
    }
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
    // No pane shows this agent (hidden, collapsed, maximised away): its pane restores from the
    // scrollback when mounted, so the output need not cross the wire until then
    if (!set) {
      this.ack(chunk.agentId, chunk.chunk)
      this.updateMute(chunk.agentId)
      return
    }
    for (const s of [...set]) s.onData(chunk)
  }

  /**
   * Asks every pane to restore from scrollback (after a reconnect). The new connection starts
   * with no mutes, but a mute requested while the link was down is sent on it first: every agent
   * this page had muted is unmuted, and panes that still want none mute again.
   */
  resyncAll(): void {
    const muted = [...this.mutedInMain]
    this.mutedInMain.clear()
    for (const agentId of muted) this.muteSender?.(agentId, false)
    for (const set of [...this.subscribers.values()]) for (const s of [...set]) s.onResync()
    for (const agentId of muted) this.updateMute(agentId)
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

  /** Agents whose live chunks this page asked main not to send (for tests and diagnostics). */
  get mutedAgents(): string[] {
    return [...this.mutedInMain]
  }

  /**
   * Tells main whether to send the agent's chunks when that changed: muted while no pane of this
   * page shows the agent (hidden with its ×, collapsed under its parent, another layout: a pane
   * mounted later restores from the scrollback) or every pane that does has muted.
   */
  private updateMute(agentId: string): void {
    const subscribers = this.subscribers.get(agentId)
    const muted = this.mutedSubscribers.get(agentId)
    const want =
      subscribers === undefined ||
      subscribers.size === 0 ||
      (muted !== undefined && [...subscribers].every((s) => muted.has(s)))
    if (want === this.mutedInMain.has(agentId) || !this.muteSender) return
    if (want) this.mutedInMain.add(agentId)
    else this.mutedInMain.delete(agentId)
    this.muteSender(agentId, want)
  }

  private setSubscriberMuted(agentId: string, subscriber: PaneSubscriber, muted: boolean): void {
    let set = this.mutedSubscribers.get(agentId)
    if (muted) {
      if (!set) this.mutedSubscribers.set(agentId, (set = new Set()))
      set.add(subscriber)
    } else if (set?.delete(subscriber) && set.size === 0) {
      this.mutedSubscribers.delete(agentId)
    }
    this.updateMute(agentId)
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
