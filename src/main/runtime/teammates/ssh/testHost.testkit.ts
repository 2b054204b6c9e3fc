import { execFile, execFileSync, spawn, type ChildProcess } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/**
 * Test hosts (docs/hosts.md#tests): another machine, as far as a teammate can tell, made of this
 * one's kernel. A host is
 * - a network namespace of its own (`ip netns add`), joined to the test's namespace by a veth pair
 *   in a private /30 (`10.231.x.y`): the test's end is `leaderAddress`, the host's `address`;
 * - a mount namespace of its own in which the folders the test names (`hide`: the leader's data
 *   directory and repository) are empty tmpfs mounts, so nothing of the leader is visible there;
 * - an `sshd` (Debian's openssh-server) in both, run in the foreground (`-D -e`) with its own
 *   config, its own host key, and a key made for the test as the only authorized one (user root).
 *
 * Everything it makes is removed by `stop()` (and by {@link stopAllTestHosts}, and at the
 * process's exit): every process in the namespace, the namespace, the veth pair, the folder.
 * Tests only; needs root (CAP_NET_ADMIN, CAP_SYS_ADMIN) and `/usr/sbin/sshd`: see
 * {@link testHostsUnavailable}.
 */
export interface TestHost {
  /** The network namespace's name (`sdh-…`). */
  ns: string
  /** The host's address, where its sshd listens (port 22). */
  address: string
  /** The test namespace's end of the veth pair: how the host reaches the test's machine. */
  leaderAddress: string
  /** `root@address`. */
  destination: string
  /** The private key authorized on the host. */
  identityFile: string
  /** A known_hosts file holding the host's key, so the client checks it strictly. */
  knownHostsFile: string
  /** The ssh client options that reach this host: identity, known hosts, batch mode, no user config. */
  sshOptions: string[]
  /** A folder of the host's own (under its temp folder; visible only to it and the test). */
  workspaceRoot: string
  /** Runs `command` on the host through the system ssh; resolves with its exit code and output. */
  ssh(command: string, timeoutMs?: number): Promise<{ code: number | null; stdout: string; stderr: string }>
  /** Pids of every process in the host's network namespace (its sshd included). */
  pids(): number[]
  /** Pids in the namespace other than the sshd listener: what anything run on the host left behind. */
  leftovers(): number[]
  /** `ps` lines (pid, ppid, session, state, command) of {@link leftovers}, for a failure's message. */
  describeLeftovers(): string
  /** Cuts the host's network: both ends of the veth pair down. */
  cut(): void
  /** Brings the veth pair back up. */
  restore(): void
  /** What its sshd printed (for failures). */
  log(): string
  /** Kills every process in the namespace and removes the namespace, the veth pair and the folder. Idempotent. */
  stop(): Promise<void>
}

const SSHD = '/usr/sbin/sshd'
const live = new Set<TestHost>()
/** Each live host's temp folder, for the exit hook. */
const folders = new WeakMap<TestHost, string>()

function run(cmd: string, args: string[]): string {
  return execFileSync(cmd, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] })
}

let probed: string | undefined | null = null

/**
 * Why test hosts cannot be made here, or undefined when they can: sshd, ssh, ssh-keygen, unshare
 * and `ip` must be installed, and a network namespace must be creatable (root). Probed once by
 * making and removing a namespace. Tests `skipIf` on it and print the reason, never a fake host.
 */
export function testHostsUnavailable(): string | undefined {
  if (probed !== null) return probed
  probed = undefined
  for (const bin of [SSHD, '/usr/bin/ssh', '/usr/bin/ssh-keygen', '/usr/bin/unshare'])
    if (!existsSync(bin))
      return (probed = `${bin} is missing (apt-get install openssh-server openssh-client util-linux)`)
  const ns = `sdh-probe-${randomBytes(3).toString('hex')}`
  try {
    run('ip', ['netns', 'add', ns])
    run('ip', ['netns', 'del', ns])
  } catch (error) {
    probed = `network namespaces cannot be made here (ip netns add: ${String((error as { stderr?: string }).stderr ?? error).trim()})`
  }
  return probed
}

/** A /30 in 10.231.0.0/16 that no interface of the test's namespace uses yet. */
function freeSubnet(): { leader: string; host: string } {
  const used = run('ip', ['-o', '-4', 'addr', 'show'])
  for (let i = 0; i < 200; i++) {
    const n = randomBytes(2).readUInt16BE(0) & 0x3ffc // a multiple of 4 below 16384
    const base = `10.231.${n >> 8}.`
    const last = n & 0xff
    if (used.includes(`${base}${last + 1}/`) || used.includes(`${base}${last + 2}/`)) continue
    return { leader: `${base}${last + 1}`, host: `${base}${last + 2}` }
  }
  throw new Error('no free /30 in 10.231.0.0/16')
}

/**
 * Makes a test host (see {@link TestHost}) and resolves once its sshd listens.
 * @param options.hide absolute folders that must not be visible on the host (each gets an empty tmpfs).
 * @throws Error when a step fails (with sshd's output); whatever was made is removed first.
 */
export async function startTestHost(options: { hide?: string[] } = {}): Promise<TestHost> {
  const reason = testHostsUnavailable()
  if (reason) throw new Error(`test hosts are unavailable: ${reason}`)
  const id = randomBytes(3).toString('hex')
  const ns = `sdh-${id}`
  const outer = `sdh${id}a`
  const inner = `sdh${id}b`
  const dir = mkdtempSync(join(tmpdir(), `swarmdesk-host-${id}-`))
  const workspaceRoot = join(dir, 'ws')
  let sshd: ChildProcess | undefined
  let output = ''
  let stopped = false
  const { leader, host } = freeSubnet()

  const stop = async (): Promise<void> => {
    if (stopped) return
    stopped = true
    live.delete(handle)
    killNamespace(ns)
    if (sshd && sshd.exitCode === null && sshd.signalCode === null)
      await new Promise<void>((resolve) => {
        sshd!.once('exit', () => resolve())
        setTimeout(resolve, 5_000).unref()
      })
    removeNamespace(ns, outer)
    rmSync(dir, { recursive: true, force: true })
  }

  const options_ = [
    '-F',
    'none',
    '-i',
    join(dir, 'id_ed25519'),
    '-o',
    `UserKnownHostsFile=${join(dir, 'known_hosts')}`,
    '-o',
    'StrictHostKeyChecking=yes',
    '-o',
    'BatchMode=yes',
    '-o',
    'ConnectTimeout=5'
  ]
  const handle: TestHost = {
    ns,
    address: host,
    leaderAddress: leader,
    destination: `root@${host}`,
    identityFile: join(dir, 'id_ed25519'),
    knownHostsFile: join(dir, 'known_hosts'),
    sshOptions: options_,
    workspaceRoot,
    ssh: (command, timeoutMs = 30_000) =>
      new Promise((resolve) => {
        execFile(
          'ssh',
          [...options_, `root@${host}`, command],
          { encoding: 'utf8', timeout: timeoutMs },
          (error, stdout, stderr) =>
            resolve({ code: error ? (typeof error.code === 'number' ? error.code : null) : 0, stdout, stderr })
        )
      }),
    pids: () => namespacePids(ns),
    leftovers: () => namespacePids(ns).filter((pid) => pid !== sshd?.pid),
    describeLeftovers: () => {
      const pids = namespacePids(ns).filter((pid) => pid !== sshd?.pid)
      if (!pids.length) return 'none'
      try {
        return run('ps', ['-o', 'pid,ppid,sid,stat,args', '-p', pids.join(',')])
      } catch {
        return pids.join(', ')
      }
    },
    cut: () => {
      run('ip', ['link', 'set', outer, 'down'])
      run('ip', ['netns', 'exec', ns, 'ip', 'link', 'set', inner, 'down'])
    },
    restore: () => {
      run('ip', ['link', 'set', outer, 'up'])
      run('ip', ['netns', 'exec', ns, 'ip', 'link', 'set', inner, 'up'])
    },
    log: () => output,
    stop
  }
  live.add(handle)
  folders.set(handle, dir)
  try {
    run('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', `swarmdesk-test-${id}`, '-f', join(dir, 'id_ed25519')])
    run('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', `host-${id}`, '-f', join(dir, 'host_ed25519')])
    writeFileSync(join(dir, 'authorized_keys'), readFileSync(join(dir, 'id_ed25519.pub')))
    const hostKey = readFileSync(join(dir, 'host_ed25519.pub'), 'utf8').trim().split(' ').slice(0, 2).join(' ')
    writeFileSync(join(dir, 'known_hosts'), `${host} ${hostKey}\n`)
    writeFileSync(
      join(dir, 'sshd_config'),
      [
        'Port 22',
        `ListenAddress ${host}`,
        `HostKey ${join(dir, 'host_ed25519')}`,
        `AuthorizedKeysFile ${join(dir, 'authorized_keys')}`,
        'PidFile none',
        'StrictModes no',
        'PermitRootLogin prohibit-password',
        'PasswordAuthentication no',
        'KbdInteractiveAuthentication no',
        'UsePAM no',
        'PrintMotd no',
        'PrintLastLog no',
        'AllowTcpForwarding yes',
        // a client whose network is gone is dropped within ~6 s, its session hung up
        'ClientAliveInterval 2',
        'ClientAliveCountMax 3',
        'LogLevel VERBOSE',
        ''
      ].join('\n')
    )
    run('ip', ['netns', 'add', ns])
    run('ip', ['link', 'add', outer, 'type', 'veth', 'peer', 'name', inner])
    run('ip', ['link', 'set', inner, 'netns', ns])
    run('ip', ['addr', 'add', `${leader}/30`, 'dev', outer])
    run('ip', ['link', 'set', outer, 'up'])
    const inNs = (...args: string[]): string => run('ip', ['netns', 'exec', ns, ...args])
    inNs('ip', 'addr', 'add', `${host}/30`, 'dev', inner)
    inNs('ip', 'link', 'set', inner, 'up')
    inNs('ip', 'link', 'set', 'lo', 'up')
    const hides = (options.hide ?? []).map((p) => `mount -t tmpfs -o size=1m,mode=0755 swarmdesk-hidden ${shq(p)}`)
    const script = [
      'set -e',
      ...hides,
      `mkdir -p /run/sshd ${shq(workspaceRoot)}`,
      `exec ${SSHD} -D -e -f ${shq(join(dir, 'sshd_config'))}`
    ].join('\n')
    sshd = spawn('ip', ['netns', 'exec', ns, 'unshare', '-m', '--propagation', 'private', 'sh', '-c', script], {
      stdio: ['ignore', 'pipe', 'pipe']
    })
    const proc = sshd
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('sshd did not start listening within 20 s')), 20_000)
      const onData = (chunk: Buffer): void => {
        output += chunk.toString()
        if (output.includes('Server listening on')) {
          clearTimeout(timer)
          resolve()
        }
      }
      proc.stdout!.on('data', onData)
      proc.stderr!.on('data', onData)
      proc.once('exit', (code) => {
        clearTimeout(timer)
        reject(new Error(`sshd exited (${code}) before listening`))
      })
    })
    return handle
  } catch (error) {
    await stop()
    throw new Error(`cannot make a test host: ${(error as Error).message}\n${output}`, { cause: error })
  }
}

/** Stops every test host still running (for `afterAll`/`afterEach`, failures included). */
export async function stopAllTestHosts(): Promise<void> {
  await Promise.all([...live].map((h) => h.stop()))
}

function namespacePids(ns: string): number[] {
  try {
    return run('ip', ['netns', 'pids', ns])
      .split('\n')
      .map((s) => Number(s.trim()))
      .filter((n) => Number.isInteger(n) && n > 0)
  } catch {
    return []
  }
}

function killNamespace(ns: string): void {
  for (const pid of namespacePids(ns))
    try {
      process.kill(pid, 'SIGKILL')
    } catch {
      // gone already
    }
}

function removeNamespace(ns: string, outer: string): void {
  for (const args of [
    ['netns', 'del', ns],
    ['link', 'del', outer]
  ])
    try {
      run('ip', args)
    } catch {
      // not there (deleting the namespace removes both ends of the pair)
    }
}

/** POSIX single-quoting. */
function shq(word: string): string {
  return `'${word.replace(/'/g, `'\\''`)}'`
}

// a test process that ends without its afterAll (a crash, a timeout) still leaves nothing behind
process.once('exit', () => {
  for (const host of live) {
    killNamespace(host.ns)
    removeNamespace(host.ns, `${host.ns.replace('sdh-', 'sdh')}a`)
    const dir = folders.get(host)
    if (dir) rmSync(dir, { recursive: true, force: true })
  }
})
