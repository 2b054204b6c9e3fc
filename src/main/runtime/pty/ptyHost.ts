import {
  type InteractivePty,
  type PtyHost,
  type PtyOpenOptions,
  type PtyProcess,
  type PtyRunOptions,
  type PtyRunResult,
  type PtySpawnOptions
} from './types'
import { randomUUID } from 'node:crypto'
import * as nodePty from 'node-pty'
import { DEFAULT_TERMINAL_SIZE, terminalSizeProblem } from '../../../shared/terminalSize'

import { CompletionMarker, SPARE_DELIMITER, wrappedBashArgs } from './completionMarker'
import {
  killProcessTree,
  type KillTreeResult,
  isProcessAlive,
  lastPid,
  listTreeFromChildren,
  readProcEntry
} from '../processes'
import { createSpareShells } from './spareShells'
import { commandEnv } from './commandEnv'
import { PtyHostDisposedError, PtySizeError, type ExitInfo, type LivePty, type PtyFlowControl } from './liveTerminal'

export { PtyHostDisposedError, PtySizeError, type PtyFlowControl } from './liveTerminal'

export { FIXED_PTY_ENV, WITHHELD_ENV } from './commandEnv'
import { HeadTailBuffer } from './outputBuffers'

/**
 * Variable set to a fresh value for every PTY command; descendants inherit it, which lets the
 * host find processes that left the group and were re-parented (see `killProcessTree`).
 */
export const PTY_TAG_VARIABLE = 'SWARMDESK_PTY_TAG'

/** Raw output a foreground run keeps for its result: 1 MiB head + 1 MiB tail (UTF-16 units). */
export const RUN_OUTPUT_HEAD_CHARS = 1 << 20
export const RUN_OUTPUT_TAIL_CHARS = 1 << 20

/** Longest delay `setTimeout` honours (a larger one fires at once). */
const MAX_TIMER_MS = 2 ** 31 - 1

/** A command (through the bash wrapper, stdin closed) or, with `program`, a program started as is with the terminal as its stdin. */
type StartOptions = Pick<PtySpawnOptions, 'command' | 'cwd' | 'env' | 'onData' | 'cols' | 'rows'> & {
  program?: { file: string; args: string[]; env: Record<string, string> }
}

/** Options of {@link createPtyHost}. */
export interface PtyHostOptions {
  /** Added to every terminal's environment. */
  env?: Readonly<Record<string, string>>
  /** Keep spare shells for the next command (default true); off, every command starts its own terminal. */
  spares?: boolean
}

/**
 * Creates the process-wide PTY host over node-pty (docs/design.md#process-model). Must run on the main thread, never
 * in a worker (STACK.md). Each command runs in a new terminal with a new, rc-less bash
 * (`--noprofile --norc`, so nothing carries state between calls), evaluated in a subshell of it
 * (see `completionMarker.ts` for the wrapper that guarantees the last output arrives), cwd pinned,
 * env = process env + `FIXED_PTY_ENV` + `options.env`. That terminal is usually a spare
 * started after the previous command in the same folder (`spareShells.ts`): its shell already
 * waits there, and takes this one command. When a command ends, times out or is aborted, its whole
 * process group and every process it started are SIGKILLed and verified gone before the call
 * settles. Only Linux finds escapees (it reads /proc: the pids handed out since the command
 * started); elsewhere the group kill still applies.
 * `options.env` is added to every command's environment (the workspace puts its run tag there, so
 * a later start can find what a crashed run left behind: workspace/restore/orphans.ts).
 */
export function createPtyHost(options: PtyHostOptions = {}): PtyHost &
  PtyFlowControl &
  Required<Pick<PtyHost, 'open' | 'prewarm'>> & {
    /**
     * Pids of the spare shells ready for a command, with `starting` also of those still starting
     * (none is in `livePids` until a command takes it).
     */
    sparePids(starting?: boolean): number[]
  } {
  const hostEnv = options.env ?? {}
  const useSpares = options.spares ?? true
  const live = new Map<number, LivePty>()
  const spares = createSpareShells({ tagVariable: PTY_TAG_VARIABLE })
  let disposed = false
  let delivering: number | undefined
  /** Runs a data callback with `delivering` set to the PTY it belongs to. */
  const deliver = (pid: number, fn: () => void): void => {
    const outer = delivering
    delivering = pid
    try {
      fn()
    } finally {
      delivering = outer
    }
  }

  function start(options: StartOptions): LivePty {
    if (disposed) throw new PtyHostDisposedError()
    const sizeProblem =
      options.cols === undefined && options.rows === undefined
        ? undefined
        : terminalSizeProblem(options.cols ?? DEFAULT_TERMINAL_SIZE.cols, options.rows ?? DEFAULT_TERMINAL_SIZE.rows)
    if (sizeProblem) throw new PtySizeError(sizeProblem)
    const size = { cols: options.cols ?? DEFAULT_TERMINAL_SIZE.cols, rows: options.rows ?? DEFAULT_TERMINAL_SIZE.rows }
    // a program gets exactly the environment it was given (and the tag), not the agents' fixed one
    const program = options.program
    const env = program ? undefined : commandEnv({ ...hostEnv, ...options.env })
    let spare = env && useSpares ? spares.take(options.cwd, env, options.command, size) : undefined
    // every process of this command gets a pid after this read (a spare's shell has started none
    // yet; the read is made again when the command is typed into it)
    let pidsAfter = lastPid()
    let envTag = spare?.tag ?? { name: PTY_TAG_VARIABLE, value: randomUUID() }
    let marker = new CompletionMarker(spare?.token ?? randomUUID())
    /** A new terminal for the command (or the program), tagged with `envTag`, reporting with `marker`. */
    const open = (): nodePty.IPty =>
      program
        ? nodePty.spawn(program.file, program.args, {
            name: 'xterm-256color',
            ...size,
            cwd: options.cwd,
            env: { ...program.env, ...hostEnv, [envTag.name]: envTag.value },
            encoding: 'utf8'
          })
        : nodePty.spawn('bash', wrappedBashArgs(options.command, marker.token), {
            name: 'xterm-256color',
            ...size,
            cwd: options.cwd,
            env: { ...env, [envTag.name]: envTag.value },
            encoding: 'utf8'
          })
    let term = spare?.term ?? open()
    let tag = spare ? spare.tag : { ...envTag, startedAt: readProcEntry(term.pid)?.startTime }
    let reaped = false
    let sweeping: Promise<KillTreeResult> | undefined
    // A sweep repeats until a fresh snapshot finds nothing, so one in flight covers a later request.
    let startedBefore = spare ? [...spare.members] : undefined
    const sweep = () => (sweeping ??= killProcessTree(term.pid, { envTag: tag, pidsAfter, startedBefore }))
    /** The command was typed into the spare (it may have run since), or there is no spare. */
    let typed = !spare
    /** Types the command into the spare, whose shell now waits for it (its processes are all there). */
    const type = (): void => {
      if (!spare) return
      if (!spare.ready) startedBefore!.push(...(listTreeFromChildren(term.pid) ?? [term.pid]))
      pidsAfter = lastPid()
      typed = true
      term.write(spare.typed + SPARE_DELIMITER)
    }
    // Once reaped, the pid (and so the group id) may belong to someone else: never signal it again.
    let paused = false
    const resume = (): void => {
      if (!paused) return
      paused = false
      term.resume()
    }
    let killed = false
    const kill = () => {
      killed = true
      resume()
      return reaped ? Promise.resolve({ killed: [], survivors: [] }) : sweep()
    }
    // `done` settles once: after the marker and the sweep, or after node-pty's exit, whichever is first
    let settle!: (exit: ExitInfo) => void
    const done = new Promise<ExitInfo>((resolve) => {
      let settled = false
      settle = (exit) => {
        if (settled) return
        settled = true
        live.delete(term.pid)
        resolve(exit)
      }
    })
    const onChunk = (chunk: string): void => {
      if (entry.exited) return // after the marker: only leftovers of background jobs, which die now
      const { text, exitCode, ready } = marker.push(chunk)
      if (ready) type()
      if (text && options.onData) deliver(term.pid, () => options.onData!(text))
      if (exitCode !== undefined) {
        entry.exited = true
        // The marker carries the status and everything printed before it has arrived, so the run
        // is over once its tree is swept; node-pty's exit event comes only after the terminal's
        // socket is closed (a few ms more of a loaded machine), and the run need not wait for it.
        void kill().then(() => settle({ exitCode, signal: null }))
      }
    }
    /**
     * A spare shell that ended before the command was typed into it never ran it: its tree is
     * swept, then the command runs in a new terminal of its own (unless it was killed meanwhile),
     * which becomes this entry's terminal (docs/tools.md#tools, Bash).
     */
    const replaceDeadSpare = (): void => {
      void sweep().then(() => {
        if (killed || disposed) {
          reaped = true
          settle({ exitCode: null, signal: null })
          return
        }
        live.delete(term.pid)
        spare = undefined
        typed = true
        sweeping = undefined
        startedBefore = undefined
        envTag = { name: PTY_TAG_VARIABLE, value: randomUUID() }
        marker = new CompletionMarker(randomUUID())
        pidsAfter = lastPid()
        try {
          term = open()
        } catch (error) {
          reaped = true
          const reason = `The command's terminal could not be started: ${(error as Error)?.message ?? String(error)}\r\n`
          if (options.onData) deliver(term.pid, () => options.onData!(reason))
          settle({ exitCode: null, signal: null })
          return
        }
        tag = { ...envTag, startedAt: readProcEntry(term.pid)?.startTime }
        paused = false
        entry.pid = term.pid
        live.set(term.pid, entry)
        listen()
      })
    }
    const listen = (): void => {
      const dataSub = term.onData(onChunk)
      const exitSub = term.onExit(({ exitCode, signal }) => {
        exitSub.dispose()
        dataSub.dispose()
        if (!typed) {
          replaceDeadSpare()
          return
        }
        entry.exited = true
        resume()
        const held = marker.flush()
        if (held && options.onData) deliver(term.pid, () => options.onData!(held))
        // Background jobs (`sleep 300 &`) outlive bash; the group dies with the command.
        void sweep().then(() => {
          reaped = true
          if (marker.status !== undefined) settle({ exitCode: marker.status, signal: null })
          else settle(signal ? { exitCode: null, signal } : { exitCode, signal: null })
        })
      })
    }
    const entry: LivePty = {
      pid: term.pid,
      exited: false,
      kill,
      pause: () => {
        if (entry.exited || reaped) return false
        if (!paused) term.pause()
        paused = true
        return true
      },
      resume,
      resize: (cols, rows) => {
        const problem = terminalSizeProblem(cols, rows)
        if (problem) throw new PtySizeError(problem)
        // after the exit node-pty's fd is closed (it would throw); nobody is left to tell
        if (entry.exited || reaped) return
        size.cols = cols
        size.rows = rows
        try {
          term.resize(cols, rows)
        } catch (error) {
          // the program ended between our check and the ioctl: its exit is on its way
          if (!entry.exited && !reaped && isProcessAlive(term.pid)) throw error
        }
      },
      write: (data) => {
        if (!entry.exited && !reaped) term.write(data)
      },
      done
    }
    listen()
    live.set(term.pid, entry)
    // a ready spare's shell waits for this: typed only now, so no output comes before the listeners;
    // one still starting gets it on its ready marker, after what it printed before it was taken
    if (spare?.ready) type()
    else if (spare) onChunk(spare.seen)
    return entry
  }

  async function run(options: PtyRunOptions): Promise<PtyRunResult> {
    if (disposed) throw new PtyHostDisposedError()
    if (options.signal?.aborted) {
      return { pid: 0, exitCode: null, signal: null, output: '', timedOut: false, aborted: true }
    }
    const output = new HeadTailBuffer(RUN_OUTPUT_HEAD_CHARS, RUN_OUTPUT_TAIL_CHARS)
    const onData = options.onData
    const proc = start({
      ...options,
      onData: (data) => {
        output.push(data)
        onData?.(data)
      }
    })
    let timedOut = false
    let aborted = false
    let killing: Promise<unknown> | undefined
    const timer = setTimeout(
      () => {
        if (proc.exited) return
        timedOut = true
        killing ??= proc.kill()
      },
      Math.min(options.timeoutMs, MAX_TIMER_MS)
    )
    const onAbort = () => {
      if (proc.exited || timedOut) return
      aborted = true
      killing ??= proc.kill()
    }
    options.signal?.addEventListener('abort', onAbort, { once: true })
    try {
      const exit = await proc.done
      await killing
      // the next command here will likely want a shell too: have one waiting by then
      if (!disposed && useSpares) spares.prepare(options.cwd, commandEnv({ ...hostEnv, ...options.env }))
      return { pid: proc.pid, ...exit, output: output.toString(), omittedChars: output.omittedChars, timedOut, aborted }
    } finally {
      clearTimeout(timer)
      options.signal?.removeEventListener('abort', onAbort)
    }
  }

  function spawn(options: PtySpawnOptions): PtyProcess {
    const proc = start(options)
    void proc.done.then((exit) => options.onExit?.(exit))
    return {
      // a spare that died before its command ran hands over to a new terminal: read it when needed
      get pid() {
        return proc.pid
      },
      kill: async () => {
        await proc.kill()
        await proc.done
      },
      resize: (cols, rows) => proc.resize(cols, rows)
    }
  }

  function open(options: PtyOpenOptions): InteractivePty {
    const proc = start({
      command: options.file,
      cwd: options.cwd,
      onData: options.onData,
      cols: options.cols,
      rows: options.rows,
      program: { file: options.file, args: options.args, env: options.env }
    })
    void proc.done.then((exit) => options.onExit?.(exit))
    return {
      pid: proc.pid,
      write: (data) => proc.write(data),
      resize: (cols, rows) => proc.resize(cols, rows),
      kill: async () => {
        await proc.kill()
        await proc.done
      }
    }
  }

  return {
    run,
    spawn,
    open,
    livePids: () => [...live.keys()],
    sparePids: (starting) => spares.pids(starting),
    deliveringPid: () => delivering,
    pause: (pid) => live.get(pid)?.pause() ?? false,
    resume: (pid) => live.get(pid)?.resume(),
    prewarm: ({ cwd, env }) => {
      if (!disposed && useSpares) spares.prepare(cwd, commandEnv({ ...hostEnv, ...env }))
    },
    async dispose() {
      disposed = true
      await spares.dispose()
      await Promise.all(
        [...live.values()].map(async (proc) => {
          await proc.kill()
          await proc.done
        })
      )
    }
  }
}
