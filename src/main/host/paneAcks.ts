/** Where one connection stands in one pane's chunks (chunk numbers of `pane.data`, per pane from 1). */
interface Position {
  /** Highest chunk whose frame the socket has written to the kernel (the peer is reading). */
  written: number
  /** Highest chunk the page acknowledged (`pane.ack`) or holds through a scrollback it fetched. */
  acked: number
}

interface PaneLedger {
  /** Highest chunk pushed. */
  pushed: number
  /** Highest acknowledgement handed to the service. */
  forwarded: number
  members: Map<object, Position>
}

/**
 * Per-connection acknowledgement of pane output for the web host's bridge (issue 7: "terminal data
 * is flow-controlled end to end, never dropped"). Main's pane batcher pauses a pane's PTYs while
 * too much of its output is unacknowledged (src/main/app/paneBatcher.ts); with
 * several sockets open, the bridge acknowledges to it only what the slowest one has taken, so a
 * slow page makes the agents wait instead of having its output pile up in main.
 *
 * A connection's place in a pane is what its page acknowledged once it acknowledges anything (a
 * renderer acknowledges what it has parsed, which is what bounds its work); before that, or for a
 * client that never does (a script reading the stream), what its socket has written: TCP's own
 * flow control then holds the agents back when that client stops reading. A connection joins a
 * pane with the first chunk pushed while it is open (earlier chunks are not its to take). When
 * the last connection of a pane closes, everything pushed counts as delivered at once (main keeps
 * it as scrollback for the next page), and chunks pushed while no connection is open are
 * acknowledged as they go: nobody is there to wait for.
 *
 * A connection may mute a pane (`pane.mute`: its page dropped the pane's held output and will
 * restore it from the scrollback when shown): from then on it is no member of that pane, so the
 * agents never wait for it there, and its acknowledgements for that pane are ignored. Unmuted, it
 * joins again like a new connection, with the next chunk pushed, or at once at the chunk of the
 * scrollback it fetches (which the bridge reports as acknowledged). A closed connection's mutes
 * are forgotten with it.
 *
 * Owns no timers or sockets; connections are any object (the bridge uses its sockets).
 */
export class PaneAckLedger {
  private readonly panes = new Map<string, PaneLedger>()
  /** Open connections; true once the connection acknowledged anything itself. */
  private readonly connections = new Map<object, boolean>()
  /** Panes each open connection muted (agent ids); absent when it muted none. */
  private readonly muted = new Map<object, Set<string>>()

  /** @param forward hands an acknowledgement to the service (`pane.ack`); called only with a higher chunk than before for that pane. */
  constructor(private readonly forward: (agentId: string, chunk: number) => void) {}

  /** A connection opened. */
  open(connection: object): void {
    if (!this.connections.has(connection)) this.connections.set(connection, false)
  }

  /** A chunk of a pane is being pushed to every open connection. */
  pushed(agentId: string, chunk: number): void {
    const pane = this.pane(agentId)
    pane.pushed = Math.max(pane.pushed, chunk)
    for (const connection of this.connections.keys()) {
      if (!pane.members.has(connection) && !this.isMuted(connection, agentId))
        pane.members.set(connection, { written: chunk - 1, acked: chunk - 1 })
    }
    if (pane.members.size === 0) this.advance(agentId, pane, pane.pushed)
  }

  /** The connection's socket wrote the frame of `chunk` (its send callback ran without error). */
  written(connection: object, agentId: string, chunk: number): void {
    const at = this.panes.get(agentId)?.members.get(connection)
    if (!at || chunk <= at.written) return
    at.written = chunk
    if (this.connections.get(connection) === false) this.recompute(agentId)
  }

  /**
   * The connection's page is done with the pane's chunks up to `chunk` (a `pane.ack`, or the chunk
   * a scrollback it fetched includes). From now on only its acknowledgements place it, in every pane.
   */
  acked(connection: object, agentId: string, chunk: number): void {
    // a muted pane's acknowledgement is late news (sent before the mute): it must not rejoin the pane
    if (!this.connections.has(connection) || this.isMuted(connection, agentId)) return
    const wasAcking = this.connections.get(connection)
    this.connections.set(connection, true)
    const pane = this.pane(agentId)
    const at = pane.members.get(connection)
    if (at) {
      at.acked = Math.max(at.acked, chunk)
      at.written = Math.max(at.written, chunk)
    } else {
      pane.members.set(connection, { written: chunk, acked: chunk })
    }
    if (!wasAcking) for (const id of this.panes.keys()) this.recompute(id)
    else this.recompute(agentId)
  }

  /**
   * The connection stops (`muted: true`) or resumes taking the pane's chunks. Muted, it holds the
   * pane back no more (what it had not taken counts as delivered, if it was the slowest); unmuted,
   * it rejoins with the next chunk pushed or the scrollback it fetches. Ignored for a connection
   * that is not open.
   */
  mute(connection: object, agentId: string, muted: boolean): void {
    if (!this.connections.has(connection)) return
    let panes = this.muted.get(connection)
    if (!muted) {
      panes?.delete(agentId)
      if (panes?.size === 0) this.muted.delete(connection)
      return
    }
    if (!panes) this.muted.set(connection, (panes = new Set()))
    panes.add(agentId)
    const pane = this.panes.get(agentId)
    if (!pane?.members.delete(connection)) return
    if (pane.members.size === 0) this.advance(agentId, pane, pane.pushed)
    else this.recompute(agentId)
  }

  /** Whether the connection muted the pane (its bridge then sends it none of the pane's chunks). */
  isMuted(connection: object, agentId: string): boolean {
    return this.muted.get(connection)?.has(agentId) ?? false
  }

  /** The panes the connection muted, or undefined when none (the bridge's fast path). */
  mutedBy(connection: object): ReadonlySet<string> | undefined {
    return this.muted.get(connection)
  }

  /** A connection closed: it no longer holds any pane back, and its mutes are forgotten. */
  close(connection: object): void {
    this.muted.delete(connection)
    if (!this.connections.delete(connection)) return
    for (const [agentId, pane] of this.panes) {
      if (!pane.members.delete(connection)) continue
      if (pane.members.size === 0) this.advance(agentId, pane, pane.pushed)
      else this.recompute(agentId)
    }
  }

  /** Chunks pushed to the pane that the slowest connection has not taken (0 when none). */
  behind(agentId: string): number {
    const pane = this.panes.get(agentId)
    if (!pane) return 0
    return pane.pushed - this.slowest(pane)
  }

  private pane(agentId: string): PaneLedger {
    let pane = this.panes.get(agentId)
    if (!pane) this.panes.set(agentId, (pane = { pushed: 0, forwarded: 0, members: new Map() }))
    return pane
  }

  private slowest(pane: PaneLedger): number {
    let min = pane.pushed
    for (const [connection, at] of pane.members)
      min = Math.min(min, this.connections.get(connection) ? at.acked : at.written)
    return min
  }

  private recompute(agentId: string): void {
    const pane = this.panes.get(agentId)
    if (pane && pane.members.size > 0) this.advance(agentId, pane, this.slowest(pane))
  }

  private advance(agentId: string, pane: PaneLedger, chunk: number): void {
    if (chunk <= pane.forwarded) return
    pane.forwarded = chunk
    this.forward(agentId, chunk)
  }
}
