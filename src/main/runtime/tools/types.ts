import type { z } from 'zod'
import type { PermissionSubject } from '../../../shared/permissions'
import type { FileStateCache } from './fileState'
import type { SubagentRuntime } from '../subagents/runtime'
import type { ParentAgent } from '../subagents/types'
import type { TeamContext } from '../teamTools/context'
import type { TeammateSupervisor } from '../teammates/supervisor'

/**
 * What a tool call may use (SPEC §3, §6.2). One context per agent; the loop adds the per-call
 * fields (`toolUseId`, `signal`, `onOutput`).
 */
export interface ToolContext {
  agentId: string
  agentName: string
  /** The agent's root (workspace root, or its worktree when isolated). Relative paths resolve here; Bash runs here. Absolute, canonical. */
  cwd: string
  /** Aborts the call: the tool must stop its work (kill its process group) and return promptly. */
  signal: AbortSignal
  /** Files this agent has read in this context, for the read-before-write rule of Write/Edit. */
  fileState: FileStateCache
  /** The process-wide owner of every PTY (never a worker thread: STACK.md). */
  pty: PtyHost
  /** Background shells this agent owns; killed with the agent. */
  shells: BackgroundShells
  /** Id of the tool_use block being executed. */
  toolUseId: string
  /** Raw terminal output (ANSI intact) for the agent's pane; absent when nobody watches. */
  onOutput?: (data: string) => void
  /** The session's agent services, for the tools that spawn, stop or message agents (Agent, TaskStop, SendMessage). */
  services?: AgentServices
}

/** What agent-management tools reach through their context. */
export interface AgentServices {
  subagents: SubagentRuntime
  /** The calling agent, as a parent of what it spawns. */
  self: ParentAgent
  /** The session's team and task list, for SendMessage to teammates and the task/team tools (SPEC §9); absent for an agent outside a team's session. */
  team?: TeamContext
  /** The leader's teammate supervisor (SPEC §9.2): present for the session's main agent when teammates are enabled. */
  teammates?: TeammateSupervisor
}

/** What a tool call returns to the model. `isError` marks a failure the model can act on. */
export interface ToolResult {
  content: string
  isError?: boolean
}

/**
 * A tool (SPEC §3): name, zod input schema (sent to the API as JSON Schema), read-only and
 * concurrency flags, a permission subject, and `call`. A failure the model can act on is thrown
 * as {@link ToolError} (or returned with `isError`); any other throw is a bug and ends the loop.
 */
export interface Tool<I = any> {
  readonly name: string
  /** Shown to the model in the tools list. */
  readonly description: string
  readonly inputSchema: z.ZodType<I>
  /** True when the call changes nothing outside the agent's own state. */
  isReadOnly(input: I): boolean
  /** True when calls of one assistant message may run in parallel with it (SPEC §2). */
  isConcurrencySafe(input: I): boolean
  /** What the call touches, for the permission engine (SPEC §4). Relative paths are resolved against `ctx.cwd` by the engine. */
  permissionSubject(input: I, ctx: Pick<ToolContext, 'cwd'>): PermissionSubject
  call(input: I, ctx: ToolContext): Promise<ToolResult>
}

/**
 * A tool failure the model can act on: becomes a tool_result with `is_error: true` and this
 * message (SPEC §2: tool failures go back as data; only bugs end the loop).
 */
export class ToolError extends Error {
  override readonly name = 'ToolError'
  constructor(message: string) {
    super(message)
  }
}

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
   * (a `process` teammate whose pane changed size, SPEC §1, §11). A no-op once the process has
   * exited. Present where the host owns the terminal (the main thread's PTY host); a worker's PTY
   * client leaves it out, since nothing resizes a worker teammate's background shells.
   * @throws PtySizeError for a size outside src/shared/terminalSize.ts's bounds (whole numbers,
   *   1–2000 columns, 1–1000 rows); the terminal keeps its size then.
   */
  resize?(cols: number, rows: number): void
}

/**
 * The PTY host: owns every node-pty terminal of the process (SPEC §1). Lives in the main thread;
 * worker threads reach it over a MessagePort RPC (Teams 2).
 */
export interface PtyHost {
  run(options: PtyRunOptions): Promise<PtyRunResult>
  spawn(options: PtySpawnOptions): PtyProcess
  /** Pids of live PTY processes (group leaders). */
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

/** The background shells one agent owns (SPEC §3 BashOutput/KillShell, §6.8). */
export interface BackgroundShells {
  start(options: { command: string; cwd: string; env?: Record<string, string>; onData?: (data: string) => void }): { shellId: string }
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
