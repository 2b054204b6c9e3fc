import { execFile, spawn } from 'node:child_process'
import { createHash } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { TeammateHost } from '../../../../shared/teammateHosts'
import { SSH_ALIVE, sshOptionsOf, type RemoteForward } from './command'
import { runProgram } from './git'

/** How long a shared connection outlives its last session when nobody closes it (the leader gone), s. */
export const CONTROL_PERSIST_SECONDS = 60

/**
 * Teammates sharing one connection. sshd allows `MaxSessions` (10 by default) sessions on one
 * connection, and a teammate holds its terminal's session and, now and then, one more (a
 * preparation, a push, an Esc, its end's): a host's sixth teammate gets a second connection.
 */
export const TEAMMATES_PER_CONNECTION = 5

/** How long the shared connection's set-up may take, ms. */
const MASTER_TIMEOUT_MS = 60_000

/**
 * Longest control socket path used: a unix socket's path holds at most 104 bytes on some systems
 * (108 on Linux), and ssh binds `<path>.<16 random characters>` first.
 */
const MAX_SOCKET_PATH = 104 - 18

/** What {@link SshMultiplexer.acquire} gives a spawn. */
export interface SharedHost {
  /** The host with the options that send its ssh through the shared connection (the host itself when there is none). */
  host: TeammateHost
  /** Set when there is no shared connection: why (each ssh then connects on its own). */
  fallback?: string
  /** When this acquire opened the shared connection: its set-up (key exchange, authentication), ms. */
  connectMs?: number
  /** Gives the share back (idempotent): the last teammate's closes the connection (`ssh -O exit`). Never throws. */
  release(): Promise<void>
}

interface HostState {
  host: TeammateHost
  path: string
  users: number
  /** Settles with undefined once the master runs, or with why it does not. */
  ready: Promise<string | undefined>
  closing?: Promise<void>
}

/**
 * One ssh connection per host for every ssh a session runs there (docs/hosts.md#connections):
 * OpenSSH connection multiplexing. The first teammate on a host opens a master
 * (`ssh -M -N -f`, `ControlPersist` {@link CONTROL_PERSIST_SECONDS} s, the keep-alive of
 * {@link SSH_ALIVE}) whose control socket is `<dir>/<hash of the host's ssh options>` in a private
 * 0700 folder; every ssh to that host (preparation, git's push and fetch, the terminal `ssh -tt`
 * with its remote forwards, Esc, the end) is a client of it (`ControlMaster=no`, our `ControlPath`
 * before the setting's and the user's ssh config, which it thus overrides); at most
 * {@link TEAMMATES_PER_CONNECTION} teammates share one. The last teammate on it releasing it
 * closes it (`ssh -O exit`). A master that cannot be made (the folder, an old ssh, the
 * host refusing it) leaves that spawn on plain connections, said by `fallback`; a client whose
 * master is gone connects on its own.
 */
export class SshMultiplexer {
  private readonly hosts = new Map<string, HostState>()
  private dir: string | undefined
  private dirError: string | undefined

  /**
   * @param parent where the private folder is made (default: `$XDG_RUNTIME_DIR`, else the temp folder).
   * @param perConnection teammates sharing one connection (default {@link TEAMMATES_PER_CONNECTION}).
   */
  constructor(
    private readonly parent?: string,
    private readonly perConnection = TEAMMATES_PER_CONNECTION
  ) {}

  /**
   * Takes a share of a connection to `host` for one teammate: one with fewer than
   * {@link TEAMMATES_PER_CONNECTION} teammates, opened when none runs (a master that died, on a cut
   * network say, is opened again). Give it back with the answer's `release`. Never throws.
   */
  async acquire(host: TeammateHost): Promise<SharedHost> {
    const key = hostKey(host)
    let state: HostState | undefined
    for (let slot = 0; !state; slot++) {
      let found = this.hosts.get(`${key}#${slot}`)
      while (found?.closing) {
        await found.closing
        found = this.hosts.get(`${key}#${slot}`)
      }
      if (found && found.users >= this.perConnection) continue
      if (!found) {
        const dir = this.folder()
        if (!dir) return { host, fallback: this.dirError, release: () => Promise.resolve() }
        const path = join(dir, createHash('sha256').update(`${key}#${slot}`).digest('hex').slice(0, 16))
        found = { host, path, users: 0, ready: Promise.resolve('not opened yet') }
        this.hosts.set(`${key}#${slot}`, found)
      }
      state = found
      state.users++
      const release = this.releaser(`${key}#${slot}`, state)
      const path = state.path
      let connectMs: number | undefined
      state.ready = state.ready.then(async (failure) => {
        if (failure === undefined && (await masterRuns(host, path))) return undefined
        const began = performance.now()
        const why = await openMaster(host, path)
        if (why === undefined) connectMs = performance.now() - began
        return why
      })
      const failure = await state.ready
      if (failure !== undefined) return { host, fallback: failure, release }
      return { host: throughMaster(host, path), release, ...(connectMs !== undefined ? { connectMs } : {}) }
    }
    throw new Error('unreachable')
  }

  /** Gives one share of `state` back, once; the last one closes its connection (`ssh -O exit`). */
  private releaser(id: string, state: HostState): () => Promise<void> {
    let released = false
    return async () => {
      if (released) return
      released = true
      if (--state.users > 0) return
      state.closing = state.ready
        .then(() => closeMaster(state.host, state.path))
        .finally(() => {
          if (this.hosts.get(id) === state) this.hosts.delete(id)
        })
      await state.closing
    }
  }

  /**
   * Cancels a teammate's remote forwards in its host's connection: forwards a client asks of a
   * master stay there after the client ends. `shared` is the host {@link acquire} gave. Never throws.
   */
  async cancelForwards(shared: TeammateHost, forwards: readonly RemoteForward[]): Promise<void> {
    const path = controlPathOf(shared)
    if (!path || !forwards.length) return
    const args = forwards.flatMap((f) => ['-R', `127.0.0.1:${f.remotePort}:${f.target}`])
    await runProgram('ssh', [...controlArgs(path), '-O', 'cancel', ...args, '--', shared.destination], {
      timeoutMs: 15_000
    }).catch(() => undefined)
  }

  /** Closes every connection still open and removes the folder (the session's end). */
  async close(): Promise<void> {
    await Promise.all(
      [...this.hosts.values()].map(async (state) => {
        if (state.closing) return state.closing
        await state.ready.catch(() => undefined)
        await closeMaster(state.host, state.path)
      })
    )
    this.hosts.clear()
    if (this.dir) rmSync(this.dir, { recursive: true, force: true })
    this.dir = undefined
  }

  private folder(): string | undefined {
    if (this.dir) return this.dir
    const parents = this.parent ? [this.parent] : [process.env.XDG_RUNTIME_DIR, tmpdir(), '/tmp']
    const reasons: string[] = []
    for (const parent of parents) {
      if (!parent) continue
      try {
        const dir = mkdtempSync(join(parent, 'swarmdesk-ssh-')) // 0700
        if (dir.length + 17 <= MAX_SOCKET_PATH) return (this.dir = dir)
        rmSync(dir, { recursive: true, force: true })
        reasons.push(`${dir} is too long a path for a socket`)
      } catch (error) {
        reasons.push(`cannot make a private folder in ${parent}: ${(error as NodeJS.ErrnoException).code ?? error}`)
      }
    }
    this.dirError = reasons.join('; ') || 'no folder for the control socket'
    return undefined
  }
}

/** What identifies a connection: the destination and every option that reaches it. */
function hostKey(host: TeammateHost): string {
  const own = controlPathOf(host) ? { ...host, sshOptions: host.sshOptions?.slice(2) } : host
  return JSON.stringify([own.destination, sshOptionsOf(own)])
}

function controlArgs(path: string): string[] {
  return ['-o', `ControlPath=${path}`]
}

/** The host whose ssh goes through the master at `path`: our options first, so they win (ssh keeps an option's first value). */
function throughMaster(host: TeammateHost, path: string): TeammateHost {
  return { ...host, sshOptions: ['ControlMaster=no', `ControlPath=${path}`, ...(host.sshOptions ?? [])] }
}

/** The control socket a host from {@link throughMaster} names, if any. */
function controlPathOf(host: TeammateHost): string | undefined {
  const option = host.sshOptions?.[1]
  return host.sshOptions?.[0] === 'ControlMaster=no' && option?.startsWith('ControlPath=')
    ? option.slice('ControlPath='.length)
    : undefined
}

async function masterRuns(host: TeammateHost, path: string): Promise<boolean> {
  return runProgram('ssh', [...controlArgs(path), '-O', 'check', '--', host.destination], { timeoutMs: 15_000 }).then(
    () => true,
    () => false
  )
}

/**
 * Opens the master: `ssh -M -N -f` returns once it is authenticated and in the background.
 * Waits for its exit only (the background master may hold its stderr). Resolves with why it
 * failed, or undefined.
 */
function openMaster(host: TeammateHost, path: string): Promise<string | undefined> {
  const args = [
    '-M',
    '-N',
    '-f',
    '-o',
    'ControlMaster=yes',
    ...controlArgs(path),
    '-o',
    `ControlPersist=${CONTROL_PERSIST_SECONDS}`,
    '-o',
    `ServerAliveInterval=${SSH_ALIVE.intervalSeconds}`,
    '-o',
    `ServerAliveCountMax=${SSH_ALIVE.countMax}`,
    '-o',
    'ConnectTimeout=15',
    ...sshOptionsOf(host),
    '--',
    host.destination
  ]
  return new Promise((resolve) => {
    let stderr = ''
    const child = spawn('ssh', args, { stdio: ['ignore', 'ignore', 'pipe'] })
    const timer = setTimeout(() => child.kill('SIGKILL'), MASTER_TIMEOUT_MS)
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')))
    child.on('error', (error) => {
      clearTimeout(timer)
      resolve(`ssh cannot run: ${error.message}`)
    })
    child.on('exit', (code, signal) => {
      clearTimeout(timer)
      child.stderr.destroy()
      resolve(code === 0 ? undefined : `ssh -M failed (${signal ?? code}): ${stderr.trim().slice(0, 500)}`)
    })
  })
}

/** Asks the master to exit and waits (up to 10 s) until its process is gone. */
async function closeMaster(host: TeammateHost, path: string): Promise<void> {
  const ssh = (op: string): Promise<string> =>
    runProgram('ssh', [...controlArgs(path), '-O', op, '--', host.destination], { timeoutMs: 15_000 })
  // `-O check` answers on stderr: "Master running (pid=N)"
  const pid = await new Promise<number | undefined>((resolve) => {
    execFile('ssh', [...controlArgs(path), '-O', 'check', '--', host.destination], (_error, _out, err) =>
      resolve(Number(/pid=(\d+)/.exec(String(err))?.[1]) || undefined)
    )
  })
  if (pid === undefined) return
  await ssh('exit').catch(() => undefined)
  const until = Date.now() + 10_000
  while (Date.now() < until && running(pid)) await new Promise((r) => setTimeout(r, 50))
}

function running(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}
