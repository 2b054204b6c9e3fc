import type { PaneScrollback } from '../../shared/ipc'
import type { TerminalSize } from '../../shared/terminalSize'
import type { PtyFlowControl, PtyHost } from '../runtime/pty'
import type { Disposable } from '../runtime/base'
import { PaneBatcher } from './paneBatcher'
import { PaneTerminals } from './panes'
import type { PaneSizes } from './paneSizes'

/** Inputs of {@link PaneOutput}. */
export interface PaneOutputOptions {
  /** The PTY host whose PTYs feed the panes: paused while their pane's page falls behind. */
  pty: Pick<PtyHost & PtyFlowControl, 'pause' | 'resume' | 'deliveringPid'>
  /** Each pane's last reported size, shared with the process teammates' backend. */
  sizes: PaneSizes
  /** Resizes an agent's own terminal, when it has one (a running `process` teammate). */
  resizeTerminal(agentId: string, size: TerminalSize): void
}

/**
 * The panes' flow (docs/ui.md): every agent's output goes into its headless terminal
 * ({@link PaneTerminals}, the scrollback a reloaded page restores) through the batcher, which pushes
 * at most 60 `pane.data` a second per pane and pauses the pane's PTYs while the page is more than
 * 1 MiB behind (paneBatcher.ts, issue 7 backpressure).
 */
export class PaneOutput {
  /** Each pane's terminal; it starts at, and follows, the size its page reports (`pane.resize`). */
  readonly terminals: PaneTerminals
  private readonly batcher: PaneBatcher
  /**
   * The PTYs whose output reached each pane (seen through {@link PtyFlowControl.deliveringPid}): the
   * agent's commands and, for a process teammate, its terminal. Ended PTYs drop out when a pause finds them gone.
   */
  private readonly ptys = new Map<string, Set<number>>()

  constructor(private readonly options: PaneOutputOptions) {
    const { pty, sizes } = options
    this.terminals = new PaneTerminals({ sizeOf: (agentId) => sizes.get(agentId) })
    this.batcher = new PaneBatcher({
      flush: (agentId, data) => this.terminals.write(agentId, data),
      pause: (agentId) => {
        for (const pid of this.ptys.get(agentId) ?? []) if (!pty.pause(pid)) this.ptys.get(agentId)?.delete(pid)
      },
      resume: (agentId) => {
        for (const pid of this.ptys.get(agentId) ?? []) pty.resume(pid)
      }
    })
  }

  /** Queues pane output, noting the PTY it comes from so the pane's backpressure can pause it. */
  write(agentId: string, text: string): void {
    const pid = this.options.pty.deliveringPid()
    if (pid !== undefined) {
      let pids = this.ptys.get(agentId)
      if (!pids) this.ptys.set(agentId, (pids = new Set()))
      if (!pids.has(pid)) {
        pids.add(pid)
        if (this.batcher.isPaused(agentId)) this.options.pty.pause(pid)
      }
    }
    this.batcher.write(agentId, text)
  }

  /** Hands every pane's batched output to its terminal now (before the panes are saved). */
  flushAll(): void {
    this.batcher.flushAll()
  }

  /**
   * A pane's scrollback for its page (`pane.scrollback`): `lines` of it at most. The page then holds
   * everything up to its chunk, which acknowledges it (a reloaded page resumes a paused pane).
   */
  async scrollback(agentId: string, lines: number | undefined): Promise<PaneScrollback> {
    this.batcher.flushPane(agentId)
    const scrollback = await this.terminals.scrollback(agentId, lines)
    this.batcher.ack(agentId, scrollback.chunk)
    return scrollback
  }

  /** The page processed the pane's chunks up to `chunk` (`pane.ack`). */
  ack(agentId: string, chunk: number): void {
    this.batcher.ack(agentId, chunk)
  }

  /**
   * A pane's new size (`pane.resize`, already within the contract's bounds): remembered for the
   * agent, main's headless terminal of the pane resized to it (so `pane.scrollback` is serialized
   * for the page's width), and a running `process` teammate's terminal resized to it (its program
   * gets SIGWINCH).
   * Any other agent — the leader, a subagent, a worker teammate, one not started yet or unknown —
   * has no terminal of its own to resize; its size is only remembered, so a process teammate that
   * starts later under that id starts at it.
   */
  resize(agentId: string, size: TerminalSize): void {
    this.options.sizes.remember(agentId, size)
    this.terminals.resize(agentId, size)
    this.options.resizeTerminal(agentId, size)
  }

  /** Stops batching (pending timers cleared); the terminals stay until {@link dispose}. */
  batching(): Disposable {
    return this.batcher.asDisposable()
  }

  /** Drops every pane's terminal. */
  dispose(): void {
    this.terminals.dispose()
  }
}
