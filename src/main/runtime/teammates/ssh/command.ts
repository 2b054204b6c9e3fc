import { randomInt } from 'node:crypto'
import type { TeammateHost } from '../../../../shared/teammateHosts'
import { TRANSPORT_ENV } from '../../teamStore'
import { SCRIPTED_MODEL_URL_ENV } from '../../runner'
import { TEAMMATE_MCP_CONFIG_ENV, TEAMMATE_SETTINGS_FILES_ENV } from '../env'

/** Keep-alive of the leader's ssh (docs/hosts.md#liveness): a silent connection is dropped within interval × count. */
export const SSH_ALIVE = { intervalSeconds: 3, countMax: 3 } as const

/** A remote forward: `127.0.0.1:remotePort` on the host reaches `target` (`host:port`) from the leader. */
export interface RemoteForward {
  remotePort: number
  target: string
}

/**
 * The ssh options that reach `host` (its `-p`, `-i` and `-o` options), the same for the teammate's
 * terminal, its preparation and git's transport. Batch mode: a host that asks for a password or a
 * new host key fails instead of waiting for an answer nobody gives.
 */
export function sshOptionsOf(host: TeammateHost): string[] {
  return [
    ...(host.port ? ['-p', String(host.port)] : []),
    ...(host.identityFile ? ['-i', host.identityFile] : []),
    ...(host.sshOptions ?? []).flatMap((o) => ['-o', o]),
    '-o',
    'BatchMode=yes'
  ]
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]', '::1'])

/**
 * The teammate's environment as the host sees it (docs/hosts.md#what-the-teammate-reaches): each
 * NATS server of the transport, and a model endpoint on the leader's loopback (the scripted model
 * server, a local proxy), goes through a remote forward of the teammate's ssh connection to a
 * random port of the host's loopback; a model endpoint elsewhere is left as it is (the host
 * reaches it itself). The session's settings and `--mcp-config` files are paths on the leader's
 * machine, so their variables are dropped here: the executor sends their contents and names the
 * copies on the host instead (hostFiles.ts).
 * `pickPort` chooses the host's ports (tests pass a fixed one).
 */
export function remoteEnv(
  env: Record<string, string>,
  pickPort: () => number = () => randomInt(20_000, 60_000)
): { env: Record<string, string>; forwards: RemoteForward[] } {
  const forwards: RemoteForward[] = []
  const out: Record<string, string> = { ...env }
  delete out[TEAMMATE_SETTINGS_FILES_ENV]
  delete out[TEAMMATE_MCP_CONFIG_ENV]
  const forward = (hostname: string, port: string): number => {
    const target = `${hostname}:${port}`
    const known = forwards.find((f) => f.target === target)
    if (known) return known.remotePort
    const remotePort = pickPort()
    forwards.push({ remotePort, target })
    return remotePort
  }
  const servers = out[TRANSPORT_ENV.transport]
  if (servers && servers !== 'files')
    out[TRANSPORT_ENV.transport] = servers
      .split(',')
      .map((s) => {
        const url = new URL(s.trim())
        return `${url.protocol}//127.0.0.1:${forward(url.hostname, url.port || '4222')}`
      })
      .join(',')
  for (const key of ['ANTHROPIC_BASE_URL', SCRIPTED_MODEL_URL_ENV]) {
    const value = out[key]
    if (!value) continue
    let url: URL
    try {
      url = new URL(value)
    } catch {
      continue
    }
    if (!LOOPBACK.has(url.hostname)) continue
    const port = url.port || (url.protocol === 'https:' ? '443' : '80')
    const remotePort = forward(url.hostname === 'localhost' ? '127.0.0.1' : url.hostname, port)
    url.hostname = '127.0.0.1'
    url.port = String(remotePort)
    out[key] = url.toString().replace(/\/$/, value.endsWith('/') ? '/' : '')
  }
  return { env: out, forwards }
}

/** `export K='v'` lines for a POSIX shell to source (the teammate's env file on the host). */
export function envFileText(env: Record<string, string>): string {
  return Object.entries(env)
    .filter(([k]) => /^[A-Za-z_][A-Za-z0-9_]*$/.test(k))
    .map(([k, v]) => `export ${k}=${shellQuote(v)}\n`)
    .join('')
}

/**
 * Where a teammate works on its host: `<workspace>/<team>/<name>`, and beside it its env and pid
 * files and the folder of its session files (`.<name>.session`: settings, MCP configuration).
 */
export function remotePaths(
  host: TeammateHost,
  team: string,
  name: string
): { dir: string; envFile: string; pidFile: string; filesDir: string } {
  const base = host.workspace.replace(/\/+$/, '')
  return {
    dir: `${base}/${team}/${name}`,
    envFile: `${base}/${team}/.${name}.env`,
    pidFile: `${base}/${team}/.${name}.pid`,
    filesDir: `${base}/${team}/.${name}.session`
  }
}

/**
 * The command the teammate's terminal runs on the host, by its login shell: read and remove the env
 * file (credentials never on a command line), check out its branch at the clone's top (`dir`),
 * note its pid (the shell's, which `exec` hands on) for an interrupt, then `<command> teammate`
 * working in `cwd` (the workspace's place in the clone).
 */
export function remoteTeammateScript(
  host: TeammateHost,
  where: { dir: string; envFile: string; pidFile: string; cwd: string },
  team: string,
  name: string,
  branch: string | undefined
): string {
  const q = shellQuote
  return [
    `. ${q(where.envFile)} && rm -f ${q(where.envFile)}`,
    `cd ${q(where.dir)}`,
    ...(branch ? [`git checkout -q ${q(branch)}`] : []),
    `echo $$ > ${q(where.pidFile)}`,
    `exec ${host.command} teammate --team ${q(team)} --name ${q(name)} --cwd ${q(where.cwd)}`
  ].join(' && ')
}

/**
 * The arguments of the teammate's terminal: `ssh -tt` (a terminal on the host, so that the
 * connection's end hangs up the teammate's whole session there), keep-alives, the remote forwards
 * (a forward the host refuses fails the start), the destination and the script.
 */
export function sshTerminalArgs(host: TeammateHost, forwards: readonly RemoteForward[], script: string): string[] {
  return [
    '-tt',
    ...sshOptionsOf(host),
    '-o',
    'ExitOnForwardFailure=yes',
    '-o',
    `ServerAliveInterval=${SSH_ALIVE.intervalSeconds}`,
    '-o',
    `ServerAliveCountMax=${SSH_ALIVE.countMax}`,
    ...forwards.flatMap((f) => ['-R', `127.0.0.1:${f.remotePort}:${f.target}`]),
    '--',
    host.destination,
    script
  ]
}

/** POSIX single-quoting: the word as one shell argument, whatever it holds. */
export function shellQuote(word: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`
}
