import type { AgentView } from '../../../../shared/ipc'
import { currentOwner } from '../../locks/owner'
import { readProcEntry } from '../../pty'
import type { Disposable } from '../../lifecycle/disposable'
import { writeLastSession, writePanes, writeWorkspaceState, type RestorePaths, type WorkspaceState } from './stateFile'

/** How long a change waits before `workspace.json` is written (ms): agent events come in bursts. */
export const STATE_WRITE_DELAY_MS = 200
/** How long pane output waits before `panes.json` is written (ms): serializing every pane is the costly part. */
export const PANES_WRITE_DELAY_MS = 1_000

/** What the recorder reads from the workspace when it writes. */
export interface RecorderSource {
  home: string
  cwd: string
  sessionId: string
  paths: RestorePaths
  /** The run's tag (the `SWARMDESK_WORKSPACE_RUN` value in its PTYs, stateFile.ts). */
  runTag: string
  agents(): AgentView[]
  team(): string | undefined
  /** Pids of the PTYs alive now. */
  ptyPids(): number[]
  /** Called before panes are saved: output still on its way to a pane terminal gets there (and marks it written). */
  flushPanes?(): void
  /** Panes' scrollback, serialized and bounded in size (see PaneTerminals.serializeAll): those named in `only`, else all. */
  panes(only?: string[]): Promise<Record<string, string>>
}

/**
 * Keeps a session's restore files current while it runs (see stateFile.ts): `workspace.json` a
 * short while after any agent change, `panes.json` at most once a second while panes receive
 * output. Each timer starts at the first change and is not pushed back by later ones, so steady
 * output still reaches the disk every {@link PANES_WRITE_DELAY_MS}: after a `kill -9` at most that
 * much pane output is missing. Writes are atomic (temp + rename); a failed write is reported to
 * `onError` and retried at the next change.
 */
export class WorkspaceStateRecorder implements Disposable {
  private stateTimer: NodeJS.Timeout | undefined
  private panesTimer: NodeJS.Timeout | undefined
  private panesWriting: Promise<void> = Promise.resolve()
  /** Panes written since the last save; `all` until the first save (it takes in the restored ones too). */
  private dirty: Set<string> | 'all' = 'all'
  /** What the last save wrote: unchanged panes are not serialized again. */
  private saved: Record<string, string> = {}
  private disposed = false

  constructor(
    private readonly source: RecorderSource,
    private readonly onError: (message: string) => void,
    private readonly delays = { state: STATE_WRITE_DELAY_MS, panes: PANES_WRITE_DELAY_MS }
  ) {}

  /** Writes `last-session.json` and `workspace.json` now: the session is the one the workspace reopens. */
  open(): void {
    try {
      writeLastSession(this.source.home, this.source.cwd, this.source.sessionId)
    } catch (error) {
      this.onError(`Could not record the session to reopen: ${(error as Error).message}`)
    }
    this.writeState()
  }

  /** An agent, the team or a PTY changed: `workspace.json` is written soon. */
  noteChange(): void {
    if (this.disposed || this.stateTimer) return
    this.stateTimer = setTimeout(() => {
      this.stateTimer = undefined
      this.writeState()
    }, this.delays.state)
  }

  /** A pane received output: `panes.json` is written within {@link PANES_WRITE_DELAY_MS}. */
  notePaneOutput(agentId?: string): void {
    if (this.disposed) return
    if (agentId === undefined) this.dirty = 'all'
    else if (this.dirty !== 'all') this.dirty.add(agentId)
    if (this.panesTimer) return
    this.panesTimer = setTimeout(() => {
      this.panesTimer = undefined
      void this.writePanes()
    }, this.delays.panes)
  }

  /** Writes whatever is pending now (a clean close, tests). */
  async flush(): Promise<void> {
    if (this.stateTimer) {
      clearTimeout(this.stateTimer)
      this.stateTimer = undefined
    }
    if (this.panesTimer) {
      clearTimeout(this.panesTimer)
      this.panesTimer = undefined
    }
    this.writeState()
    await this.writePanes()
  }

  /** Stops the timers; nothing more is written. Call {@link flush} first to keep the last changes. */
  dispose(): void {
    this.disposed = true
    clearTimeout(this.stateTimer)
    clearTimeout(this.panesTimer)
  }

  private snapshot(): WorkspaceState {
    const owner = currentOwner()
    const team = this.source.team()
    return {
      schemaVersion: 1,
      sessionId: this.source.sessionId,
      cwd: this.source.cwd,
      updatedAt: new Date().toISOString(),
      owner: { pid: owner.pid, startTime: owner.startTime },
      runTag: this.source.runTag,
      ptys: this.source.ptyPids().map((pid) => {
        const row = readProcEntry(pid)
        return { pid, startTime: row ? String(row.startTime) : null }
      }),
      agents: this.source.agents(),
      ...(team ? { team } : {})
    }
  }

  private writeState(): void {
    if (this.disposed) return
    try {
      writeWorkspaceState(this.source.paths, this.snapshot())
    } catch (error) {
      this.onError(`Could not save the workspace state (${this.source.paths.state}): ${(error as Error).message}`)
    }
  }

  /** One panes write at a time; a request during a write runs after it. */
  private writePanes(): Promise<void> {
    this.panesWriting = this.panesWriting.then(async () => {
      if (this.disposed) return
      try {
        this.source.flushPanes?.()
        const dirty = this.dirty
        this.dirty = new Set()
        if (dirty !== 'all' && dirty.size === 0 && Object.keys(this.saved).length > 0) return
        const fresh = await this.source.panes(dirty === 'all' ? undefined : [...dirty])
        this.saved = dirty === 'all' ? fresh : { ...this.saved, ...fresh }
        writePanes(this.source.paths, this.saved)
      } catch (error) {
        this.dirty = 'all'
        this.onError(`Could not save the panes' scrollback (${this.source.paths.panes}): ${(error as Error).message}`)
      }
    })
    return this.panesWriting
  }
}
