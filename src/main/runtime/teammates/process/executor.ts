import { nodeBundlePath } from '../../install'
import { readProcEntry } from '../../processes'
import { type PtyHost, type PtyProcess, TailBuffer } from '../../pty'
import { canonicalWorkspace, agentTranscriptPath, swarmdeskHome } from '../../storage'
import { randomUUID } from 'node:crypto'
import { existsSync, statSync } from 'node:fs'
import { DEFAULT_TERMINAL_SIZE, type TerminalSize } from '../../../../shared/terminalSize'
import type { EventBus } from '../../events'
import type { OutgoingMessage } from '../../mailbox'
import { createFileTeamStore, type TeamStorePort } from '../../teamStore'

import { teammateIdentityEnv } from '../env'
import type { TeammateExecutor, TeammateExitInfo, TeammateHandle, TeammateSpawnConfig } from '../executor'
import { classifyExit, describeOutput, lastReport } from './exitReason'
import { findTeammateNode, killByRunTag, TEAMMATE_RUN_TAG_VARIABLE } from './processTable'
import { followTeammate, type TeammateFollowing } from './follow'
import { killTerminalTeammate, resizeTerminalTeammate } from './terminalTeammate'

export { TEAMMATE_EXIT_CODES } from './exitReason'
export { TEAMMATE_RUN_TAG_VARIABLE } from './processTable'

/**
 * What Node runs (`node -e LOADER <cli.mjs> teammate …`): the CLI bundle is a module exporting
 * `main(argv)` (bin/swarmdesk imports it the same way), not a script that runs when executed. The
 * loader imports it, runs `main` and exits with its code, as bin/swarmdesk does; an error escaping
 * `main` is printed and exits 1. Works in plain Node and in Electron with ELECTRON_RUN_AS_NODE=1.
 */
const CLI_LOADER =
  "import(require('node:url').pathToFileURL(process.argv[1]).href).then((cli) => cli.main(process.argv.slice(2))).then((code) => { process.exitCode = code }, (error) => { console.error(error && error.stack ? error.stack : String(error)); process.exitCode = 1 })"

/** How long `spawn` waits for the teammate's Node process to appear in the process table, ms. */
const DEFAULT_START_TIMEOUT_MS = 10_000

/** Raw terminal output kept per teammate to explain a crash, UTF-16 units. */
const REASON_OUTPUT_CHARS = 16 * 1024

/** Options of {@link ProcessTeammateExecutor}. */
export interface ProcessTeammateExecutorOptions {
  /** The leader's event bus: terminal output and the transcript's events go here. */
  bus: EventBus
  /** The PTY host of the main process (docs/design.md#process-model): each teammate runs in one of its terminals. */
  pty: PtyHost
  /** The CLI bundle; default `nodeBundlePath('cli')` (`out/node/cli.mjs`). */
  cliPath?: string
  /** The Node binary; default `process.execPath` (Electron's binary in the packaged app). */
  nodePath?: string
  /** Sets `ELECTRON_RUN_AS_NODE=1` (docs/design.md#process-model); default true when running inside Electron. */
  runAsNode?: boolean
  /** Terminal size of a teammate's pane, in character cells, when `paneSize` knows none; default 120 × 40. */
  cols?: number
  rows?: number
  /**
   * The last size the teammate's pane reported (`pane.resize`, the workspace remembers it), or
   * undefined when it has none yet. A teammate starts at it, so a pane shown before its teammate
   * starts (a restored one) does not see the first screen drawn at the default width.
   */
  paneSize?: (agentId: string) => TerminalSize | undefined
  /** Fallback poll period of the transcript tails, ms. */
  transcriptPollMs?: number
  /** How long `spawn` waits for the Node process to show up before giving up, ms (default 10 s). */
  startTimeoutMs?: number
  /** Data directory for messages to teammates this executor did not start; default `swarmdeskHome()`. */
  home?: string
}

/** One teammate this executor started. */
interface Running {
  config: TeammateSpawnConfig
  proc: PtyProcess
  /** Follows its events and its sync subagents' (docs/teams.md#spawning-a-teammate), which run inside its process. */
  tail: TeammateFollowing
  /** Pid of the Node process (the pty's wrapper shell where /proc is unavailable). */
  pid: number
  alive: boolean
  /** Set by kill() while the process still ran: an end by SIGKILL is then `killed`. */
  killReason: string | undefined
  output: TailBuffer
  exited: Promise<TeammateExitInfo>
  /** The value of {@link TEAMMATE_RUN_TAG_VARIABLE} in its environment. */
  runTag: string
  /** Start time of its terminal's shell, clock ticks since boot (limits the escapee search). */
  startedAt: number | undefined
}

/**
 * The `process` teammate backend (docs/design.md#process-model, docs/teams.md#spawning-a-teammate): each teammate is a separate Node process,
 * `node -e <loader> out/node/cli.mjs teammate --team T --name N --cwd DIR`, started in its own
 * terminal of the PTY host, so its pane is its real terminal (as tmux panes are for Claude Code),
 * and ended by killing that terminal's whole process group. It talks to the
 * team only through files: its inbox (messages, permission answers, shutdown requests), the task
 * list, the team config and its transcript. On the leader's bus it appears as
 * - `terminal_output {data}`: every chunk its terminal prints, raw (ANSI intact);
 * - `assistant_text`, `tool_call`, `tool_result` (and `notice`s of compactions): from tailing its
 *   transcript (see {@link TranscriptTail});
 * all stamped `agentId: name@team`, `agentName: name`; and, stamped with each subagent's own id
 * and name, the events of the sync subagents it runs (`agent_started` naming it as parent, their
 * tool calls and results, `agent_stopped`), from their transcripts beside its own (see
 * {@link SubagentFollower}). States, `agent_started` and `agent_stopped`
 * are the spawner's (the TeammateSupervisor's) to emit; its permission requests and idle
 * notifications reach the leader's inbox (docs/teams.md#permission-requests).
 *
 * Environment of the process (docs/design.md#process-model): the main process's own (minus the model credentials, which
 * the PTY host withholds from every command), then `config.env` (model access: ANTHROPIC_API_KEY /
 * AUTH_TOKEN / BASE_URL — passed explicitly, which the PTY host honours), then SWARMDESK_HOME,
 * SWARMDESK_TEAM, SWARMDESK_AGENT_NAME, SWARMDESK_AGENT_ID, SWARMDESK_AGENT_COLOR,
 * SWARMDESK_SESSION_ID, SWARMDESK_LEADER_AGENT_ID, SWARMDESK_PLAN_MODE_REQUIRED (`1`/`0`),
 * SWARMDESK_MODEL, and ELECTRON_RUN_AS_NODE=1 from the packaged app. Exit codes: see
 * {@link TEAMMATE_EXIT_CODES}.
 */
export class ProcessTeammateExecutor implements TeammateExecutor {
  readonly backend = 'process' as const
  private readonly running = new Map<string, Running>()
  private readonly fileStores = new Map<string, TeamStorePort>()
  private disposed = false

  constructor(private readonly options: ProcessTeammateExecutorOptions) {}

  /**
   * Starts a teammate's process and resolves once its Node process runs (found in /proc as a child
   * of its terminal's shell; its loop then connects the model, goes active and reads its inbox).
   * Its transcript is followed from its size at this moment, so a teammate started again in the
   * same session does not replay its earlier run.
   * @throws Error when the executor is disposed, the teammate already runs here, the working
   *   directory, the CLI bundle or the Node binary is missing, the pty cannot spawn, or the process
   *   does not show up within `startTimeoutMs`; nothing is left running then.
   */
  async spawn(config: TeammateSpawnConfig): Promise<TeammateHandle> {
    if (this.disposed) throw new Error(`Cannot start teammate ${config.agentId}: the process backend is disposed.`)
    if (this.running.get(config.agentId)?.alive) throw new Error(`Teammate ${config.agentId} is already running.`)
    const cwd = canonicalWorkspace(config.cwd)
    const cliPath = this.options.cliPath ?? nodeBundlePath('cli')
    if (!existsSync(cliPath))
      throw new Error(
        `Cannot start teammate ${config.agentId}: the CLI bundle ${cliPath} is missing; build it with: npm run build`
      )
    const nodePath = this.options.nodePath ?? process.execPath
    if (!existsSync(nodePath))
      throw new Error(`Cannot start teammate ${config.agentId}: the Node binary ${nodePath} is missing.`)
    const { bus } = this.options
    const agentId = config.agentId
    const agentName = config.name
    const transcriptPath = agentTranscriptPath(config.home, cwd, config.sessionId, agentId)
    const fromOffset = statSync(transcriptPath, { throwIfNoEntry: false })?.size ?? 0
    const command = `exec ${[nodePath, '-e', CLI_LOADER, cliPath, 'teammate', '--team', config.team, '--name', config.name, '--cwd', cwd].map(shellQuote).join(' ')}`
    const output = new TailBuffer(REASON_OUTPUT_CHARS)
    const runTag = randomUUID()
    const spawnedAt = Date.now()
    let resolveExit!: (info: TeammateExitInfo) => void
    const exited = new Promise<TeammateExitInfo>((resolve) => (resolveExit = resolve))
    let entry: Running | undefined
    let earlyExit: { exitCode: number | null; signal: number | null } | undefined
    const onExit = (exit: { exitCode: number | null; signal: number | null }): void => {
      if (!entry) {
        earlyExit = exit
        return
      }
      void this.finish(entry, exit, spawnedAt).then(resolveExit)
    }
    const proc = this.options.pty.spawn({
      command,
      cwd,
      env: { ...this.processEnv(config), [TEAMMATE_RUN_TAG_VARIABLE]: runTag },
      ...this.startSize(agentId),
      onData: (data) => {
        output.push(data)
        bus.emit({ type: 'terminal_output', data, agentId, agentName })
      },
      onExit
    })
    const tail = followTeammate(config, bus, transcriptPath, fromOffset, this.options.transcriptPollMs)
    entry = {
      config,
      proc,
      tail,
      pid: proc.pid,
      alive: true,
      killReason: undefined,
      output,
      exited,
      runTag,
      startedAt: readProcEntry(proc.pid)?.startTime
    }
    this.running.set(agentId, entry)
    if (earlyExit) onExit(earlyExit)
    const running = entry
    const pid = await findTeammateNode(running.proc.pid, cliPath, () => running.alive, this.startTimeoutMs)
    if (pid === undefined) {
      running.killReason = 'did not start'
      await proc.kill()
      await exited
      this.running.delete(agentId)
      throw new Error(`Teammate ${agentId} did not start within ${this.startTimeoutMs} ms.${describeOutput(output)}`)
    }
    running.pid = pid
    return { agentId, backend: 'process', pid, exited }
  }

  /**
   * Puts a message in a teammate's inbox (docs/teams.md#mailbox); its idle loop wakes at once (file watching).
   * `agentId` is `name@team`; a teammate this executor did not start gets it in `options.home`.
   * @throws Error for an agent id without `@team`; the mailbox's errors (an invalid name or message).
   */
  async sendMessage(agentId: string, message: OutgoingMessage): Promise<void> {
    const known = this.running.get(agentId)?.config
    const at = agentId.lastIndexOf('@')
    if (!known && at <= 0) throw new Error(`Not a teammate id: '${agentId}' (expected name@team).`)
    const home = known?.home ?? this.options.home ?? swarmdeskHome()
    const team = known?.team ?? agentId.slice(at + 1)
    const name = known?.name ?? agentId.slice(0, at)
    await (known?.store ?? this.fileStore(home)).mailbox.send(team, name, message)
  }

  /**
   * Kills a teammate's whole process group at once (no shutdown request, no cleanup of its own:
   * `exited` then says `killed`, `reported: false`) and resolves once the PTY host verified every
   * process of it gone and its transcript was read to the end. Idempotent; resolves for an unknown id.
   */
  kill(agentId: string, reason?: string): Promise<void> {
    return killTerminalTeammate(this.running.get(agentId), reason)
  }

  /**
   * Resizes a running teammate's terminal (its pane changed size, docs/ui.md#the-workspace-ui): the kernel sends its
   * Node process SIGWINCH and `process.stdout.columns`/`rows` follow.
   * @returns true when its terminal was resized; false for a teammate this executor does not run.
   * @throws PtySizeError for a size outside src/shared/terminalSize.ts's bounds, checked first.
   */
  resize(agentId: string, cols: number, rows: number): boolean {
    return resizeTerminalTeammate(this.running.get(agentId), cols, rows)
  }

  /** Reads the teammate's transcript now (see {@link TeammateExecutor.sync}): what it wrote so far is known before this returns. */
  sync(agentId: string): void {
    const entry = this.running.get(agentId)
    if (entry?.alive) entry.tail.readNow()
  }

  /** True while the teammate's process runs (until its terminal has exited). */
  isAlive(agentId: string): boolean {
    return this.running.get(agentId)?.alive === true
  }

  /**
   * Sends SIGUSR2 to the teammate's Node process (see {@link TeammateExecutor.interrupt}; `swarmdesk
   * teammate` stops its turn on it). SIGINT would end it, as in any terminal program; SIGUSR1 is
   * Node's debugger switch.
   */
  interrupt(agentId: string): boolean {
    const entry = this.running.get(agentId)
    if (!entry?.alive || entry.pid === entry.proc.pid) return false
    try {
      process.kill(entry.pid, 'SIGUSR2')
      return true
    } catch {
      return false
    }
  }

  /** Kills every teammate this executor started and stops following their transcripts; later spawns throw. */
  async dispose(): Promise<void> {
    this.disposed = true
    await Promise.all([...this.running.keys()].map((id) => this.kill(id, 'the session closed')))
    for (const entry of this.running.values()) {
      entry.tail.close()
      entry.tail.closeSubagents()
    }
  }

  /** The size a teammate's terminal starts at: its pane's last, else the configured or default one. */
  private startSize(agentId: string): TerminalSize {
    const pane = this.options.paneSize?.(agentId)
    if (pane) return { cols: pane.cols, rows: pane.rows }
    return {
      cols: this.options.cols ?? DEFAULT_TERMINAL_SIZE.cols,
      rows: this.options.rows ?? DEFAULT_TERMINAL_SIZE.rows
    }
  }

  private get startTimeoutMs(): number {
    return this.options.startTimeoutMs ?? DEFAULT_START_TIMEOUT_MS
  }

  /** docs/design.md#process-model's variables for one teammate, over the model access in `config.env`. */
  private processEnv(config: TeammateSpawnConfig): Record<string, string> {
    // on a server, SWARMDESK_TEAMMATE_HOME gives teammates a data directory of their own (docs/nats.md#configuration)
    const own = config.store && config.store.transport !== 'files' ? process.env.SWARMDESK_TEAMMATE_HOME : undefined
    return {
      ...config.env,
      ...teammateIdentityEnv(config),
      ...(own ? { SWARMDESK_HOME: own } : {}),
      ...((this.options.runAsNode ?? Boolean(process.versions.electron)) ? { ELECTRON_RUN_AS_NODE: '1' } : {})
    }
  }

  /**
   * After the terminal is gone (the PTY host swept its group and descendants): whatever the
   * teammate started that escaped both is killed by its run tag, the transcript is read to its
   * end, then how it ended is worked out.
   */
  private async finish(
    entry: Running,
    exit: { exitCode: number | null; signal: number | null },
    spawnedAt: number
  ): Promise<TeammateExitInfo> {
    const { agentId, name } = entry.config
    entry.alive = false
    let info: TeammateExitInfo
    try {
      const survivors = await killByRunTag(entry.runTag, entry.startedAt)
      if (survivors.length)
        this.options.bus.emit({
          type: 'notice',
          level: 'error',
          message: `Processes started by teammate ${agentId} outlived a kill: ${survivors.join(', ')}.`,
          agentId,
          agentName: name
        })
      entry.tail.close()
      info = await classifyExit({
        exit,
        killReason: entry.killReason,
        output: entry.output,
        lastReport: () =>
          lastReport((entry.config.store ?? this.fileStore(entry.config.home)).mailbox, entry.config, spawnedAt)
      })
    } catch (error) {
      entry.tail.close()
      info = {
        status: 'crashed',
        reported: false,
        reason: `its exit could not be classified: ${(error as Error).message}`
      }
    }
    closeSubagents(entry, info)
    return info
  }

  /** The file team store of `home`, for a teammate spawned without a store (one per home). */
  private fileStore(home: string): TeamStorePort {
    let store = this.fileStores.get(home)
    if (!store) this.fileStores.set(home, (store = createFileTeamStore(home)))
    return store
  }
}

/**
 * Stops following a teammate's subagents once it has ended: one that wrote no end of its own was
 * cut short with the process, `crashed` when the teammate crashed, else `killed`.
 */
function closeSubagents(entry: Running, info: TeammateExitInfo): void {
  const why = info.reason ? ` (${info.reason})` : ''
  entry.tail.closeSubagents({
    status: info.status === 'crashed' ? 'crashed' : 'killed',
    reason: `its teammate ${entry.config.name} ended before it finished${why}`
  })
}

/** POSIX single-quoting: the word as one shell argument, whatever it holds. */
function shellQuote(word: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`
}
