// Benchmark children on test hosts (docs/hosts.md#benchmark): each started over ssh into a host's
// network namespace, reaching the leader's nats-server through a remote forward of its own ssh
// connection, as a host teammate does (docs/hosts.md#what-the-teammate-reaches).
import { shellQuote } from '../../src/main/runtime/teammates/ssh/command'
import type { TestHost } from '../../src/main/runtime/teammates/ssh/testHost.testkit'
import { startProcess, type Child } from '../mailbox/harness'
import type { ChildCommand } from './protocol'
import type { Placement, Role } from './scenarios'

/**
 * ssh connections being set up at once per host, at most: Debian's sshd drops new connections at
 * random past 10 unauthenticated ones (`MaxStartups 10:30:100`), and 50 children started at once on
 * 5 hosts would reach that.
 */
const STARTING_PER_HOST = 4

/** Which host a process of `role` number `index` runs on: round-robin; a `sender` one host past its recipient's. */
export function hostIndex(role: Role, index: number, hosts: number): number {
  return (role === 'sender' ? index + 1 : index) % hosts
}

/**
 * Places every process of a scenario on `hosts` ({@link hostIndex}): `ssh <host> node <script> …`,
 * with `-R 127.0.0.1:P:<server>` so that the child reaches the team's nats-server (on this
 * machine's loopback) at `127.0.0.1:P` there, P a port of that host's own loopback; the child's
 * store is rewritten to that address and to a data folder on the host. The script and `node` are
 * this machine's, visible on the hosts (only the leader's data folder and repository are hidden).
 * The child exits when its ssh ends (its stdin closes). Only for JetStream: the files of this
 * machine are not there.
 * @throws Error (at launch) for a command whose store is on files.
 */
export function onHosts(script: string, hosts: readonly TestHost[]): Placement {
  const nextPort = hosts.map(() => 20_000)
  const starting = hosts.map(() => new Set<Promise<void>>())
  return (role, index) => (args) => {
    const at = hostIndex(role, index, hosts.length)
    const host = hosts[at]!
    const [verb, json] = args as [string, string]
    const command = JSON.parse(json) as ChildCommand
    const transport = command.store.transport
    if (transport.kind !== 'nats') throw new Error('a child on another host needs the team store on JetStream')
    const server = new URL(transport.servers[0]!)
    const port = nextPort[at]!++
    const there: ChildCommand = {
      ...command,
      store: {
        home: `${host.workspaceRoot}/home`,
        transport: { ...transport, servers: [`${server.protocol}//127.0.0.1:${port}`] }
      }
    }
    const remote = `exec ${shellQuote(process.execPath)} ${shellQuote(script)} ${verb} ${shellQuote(JSON.stringify(there))}`
    const sshArgs = [
      ...host.sshOptions,
      '-o',
      'ExitOnForwardFailure=yes',
      '-R',
      `127.0.0.1:${port}:${server.hostname}:${server.port || '4222'}`,
      host.destination,
      remote
    ]
    return throttled(starting[at]!, () => startProcess('ssh', sshArgs, `${verb} on ${host.address}`))
  }
}

/**
 * Starts `start()` once fewer than {@link STARTING_PER_HOST} children of the same host are between
 * their start and their first output (their ssh connected, the child's store open); the returned
 * child's `waitFor`, `tell` and `kill` wait for that start.
 */
function throttled(starting: Set<Promise<void>>, start: () => Child): Child {
  let child: Child | undefined
  const begun = (async () => {
    while (starting.size >= STARTING_PER_HOST) await Promise.race(starting)
    const c = start()
    child = c
    const first: Promise<void> = new Promise<void>((resolve) => {
      c.process.stdout!.once('data', () => resolve())
      c.process.once('exit', () => resolve())
    }).finally(() => starting.delete(first))
    starting.add(first)
    return c
  })()
  return {
    get process() {
      if (!child) throw new Error('the child has not started yet')
      return child.process
    },
    waitFor: async (key) => (await begun).waitFor(key),
    tell: (line) => void begun.then((c) => c.tell(line)),
    kill: async () => (await begun).kill()
  }
}
