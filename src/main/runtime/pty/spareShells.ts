import { randomUUID } from 'node:crypto'
import { statSync } from 'node:fs'
import * as nodePty from 'node-pty'
import { DEFAULT_TERMINAL_SIZE } from '../../../shared/terminalSize'
import { killProcessTree, lastPid, listTreeFromChildren, readProcEntry } from '../processes'
import { encodeForSpare, readyMarker, spareBashArgs } from './completionMarker'

/**
 * How long after a command ended (or a session opened) the next spare shell starts, ms. node-pty
 * forks the whole Node process to start a terminal, which holds the event loop for a few ms (more
 * on a loaded machine); started at once, it would delay the very model request it is meant to save
 * time for. By then that request has usually gone out (the part of the gap after a tool's result
 * was 10-30 ms at load 8-14 on 2 cores) and the model is answering, which takes far longer. A call
 * that comes while the spare is still starting takes it anyway. (Waiting instead for the event loop
 * to be idle failed under load: it was busy in most 10 ms windows, and the spare was missing at the
 * next call; 100 ms left it missing at the scripted benchmark's quick calls.)
 */
export const SPARE_DELAY_MS = 50

/** Most spare shells kept at once (one per working directory); the least recently prepared goes first. */
export const MAX_SPARES = 4

/**
 * Longest encoded command ({@link encodeForSpare}) a spare takes, in characters: the shell reads
 * what is typed one byte per system call, and the terminal's input buffer holds 4 KiB. A longer
 * command starts a terminal of its own, with the command as an argument.
 */
export const MAX_SPARE_COMMAND_CHARS = 4000

/** The tag of a PTY's processes (see `PTY_TAG_VARIABLE`), with its root's start time. */
export interface PtyTag {
  name: string
  value: string
  startedAt?: number
}

/**
 * A spare shell handed to one command: type `typed` into `term` once its listeners are attached,
 * or, when it was still starting (`ready` false), once its ready marker arrives; `seen` is what it
 * printed before it was taken, to be read ahead of its further output.
 */
export interface TakenSpare {
  term: nodePty.IPty
  ready: boolean
  seen: string
  /** Its processes when it became ready (the wrapper and its waiting shell), all started before the command. */
  members: number[]
  /** The completion marker's token the shell prints its status with. */
  token: string
  tag: PtyTag
  typed: string
}

interface Spare {
  term: nodePty.IPty
  token: string
  tag: PtyTag
  /** The environment it was started with, as a comparable string. */
  envKey: string
  /** Its working directory's identity when it started (a folder removed and made again is another). */
  dir: { dev: number; ino: number }
  cols: number
  rows: number
  pidsAfter: number | undefined
  ready: boolean
  /** Output before the ready marker was complete. */
  seen(): string
  members: number[]
  stop(): void
}

/** Options of {@link createSpareShells}: the tag variable's name and what makes a terminal's environment. */
export interface SpareShellsOptions {
  tagVariable: string
}

/**
 * Spare shells of one PTY host (docs/tools.md#tools, Bash): for a working directory where a command
 * ran (or a session asked for one), a new terminal whose shell already waits, in that folder with
 * the environment commands get, for one command typed into it. A command takes it (it then is that
 * command's terminal, used once and killed with its process group like any other), and a new spare
 * starts {@link SPARE_DELAY_MS} after the command ended. So each command still gets a fresh shell,
 * in its own session and process group, but the terminal and the shell were started while the
 * model was answering. A spare whose folder or environment no longer match, that exited, or that
 * printed anything but its ready marker is never used; `dispose` kills every spare and cancels
 * those about to start. A spare dies with the host's process too: the terminal hangs up and bash
 * exits on SIGHUP, without running anything.
 */
export function createSpareShells(options: SpareShellsOptions) {
  const spares = new Map<string, Spare>()
  const timers = new Map<string, NodeJS.Timeout>()
  let disposed = false

  const kill = (spare: Spare): Promise<unknown> => {
    spare.stop()
    return killProcessTree(spare.term.pid, { envTag: spare.tag, pidsAfter: spare.pidsAfter })
  }
  const discard = (cwd: string, spare: Spare): void => {
    if (spares.get(cwd) === spare) spares.delete(cwd)
    void kill(spare)
  }

  function launch(cwd: string, env: Record<string, string>, envKey: string): void {
    if (disposed || spares.has(cwd)) return
    let dir: { dev: number; ino: number }
    try {
      const stat = statSync(cwd)
      if (!stat.isDirectory()) return
      dir = { dev: stat.dev, ino: stat.ino }
    } catch {
      return // the folder is gone: the next command fails there on its own terms
    }
    for (const [oldest, spare] of spares) {
      if (spares.size < MAX_SPARES) break
      discard(oldest, spare)
    }
    const token = randomUUID()
    const ready = readyMarker(token)
    const tagValue = randomUUID()
    const pidsAfter = lastPid()
    let term: nodePty.IPty
    try {
      term = nodePty.spawn('bash', spareBashArgs(token, ready), {
        name: 'xterm-256color',
        ...DEFAULT_TERMINAL_SIZE,
        cwd,
        env: { ...env, [options.tagVariable]: tagValue },
        encoding: 'utf8'
      })
    } catch {
      return // no terminal now: commands start their own
    }
    let seen = ''
    const spare: Spare = {
      term,
      token,
      tag: { name: options.tagVariable, value: tagValue, startedAt: readProcEntry(term.pid)?.startTime },
      envKey,
      dir,
      ...DEFAULT_TERMINAL_SIZE,
      pidsAfter,
      ready: false,
      seen: () => seen,
      members: [],
      stop: () => {
        data.dispose()
        exit.dispose()
      }
    }
    const data = term.onData((chunk) => {
      seen += chunk
      if (!spare.ready && seen === ready) {
        spare.ready = true
        // the waiting shell printed the marker, so it is there; the sweep of its command reads these too
        spare.members = listTreeFromChildren(term.pid) ?? [term.pid]
      } else if (!ready.startsWith(seen)) discard(cwd, spare) // anything but its ready marker: not a clean shell
    })
    const exit = term.onExit(() => discard(cwd, spare))
    spares.set(cwd, spare)
  }

  return {
    /**
     * Starts a spare for `cwd` after {@link SPARE_DELAY_MS}, unless one is there or on its way.
     * `env` is the whole environment commands there get, without the tag.
     */
    prepare(cwd: string, env: Record<string, string>): void {
      if (disposed || spares.has(cwd) || timers.has(cwd)) return
      const envKey = JSON.stringify(env)
      const timer = setTimeout(() => {
        timers.delete(cwd)
        launch(cwd, env, envKey)
      }, SPARE_DELAY_MS)
      timer.unref()
      timers.set(cwd, timer)
    },

    /**
     * The spare of `cwd` for `command`, ready or still starting (it is ready within a few ms then,
     * sooner than a new terminal would be), taken out of the pool (its listeners removed), or
     * undefined: none started, another environment, its folder replaced, or a command too long to
     * type. A spare that cannot serve this command is killed (the next `prepare` starts a fitting
     * one). The terminal is resized to `cols` × `rows` when it has another size.
     */
    take(
      cwd: string,
      env: Record<string, string>,
      command: string,
      size: { cols: number; rows: number }
    ): TakenSpare | undefined {
      const spare = spares.get(cwd)
      if (!spare) return undefined
      const typed = encodeForSpare(command)
      if (typed.length > MAX_SPARE_COMMAND_CHARS) return undefined
      let sameDir = false
      try {
        const stat = statSync(cwd)
        sameDir = stat.dev === spare.dir.dev && stat.ino === spare.dir.ino
      } catch {
        // gone: the spare's folder is not this one any more
      }
      if (!sameDir || spare.envKey !== JSON.stringify(env)) {
        discard(cwd, spare)
        return undefined
      }
      spares.delete(cwd)
      spare.stop()
      try {
        if (spare.cols !== size.cols || spare.rows !== size.rows) spare.term.resize(size.cols, size.rows)
      } catch {
        void kill(spare) // it ended; its exit had not been reported yet
        return undefined
      }
      return {
        term: spare.term,
        ready: spare.ready,
        seen: spare.ready ? '' : spare.seen(),
        members: spare.members,
        token: spare.token,
        tag: spare.tag,
        typed
      }
    },

    /** Pids of the spares ready for a command, and with `starting` of those still starting too. */
    pids: (starting = false): number[] =>
      [...spares.values()].filter((s) => starting || s.ready).map((s) => s.term.pid),

    /** Cancels the spares about to start and kills every spare; none starts afterwards. */
    async dispose(): Promise<void> {
      disposed = true
      for (const timer of timers.values()) clearTimeout(timer)
      timers.clear()
      const all = [...spares.values()]
      spares.clear()
      await Promise.all(all.map(kill))
    }
  }
}

/** The spare shells of one PTY host (see {@link createSpareShells}). */
export type SpareShells = ReturnType<typeof createSpareShells>
