import { type PtyHost, TailBuffer } from '../../pty'
import { DEFAULT_TERMINAL_SIZE, type TerminalSize } from '../../../../shared/terminalSize'
import type { EventBus } from '../../events'
import type { OutgoingMessage } from '../../mailbox'
import { teammateIdentityEnv } from '../env'
import { CUT_OFF_EXIT_ENV } from '../heartbeat'
import type { TeammateExecutor, TeammateExitInfo, TeammateHandle, TeammateSpawnConfig } from '../executor'
import { describeOutput } from '../process/exitReason'
import { followTeammate } from '../process/follow'
import { envFileText, remoteEnv, remotePaths, remoteTeammateScript, shellQuote, sshTerminalArgs } from './command'
import { leaderRepo, pushBranch, sshRun } from './git'
import { finishRemote, type HostStartPhases, type Remote } from './remote'
import { killTerminalTeammate, resizeTerminalTeammate } from '../process/terminalTeammate'
import { preparationScript, sessionFilesForHost } from './hostFiles'
import { SshMultiplexer, type SharedHost } from './mux'
import type { TeammateHost } from '../../../../shared/teammateHosts'

export type { HostStartPhases } from './remote'

/** How long a host teammate may take from its ssh starting to its first heartbeat, ms. */
const DEFAULT_START_TIMEOUT_MS = 60_000

/** How many sets of remote forward ports a start tries before it fails on ports the host refuses (docs/hosts.md#what-the-teammate-reaches). */
export const FORWARD_TRIES = 5

/** What ssh prints when the host refuses a remote forward (`ExitOnForwardFailure=yes` then ends it). */
const FORWARD_REFUSED = /remote port forwarding failed for listen port/

/** Raw terminal output kept per teammate to explain a failure, UTF-16 units. */
const REASON_OUTPUT_CHARS = 16 * 1024

/** Options of {@link SshTeammateExecutor}. */
export interface SshTeammateExecutorOptions {
  /** The leader's event bus: terminal output and the teammate's published events go here. */
  bus: EventBus
  /** The PTY host of the main process: each teammate's `ssh` runs in one of its terminals (the pane's). */
  pty: PtyHost
  /** The last size of a teammate's pane (see the process backend's option of that name). */
  paneSize?: (agentId: string) => TerminalSize | undefined
  /** From the ssh start to the teammate's first heartbeat, ms (default 60 s). */
  startTimeoutMs?: number
  /** Picks each remote forward's port on the host (default: at random in 20000–59999; tests pick). */
  pickPort?: () => number
  /**
   * One ssh connection per host, shared by every ssh to it (docs/hosts.md#connections): true
   * (default) in a private folder of `$XDG_RUNTIME_DIR` or the temp folder; or where to make that
   * folder and how many teammates share a connection (default 5); or false for a connection per ssh.
   */
  multiplex?: boolean | { parent?: string; perConnection?: number }
  /** Told where each started teammate's start went (the benchmark's split). */
  onStartPhases?: (agentId: string, phases: HostStartPhases) => void
}

/**
 * `process` teammates on other hosts (docs/hosts.md#spawning-on-a-host): the leader runs the system
 * `ssh -tt` in a terminal of its PTY host (the pane is that terminal, resized like a local one), and
 * on the host the login shell runs `<command> teammate …` in a clone of the leader's repository.
 * Nothing is shared but the JetStream team store, which the teammate reaches, like the model
 * endpoint on the leader's loopback, through remote forwards of that ssh connection. Its env
 * (identity, transport, model access and credentials) goes to the host on the stdin of a
 * preparation ssh into a file only its user reads, which the teammate's shell sources and removes:
 * never on a command line. The connection's end (a kill, the leader's end, a lost network) hangs up
 * the remote terminal, and with it the teammate's session there. A teammate whose heartbeat stops
 * while its ssh still runs (the network cut, ssh still waiting on its keep-alive) is killed here and
 * ends `crashed`, so its tasks return within the store's liveness bound plus one beat.
 */
export class SshTeammateExecutor implements TeammateExecutor {
  readonly backend = 'process' as const
  private readonly running = new Map<string, Remote>()
  private disposed = false
  private readonly mux: SshMultiplexer | undefined

  constructor(private readonly options: SshTeammateExecutorOptions) {
    const multiplex = options.multiplex ?? true
    this.mux =
      multiplex === true
        ? new SshMultiplexer()
        : multiplex
          ? new SshMultiplexer(multiplex.parent, multiplex.perConnection)
          : undefined
  }

  /**
   * Prepares the host (folder, repository, env file, the session's settings files), pushes the
   * leader's HEAD as the teammate's branch `swarmdesk/<team>/<name>`, starts its ssh and resolves
   * at its first heartbeat. A remote forward the host refuses (its port taken there) ends that ssh
   * at once: the start tries new ports, up to {@link FORWARD_TRIES} times. Every ssh goes through
   * the host's shared connection when one can be made, else on its own (a notice says why).
   * @throws Error without a host, on a store on files, when the host cannot be prepared, or when
   *   no heartbeat comes within `startTimeoutMs` (its terminal's last output in the message);
   *   nothing is left running then.
   */
  async spawn(config: TeammateSpawnConfig): Promise<TeammateHandle> {
    const { host, store } = config
    if (this.disposed) throw new Error(`Cannot start teammate ${config.agentId}: the session is closing.`)
    if (!host) throw new Error(`Teammate ${config.agentId} names no host.`)
    if (!store || store.transport === 'files')
      throw new Error(`Teammate ${config.agentId} on host '${host.name}' needs the team on a JetStream transport.`)
    if (this.running.get(config.agentId)?.alive) throw new Error(`Teammate ${config.agentId} is already running.`)
    const shared: Partial<SharedHost> & { host: TeammateHost } = (await this.mux?.acquire(host)) ?? { host }
    if (shared.fallback) {
      const message = `Host '${host.name}': no shared ssh connection (${shared.fallback}); each ssh connects on its own.`
      this.options.bus.emit({ type: 'notice', level: 'info', message, agentId: config.agentId, agentName: config.name })
    }
    try {
      if (this.disposed) throw new Error(`Cannot start teammate ${config.agentId}: the session is closing.`)
      return await this.start({ ...config, host: shared.host, store }, shared)
    } catch (error) {
      await shared.release?.()
      throw error
    }
  }

  /** {@link spawn} once its host's connection is taken: `config.host` is the one to use. */
  private async start(
    config: Remote['config'],
    { connectMs, fallback, release }: Partial<SharedHost>
  ): Promise<TeammateHandle> {
    const { agentId, name: agentName, team, host, store } = config
    const paths = remotePaths(host, team, agentName)
    const repo = await leaderRepo(config.cwd)
    const branch = repo ? `swarmdesk/${team}/${agentName}` : undefined
    const cwd = repo?.sub ? `${paths.dir}/${repo.sub}` : paths.dir
    const session = await sessionFilesForHost(config.env, paths.filesDir, { home: config.home, cwd: config.cwd })
    const q = shellQuote
    const phases = {
      ...(connectMs !== undefined ? { connectMs } : {}),
      shared: !!release && !fallback,
      prepareMs: 0,
      pushMs: 0
    }
    for (let attempt = 1; ; attempt++) {
      // new ports each time: a port taken on the host fails ssh's forward, and the next try takes another
      const remote = remoteEnv(
        {
          ...config.env,
          ...teammateIdentityEnv(config),
          SWARMDESK_HOME: `${host.workspace.replace(/\/+$/, '')}/.swarmdesk`,
          // cut off from the server as long as the lead takes to release its tasks, it ends itself (docs/hosts.md#liveness)
          [CUT_OFF_EXIT_ENV]: String(store.liveness.boundMs + store.liveness.beatEveryMs)
        },
        this.options.pickPort
      )
      // the session's settings and MCP files, in private files beside its clone (docs/hosts.md#the-sessions-settings-on-the-host)
      const envFile = { path: paths.envFile, text: envFileText({ ...remote.env, ...session.env }) }
      const prepare = preparationScript(paths.dir, paths.filesDir, [envFile, ...session.files], repo !== undefined)
      try {
        let began = performance.now()
        await sshRun(host, 'sh -s', prepare)
        phases.prepareMs += performance.now() - began
        began = performance.now()
        if (repo && branch && attempt === 1) await pushBranch(repo, host, paths.dir, branch)
        phases.pushMs += performance.now() - began
      } catch (error) {
        await sshRun(host, `rm -f ${q(paths.envFile)}`, '', 20_000).catch(() => undefined)
        throw new Error(`Cannot prepare host '${host.name}' for teammate ${agentId}: ${(error as Error).message}`, {
          cause: error
        })
      }
      // a heartbeat its previous run left (killed, or the leader restarted) is not this start's
      await store.liveness.forget(team, agentName).catch(() => undefined)
      const script = remoteTeammateScript(host, { ...paths, cwd }, team, agentName, branch)
      const retry = attempt < FORWARD_TRIES
      const terminalAt = Date.now()
      const entry = this.launch(config, sshTerminalArgs(host, remote.forwards, script), retry, {
        repo,
        branch,
        dir: paths.dir,
        filesDir: paths.filesDir,
        pidFile: paths.pidFile,
        forwards: remote.forwards,
        release: release ?? (() => Promise.resolve())
      })
      const started = await this.firstBeat(entry)
      entry.starting = false
      if (started) {
        this.options.onStartPhases?.(agentId, {
          ...phases,
          terminalAt,
          terminalMs: Date.now() - terminalAt,
          tries: attempt
        })
        this.watchHeartbeat(entry)
        return { agentId, backend: 'process', pid: entry.proc.pid, exited: entry.exited }
      }
      if (entry.refusedForward) {
        this.running.delete(agentId)
        // forwards a shared connection did set up for that try stay in it otherwise
        await this.mux?.cancelForwards(host, remote.forwards)
        const ports = remote.forwards.map((f) => f.remotePort).join(', ')
        this.notice(
          entry,
          'warning',
          `Host '${host.name}' refused a remote forward (ports ${ports}); trying other ports.`
        )
        continue
      }
      entry.killReason ??= 'did not start'
      await entry.proc.kill()
      await entry.exited
      this.running.delete(agentId)
      throw new Error(
        `Teammate ${agentId} on host '${host.name}' did not start within ${this.startTimeoutMs} ms.${describeOutput(entry.output)}`
      )
    }
  }

  /**
   * Starts the teammate's ssh in a terminal of the PTY host (its stdin the terminal itself: ssh
   * reads the pane's size there) and follows it. Its end runs {@link finish}, except an end before
   * its first beat on a remote forward the host refused, when `retry`: then only `refusedForward`
   * is set, for the caller to try other ports.
   */
  private launch(
    config: Remote['config'],
    args: string[],
    retry: boolean,
    where: Pick<Remote, 'repo' | 'branch' | 'dir' | 'filesDir' | 'pidFile' | 'forwards' | 'release'>
  ): Remote {
    const { agentId, name: agentName } = config
    const output = new TailBuffer(REASON_OUTPUT_CHARS)
    let resolveExit!: (info: TeammateExitInfo) => void
    const exited = new Promise<TeammateExitInfo>((resolve) => (resolveExit = resolve))
    let entry: Remote | undefined
    let early: { exitCode: number | null; signal: number | null } | undefined
    const onExit = (exit: { exitCode: number | null; signal: number | null }): void => {
      if (!entry) early = exit
      else if (retry && entry.starting && FORWARD_REFUSED.test(output.peek())) {
        entry.alive = false
        entry.refusedForward = true
        entry.follow.close()
      } else void this.finish(entry, exit, spawnedAt).then(resolveExit)
    }
    const spawnedAt = Date.now()
    const proc = this.options.pty.spawn({
      command: `exec ssh ${args.map(shellQuote).join(' ')} </dev/tty`,
      cwd: where.repo?.top ?? process.cwd(),
      ...this.startSize(agentId),
      onData: (data) => {
        output.push(data)
        this.options.bus.emit({ type: 'terminal_output', data, agentId, agentName })
      },
      onExit
    })
    entry = {
      config,
      proc,
      follow: followTeammate(config, this.options.bus, '', 0, undefined),
      alive: true,
      starting: true,
      refusedForward: false,
      killReason: undefined,
      lost: false,
      output,
      exited,
      watch: undefined,
      ...where
    }
    this.running.set(agentId, entry)
    if (early) onExit(early)
    return entry
  }

  /** Puts a message in the teammate's inbox on the server (docs/teams.md#mailbox). @throws Error for an unknown teammate. */
  async sendMessage(agentId: string, message: OutgoingMessage): Promise<void> {
    const entry = this.running.get(agentId)
    if (!entry) throw new Error(`Teammate ${agentId} does not run on a host of this session.`)
    await entry.config.store.mailbox.send(entry.config.team, entry.config.name, message)
  }

  /** Ends its ssh (the remote terminal hangs up, ending the teammate there) and waits until it is gone. Idempotent. */
  kill(agentId: string, reason?: string): Promise<void> {
    return killTerminalTeammate(this.running.get(agentId), reason)
  }

  /** Resizes its terminal: ssh passes the new size to the remote terminal. @throws PtySizeError for a size out of bounds. */
  resize(agentId: string, cols: number, rows: number): boolean {
    return resizeTerminalTeammate(this.running.get(agentId), cols, rows)
  }

  /**
   * Interrupts its turn (Esc in its pane): SIGUSR2 to its process on the host, whose pid its start
   * noted, sent over a short ssh of its own (`swarmdesk teammate` stops its turn on it, as a local
   * one does). Returns at once; a host that cannot be reached is not told.
   * @returns true when a running teammate is being told; false for an unknown or ended one.
   */
  interrupt(agentId: string): boolean {
    const entry = this.running.get(agentId)
    if (!entry?.alive) return false
    const pidFile = shellQuote(entry.pidFile)
    void sshRun(entry.config.host, `kill -USR2 "$(cat ${pidFile})"`, '', 30_000).catch(() => undefined)
    return true
  }

  isAlive(agentId: string): boolean {
    return this.running.get(agentId)?.alive === true
  }

  /** True when this executor started `agentId` (running or ended). */
  knows(agentId: string): boolean {
    return this.running.has(agentId)
  }

  /** Kills every host teammate (each brings its branch back first where its host answers), then closes every shared connection. */
  async dispose(): Promise<void> {
    this.disposed = true
    await Promise.all([...this.running.keys()].map((id) => this.kill(id, 'the session closed')))
    await this.mux?.close()
  }

  private get startTimeoutMs(): number {
    return this.options.startTimeoutMs ?? DEFAULT_START_TIMEOUT_MS
  }

  private startSize(agentId: string): TerminalSize {
    const pane = this.options.paneSize?.(agentId)
    return pane ? { cols: pane.cols, rows: pane.rows } : { ...DEFAULT_TERMINAL_SIZE }
  }

  /** Waits for the teammate's first heartbeat on the server; false when its ssh ended or the time ran out. */
  private async firstBeat(entry: Remote): Promise<boolean> {
    const { store, team, name } = entry.config
    const until = Date.now() + this.startTimeoutMs
    while (entry.alive && Date.now() < until) {
      const alive = await store.liveness.alive(team).catch(() => new Set<string>())
      if (alive.has(name)) return true
      await new Promise((resolve) => setTimeout(resolve, 300))
    }
    return false
  }

  /** Every beat period: a teammate whose heartbeat is gone while its ssh runs is killed as lost. */
  private watchHeartbeat(entry: Remote): void {
    const { store, team, name, host } = entry.config
    let looking = false
    entry.watch = setInterval(() => {
      if (looking || !entry.alive) return
      looking = true
      store.liveness
        .alive(team)
        .then(async (alive) => {
          if (alive.has(name) || !entry.alive) return
          entry.lost = true
          entry.killReason ??= `its heartbeat stopped: host '${host.name}' or the connection to it is gone`
          await entry.proc.kill()
        })
        // the leader's own connection away for a moment: look again at the next beat
        .catch(() => undefined)
        .finally(() => (looking = false))
    }, store.liveness.beatEveryMs)
    entry.watch.unref()
  }

  /** After its ssh ended: its work brought back, its connection share given back, how it ended worked out. */
  private finish(
    entry: Remote,
    exit: { exitCode: number | null; signal: number | null },
    spawnedAt: number
  ): Promise<TeammateExitInfo> {
    return finishRemote(entry, exit, spawnedAt, {
      mux: this.mux,
      notice: (level, message) => this.notice(entry, level, message)
    })
  }

  private notice(entry: Remote, level: 'info' | 'warning', message: string): void {
    const { agentId, name: agentName } = entry.config
    this.options.bus.emit({ type: 'notice', level, message, agentId, agentName })
  }
}
