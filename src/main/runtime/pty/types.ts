/** Options of one foreground command run in a PTY (the Bash tool). */
export interface PtyRunOptions {
  /** Passed to `bash -c` as is. */
  command: string
  /** Working directory, absolute. */
  cwd: string
  /** Extra environment, over the process's own and the fixed PAGER=cat GIT_PAGER=cat GIT_TERMINAL_PROMPT=0. */
  env?: Record<string, string>
  /** Kill the whole process group after this many milliseconds. */
  timeoutMs: number
  signal?: AbortSignal
  /** Raw output as it arrives (for the pane). */
  onData?: (data: string) => void
  cols?: number
  rows?: number
}

/** How a foreground PTY command ended. `output` is raw (ANSI intact). */
export interface PtyRunResult {
  pid: number
  exitCode: number | null
  /** Signal number that ended the process, if any. */
  signal: number | null
  output: string
  /**
   * Characters of raw output not kept in `output`, not counting `\r` (the host keeps a bounded
   * head and tail and puts a one-line note where it cut); 0 or absent when `output` is complete.
   */
  omittedChars?: number
  timedOut: boolean
  aborted: boolean
}

/** Options of a background shell (Bash with `run_in_background`). */
export interface PtySpawnOptions {
  command: string
  cwd: string
  env?: Record<string, string>
  onData?: (data: string) => void
  onExit?: (exit: { exitCode: number | null; signal: number | null }) => void
  cols?: number
  rows?: number
}

/** A running PTY process; `kill` ends its whole process group and resolves once it is gone. */
export interface PtyProcess {
  readonly pid: number
  kill(): Promise<void>
  /**
   * Resizes its terminal to `cols` × `rows` character cells; the kernel sends the program SIGWINCH
   * (a `process` teammate whose pane changed size, docs/design.md#process-model, docs/ui.md#the-workspace-ui). A no-op once the process has
   * exited. Present where the host owns the terminal (the main thread's PTY host); a worker's PTY
   * client leaves it out, since nothing resizes a worker teammate's background shells.
   * @throws PtySizeError for a size outside src/shared/terminalSize.ts's bounds (whole numbers,
   *   1–2000 columns, 1–1000 rows); the terminal keeps its size then.
   */
  resize?(cols: number, rows: number): void
}

/**
 * Options of an interactive program in a terminal (a person's own `claude` in a pane,
 * docs/claude-code.md#sessions-in-panes): started as `file args` with no shell around it, the
 * terminal as its stdin, and exactly `env` as its environment (the agents' fixed PAGER/GIT_*
 * settings and withheld keys do not apply: it is the person's program, not an agent's command).
 */
export interface PtyOpenOptions {
  file: string
  args: string[]
  cwd: string
  env: Record<string, string>
  onData?: (data: string) => void
  onExit?: (exit: { exitCode: number | null; signal: number | null }) => void
  cols?: number
  rows?: number
}

/** A running interactive program: every key a person types goes to it through `write`. */
export interface InteractivePty extends PtyProcess {
  /** Writes to the terminal as typed keys (`\r` is Enter); a no-op once it has exited. */
  write(data: string): void
  resize(cols: number, rows: number): void
}

/**
 * The PTY host: owns every node-pty terminal of the process (docs/design.md#process-model). Lives in the main thread;
 * worker threads reach it over a MessagePort RPC (Teams 2).
 */
export interface PtyHost {
  run(options: PtyRunOptions): Promise<PtyRunResult>
  spawn(options: PtySpawnOptions): PtyProcess
  /**
   * Starts an interactive program in its own terminal (see {@link PtyOpenOptions}); `kill` ends its
   * process group. @throws PtyHostDisposedError after `dispose()`, PtySizeError for a bad size, and
   * node-pty's error when `file` cannot be started.
   */
  open?(options: PtyOpenOptions): InteractivePty
  /**
   * Has a spare shell start for commands in `cwd` (with `env` over the usual environment) a moment
   * later (50 ms, when the session's first model request has gone out), so the next command there
   * does not wait for a new terminal (docs/tools.md#tools, Bash). A hint: a no-op where the host
   * keeps no spares or has one there.
   */
  prewarm?(options: { cwd: string; env?: Record<string, string> }): void
  /** Pids of live PTY processes (group leaders); a spare shell is not one until a command takes it. */
  livePids(): number[]
  /** Kills every PTY process group and waits for them to go. */
  dispose(): Promise<void>
}

/** A background shell's state as BashOutput reports it. */
export interface BackgroundShellStatus {
  shellId: string
  command: string
  status: 'running' | 'completed' | 'failed' | 'killed'
  exitCode: number | null
  /** Output (ANSI-stripped, CRLF-normalised) produced since the previous read. */
  newOutput: string
}

/** The background shells one agent owns (docs/tools.md#tools BashOutput/KillShell, docs/agents.md#cleanup). */
export interface BackgroundShells {
  /** `label`: the command as reads and the shell list show it, when `command` is a wrapped form of it (the Bash sandbox). */
  start(options: {
    command: string
    label?: string
    cwd: string
    env?: Record<string, string>
    onData?: (data: string) => void
    /**
     * Called once when the shell's process has ended, before its status changes; text it returns
     * is added to the shell's output on a line of its own (the Bash sandbox's git check).
     */
    onEnd?: () => string | undefined
  }): {
    shellId: string
  }
  /** Reads new output since the last read, optionally only lines matching `filter`. Undefined for an unknown id. */
  read(shellId: string, filter?: LineFilter): BackgroundShellStatus | undefined
  /** Kills one shell's process group; false for an unknown or already finished id. */
  kill(shellId: string): Promise<boolean>
  /** Kills every shell this agent owns (agent cleanup). */
  killAll(): Promise<void>
  /** Number of shells still running. */
  runningCount(): number
  /** Every shell this agent started, oldest first (for error messages naming the valid ids). */
  list?(): Array<{ shellId: string; command: string; status: BackgroundShellStatus['status'] }>
}

/** Decides whether one line of output is kept (BashOutput's `filter`): a RegExp, or a Grep pattern's matcher. */
export interface LineFilter {
  test(line: string): boolean
}
