import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, statSync } from 'node:fs'
import path from 'node:path'
import type { SandboxSettings } from '../permissions'
import { gitMounts } from './gitMounts'

/**
 * The Bash sandbox on Linux (docs/permissions.md#the-bash-sandbox): Swarmdesk calls Debian's
 * `bwrap` itself rather than `@anthropic-ai/sandbox-runtime`, which would bring ripgrep and its
 * own policy model; the policy, prompts and routing stay Swarmdesk's, and a command is wrapped as
 * one string so it crosses a worker's PTY bridge unchanged.
 */

/** Where one agent's commands may write, and what they may not read. Paths absolute. */
export interface SandboxScope {
  /** The agent's root: the workspace, or its worktree when isolated. */
  root: string
  /** The session's temp folder; TMPDIR points there. */
  tmpDir: string
  settings: SandboxSettings
  /** Extra writable directories (`Edit(...)` allow rules of trusted sources). */
  extraWritable?: string[]
  /**
   * The agent's network proxy socket (docs/sandbox.md#network); absent = no network at all. Used
   * only when socat is installed ({@link forwarderAvailable}), which carries it into the sandbox.
   */
  proxySocket?: string
}

/** The port the forwarder listens on inside the sandbox's own network namespace (loopback only). */
export const SANDBOX_PROXY_PORT = 3128

/**
 * Whether socat, the forwarder that carries the sandbox's loopback port to the proxy's unix
 * socket, is installed (on `searchPath`, default `PATH`); cached per search path. Without it a
 * sandboxed command has no network at all.
 */
export function forwarderAvailable(searchPath = process.env.PATH ?? ''): boolean {
  const known = forwarder.get(searchPath)
  if (known !== undefined) return known
  const probe = spawnSync('socat', ['-V'], { timeout: 10_000, env: { ...process.env, PATH: searchPath } })
  const found = !probe.error && probe.status === 0
  forwarder.set(searchPath, found)
  return found
}
const forwarder = new Map<string, boolean>()

/**
 * Whether bwrap can start here (docs/sandbox.md#where-the-sandbox-cannot-start): one probe run of
 * `bwrap` found on `searchPath` (default `PATH`), cached per search path for the process;
 * `problem` says what is missing — bwrap itself, or the user namespaces it needs — and how to fix it.
 */
export function sandboxAvailability(searchPath = process.env.PATH ?? ''): SandboxAvailability {
  const known = availability.get(searchPath)
  if (known) return known
  const probe = spawnSync('bwrap', ['--ro-bind', '/', '/', '--dev', '/dev', '--unshare-net', '--unshare-pid', 'true'], {
    encoding: 'utf8',
    timeout: 10_000,
    env: { ...process.env, PATH: searchPath }
  })
  let found: SandboxAvailability
  if (probe.error)
    found = {
      ok: false,
      cause: 'missing',
      problem: `bubblewrap (bwrap) is not installed (${(probe.error as NodeJS.ErrnoException).code}); install it, e.g. apt-get install bubblewrap`
    }
  else if (probe.status !== 0)
    found = {
      ok: false,
      cause: 'cannot-start',
      problem: `bubblewrap cannot start here (${probe.stderr.trim() || `exit ${probe.status}`}); user namespaces may be disabled (sysctl kernel.unprivileged_userns_clone=1, or an AppArmor profile for bwrap)`
    }
  else found = { ok: true }
  availability.set(searchPath, found)
  return found
}
const availability = new Map<string, SandboxAvailability>()

/**
 * What {@link sandboxAvailability} found: `ok`, or the `cause` — bwrap is `missing`, or it
 * `cannot-start` (user namespaces disabled, most often) — and the `problem` in words with its fix.
 */
export interface SandboxAvailability {
  ok: boolean
  cause?: 'missing' | 'cannot-start'
  problem?: string
}

/** `'x'` for the shell, single quotes escaped. */
const q = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`

/**
 * `command` wrapped to run under bwrap: the whole file system read-only, the root, the temp folder
 * and extra writable paths read-write, `denyWrite` read-only again over them, `denyRead`
 * directories hidden behind an empty tmpfs (files behind /dev/null), no network or PID namespace
 * shared (every process the command starts ends with it).
 * The root's settings folders stay read-only (see {@link protectedInRoot}); of the repository's git
 * metadata, what git writes is writable and what it runs code from is not ({@link gitMounts}).
 * Children inherit the confinement. TMPDIR is set to the temp folder. With a `proxySocket` (and
 * socat), a socat inside the sandbox listens on `127.0.0.1:3128` of its private loopback and
 * forwards each connection to that unix socket; `HTTP_PROXY`, `HTTPS_PROXY`, `ALL_PROXY` (and
 * their lower-case forms) point there, `NO_PROXY` keeps loopback direct. The command starts once
 * the forwarder listens, and the forwarder is stopped when the command ends.
 */
export function sandboxedCommand(command: string, scope: SandboxScope): string {
  const fs = scope.settings.filesystem
  const args = ['bwrap', '--ro-bind', '/', '/', '--dev-bind', '/dev', '/dev', '--proc', '/proc']
  const git = gitMounts(scope.root)
  // `-try`: a path removed between this check and bwrap's start (a worktree another agent's end
  // removes) is skipped rather than failing the command
  for (const dir of [scope.root, scope.tmpDir, ...fs.allowWrite, ...(scope.extraWritable ?? []), ...git.writable])
    if (existsSync(dir)) args.push('--bind-try', dir, dir)
  for (const p of [...fs.denyWrite, ...protectedInRoot(scope.root), ...git.readOnly])
    if (existsSync(p)) args.push('--ro-bind-try', p, p)
  for (const p of fs.denyRead)
    if (existsSync(p)) args.push(...(statSync(p).isDirectory() ? ['--tmpfs', p] : ['--ro-bind', '/dev/null', p]))
  // its own PID namespace: whatever the command starts ends with it, even a daemon (setsid), so
  // nothing writes after the command's end, when its git files are checked (gitGuard.ts)
  args.push('--unshare-net', '--unshare-pid', '--die-with-parent', '--setenv', 'TMPDIR', scope.tmpDir)
  const shell = ['bash', '--noprofile', '--norc', '-c']
  if (scope.proxySocket && forwarderAvailable()) {
    const proxy = `http://127.0.0.1:${SANDBOX_PROXY_PORT}`
    for (const name of ['HTTP_PROXY', 'HTTPS_PROXY', 'ALL_PROXY']) args.push('--setenv', name, proxy)
    for (const name of ['http_proxy', 'https_proxy', 'all_proxy']) args.push('--setenv', name, proxy)
    for (const name of ['NO_PROXY', 'no_proxy']) args.push('--setenv', name, 'localhost,127.0.0.1,::1')
    args.push('--chdir', scope.root, '--', ...shell, withForwarder(scope.proxySocket), 'bash', command)
  } else args.push('--chdir', scope.root, '--', ...shell, command)
  return args.map(q).join(' ')
}

/**
 * The script run inside the sandbox before the command (`$1`): socat forwards the private
 * loopback port to the proxy's socket; the script waits (at most 3 s) until the port is listed as
 * listening in /proc/net/tcp, runs the command in a subshell (no positional parameters, `$0`
 * `bash`, as `bash -c` would) and stops socat when it ends, keeping the command's exit status. The wait uses bash builtins only (`read`, `EPOCHREALTIME`): a
 * process per poll (grep, sleep) cost more than socat's own start on a busy machine.
 */
function withForwarder(socket: string): string {
  const hexPort = SANDBOX_PROXY_PORT.toString(16).toUpperCase().padStart(4, '0')
  return [
    `socat TCP-LISTEN:${SANDBOX_PROXY_PORT},bind=127.0.0.1,fork,reuseaddr UNIX-CONNECT:${q(socket)} </dev/null >/dev/null 2>&1 &`,
    `__sbx_fwd=$!`,
    `trap 'kill $__sbx_fwd 2>/dev/null' EXIT`,
    `__sbx_up() { local l; while IFS= read -r l; do [[ $l == *' 0100007F:${hexPort} 00000000:0000 0A'* ]] && return 0; done </proc/net/tcp; return 1; }`,
    `__sbx_end=$(( \${EPOCHREALTIME//[!0-9]/} + 3000000 ))`,
    `until __sbx_up || (( \${EPOCHREALTIME//[!0-9]/} > __sbx_end )); do :; done`,
    `unset -f __sbx_up; unset __sbx_end`,
    // a subshell, not a second bash: the trap above stays the parent's, and no exec is paid for
    `(__sbx_cmd=$1; set --; unset __sbx_fwd; eval "$__sbx_cmd")`
  ].join('\n')
}

/** Whether `command` is one of `excludedCommands` (its first word, or a prefix of whole words). */
export function isExcludedCommand(command: string, excluded: string[]): boolean {
  const words = command.trim().split(/\s+/)
  return excluded.some((e) => {
    const want = e.replace(/:?\*$/, '').trim().split(/\s+/)
    return want.length > 0 && want.every((w, i) => words[i] === w)
  })
}

/** Paths the sandbox stopped writing, read from the output's `Read-only file system` errors. */
export function blockedWrites(output: string): string[] {
  const found = new Set<string>()
  for (const line of output.split(/\r?\n/)) {
    if (!/Read-only file system/.test(line)) continue
    const m = line.match(/'([^']+)'/) ?? line.match(/(\/[^\s:]+)/)
    if (m?.[1]) found.add(m[1])
  }
  return [...found]
}

/**
 * What a sandboxed command may not write inside its own root, though the root is writable
 * (docs/sandbox.md#what-is-confined): `.swarmdesk/` and `.claude/` (settings, agent definitions:
 * a command that rewrote them could turn the sandbox off for the next session). Both are created
 * empty when missing, so there is something to mount read-only over. Git's metadata is
 * {@link gitMounts}'s.
 */
export function protectedInRoot(root: string): string[] {
  const settings = ['.swarmdesk', '.claude'].map((d) => path.join(root, d))
  for (const dir of settings) if (!existsSync(dir)) mkdirSync(dir, { recursive: true })
  return settings
}
