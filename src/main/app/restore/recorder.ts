import { readProcEntry } from '../../runtime/processes'
import type { AgentView } from '../../../shared/ipc'
import { currentOwner } from '../../runtime/locks'

import type { Disposable } from '../../runtime/base'
import { PaneJournal } from './paneJournal'
import { writeLastSession, writeWorkspaceState, type RestorePaths, type WorkspaceState } from './stateFile'

/** How long a change waits before `workspace.json` is written (ms): agent events come in bursts. */
export const STATE_WRITE_DELAY_MS = 200
/** How long pane output waits in memory before it is appended to the pane journal (ms): at most this much is lost to a `kill -9`. */
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
  /** Called before panes are saved: output still on its way to a pane (the pane batcher's) gets there, and so to {@link WorkspaceStateRecorder.notePaneOutput}. */
  flushPanes?(): void
}

/**
 * Keeps a session's restore files current while it runs (see stateFile.ts): `workspace.json` a
 * short while after any agent change, and each pane's output appended to the pane journal
 * (paneJournal.ts) at most once a second while panes receive output. Each timer starts at the
 * first change and is not pushed back by later ones, so steady output still reaches the disk every
 * {@link PANES_WRITE_DELAY_MS}: after a `kill -9` at most that much pane output is missing.
 * `workspace.json` is written whole (temp + rename), journal records whole or not at all; a failed
 * write is reported to `onError` and retried at the next change. A state that says what the file
 * already says (but for its time) is not written again: every runtime event notes a change, and
 * 16 agents' output alone made five renames a second.
 */
export class WorkspaceStateRecorder implements Disposable {
  private stateTimer: NodeJS.Timeout | undefined
  private panesTimer: NodeJS.Timeout | undefined
  private readonly journal: PaneJournal
  private disposed = false
  /** The state last written, without its `updatedAt`, as JSON. */
  private lastWritten: string | undefined

  constructor(
    private readonly source: RecorderSource,
    private readonly onError: (message: string) => void,
    private readonly delays = { state: STATE_WRITE_DELAY_MS, panes: PANES_WRITE_DELAY_MS }
  ) {
    this.journal = new PaneJournal(source.paths.paneJournal)
  }

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

  /** `agentId`'s pane received `data`: it is appended to the pane journal within {@link PANES_WRITE_DELAY_MS}. */
  notePaneOutput(agentId: string, data: string): void {
    if (this.disposed) return
    this.journal.append(agentId, data)
    if (this.panesTimer) return
    this.panesTimer = setTimeout(() => {
      this.panesTimer = undefined
      this.writePanes()
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
    this.writePanes()
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
      const state = this.snapshot()
      const { updatedAt: _at, ...content } = state
      const json = JSON.stringify(content)
      if (json === this.lastWritten) return
      writeWorkspaceState(this.source.paths, state)
      this.lastWritten = json
    } catch (error) {
      this.onError(`Could not save the workspace state (${this.source.paths.state}): ${(error as Error).message}`)
    }
  }

  /** Appends the queued pane output to the journal (after the pane batcher handed over what it held). */
  private writePanes(): void {
    if (this.disposed) return
    try {
      this.source.flushPanes?.()
      this.journal.flush()
    } catch (error) {
      this.onError(`Could not save the panes' output: ${(error as Error).message}`)
    }
  }
}
