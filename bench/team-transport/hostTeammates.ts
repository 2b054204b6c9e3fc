// Real `swarmdesk teammate` processes started on test hosts by the product's own ssh executor
// (docs/hosts.md#spawning-on-a-host): the cross-host row's spawn → ready.
import { execFileSync } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { EventBus } from '../../src/main/runtime/events'
import { createPtyHost } from '../../src/main/runtime/pty'
import { SCRIPTED_MODEL_URL_ENV } from '../../src/main/runtime/runner'
import { startScriptedServer, validateScenario } from '../../src/main/runtime/scripted'
import { withMember } from '../../src/main/runtime/teams'
import { openTeamStore, transportEnv } from '../../src/main/runtime/teamStore'
import { SshTeammateExecutor, type HostStartPhases } from '../../src/main/runtime/teammates/ssh/executor'
import { runProgram } from '../../src/main/runtime/teammates/ssh/git'
import type { TestHost } from '../../src/main/runtime/teammates/ssh/testHost.testkit'
import { percentile, r2 } from '../mailbox/harness'

/** What "ready" means in {@link HostSpawnFigures}: the product's own definition. */
export const HOST_READY =
  "the ssh executor's spawn resolved: the teammate's first heartbeat on the JetStream server (docs/hosts.md#spawning-on-a-host), polled every 300 ms"

/** Spawn → ready of real host teammates. */
export interface HostSpawnFigures {
  /** What was started: `swarmdesk teammate` processes by `SshTeammateExecutor`. */
  how: string
  ready: string
  teammates: number
  hosts: number
  /** Spawns in flight at once (round-robin over the hosts). */
  concurrency: number
  started: number
  /** Spawns that threw (each with its reason in `errors`). */
  failed: number
  errors: string[]
  /** Per teammate, from `spawn` called to it resolved, ms. */
  p50Ms: number
  p99Ms: number
  maxMs: number
  /** From the first spawn to the last one ready, ms. */
  allReadyMs: number
  /** Distinct teammates alive on the server (their heartbeats) once all spawns returned. */
  aliveOnServer: number
  /** After every teammate was killed: processes left on the hosts (0 when all is well). */
  leftOnHosts: number
  /** Whether the executor shared one ssh connection per host (docs/hosts.md#connections). */
  sharedConnections: boolean
  /** After every teammate was killed and the executor disposed: ssh masters left on this machine (0 when all is well). */
  mastersLeft: number
  /** Where a start went, per teammate (p50 / p99, ms): {@link StartSplit}. */
  phases: StartSplit
}

/** A phase's spread over the teammates (or hosts), ms. */
export interface Spread {
  n: number
  p50: number
  p99: number
}

/** Where a host teammate's start went (docs/hosts.md#benchmark). */
export interface StartSplit {
  how: string
  /** A plain `ssh <host> true` (its own connection: key exchange, authentication, a session), one per host before the spawns. */
  sshSetupMs: Spread
  /** Opening a host's shared connection (`ssh -M -N -f`), for the starts that opened one. */
  connectMs: Spread
  /** The preparation ssh (its script on stdin): with its own set-up when not shared. */
  prepareMs: Spread
  /** git's push of the leader's HEAD over ssh. */
  pushMs: Spread
  /** The terminal's `ssh -tt` started → its script on the host ran `exec <command> teammate` (its pid file's time: the hosts share this clock). */
  terminalToExecMs: Spread
  /** That exec → the first heartbeat seen on the server: the CLI's start, its server connection, its first beat, the 300 ms poll. */
  execToReadyMs: Spread
  /** Starts that needed more than one try (a refused forward port). */
  retried: number
}

function spread(values: number[]): Spread {
  return { n: values.length, p50: r2(percentile(values, 50)), p99: r2(percentile(values, 99)) }
}

/** This machine's ssh masters (`ssh -M …`) that name one of `destinations`. */
function mastersTo(destinations: string[]): number {
  let n = 0
  for (const pid of readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    try {
      const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')
      if (args[0] === 'ssh' && args.includes('-M') && destinations.some((d) => args.includes(d))) n++
    } catch {
      // ended meanwhile
    }
  }
  return n
}

/** Runs `fn` over `items` with at most `limit` at once, in order. */
async function pool<T>(items: T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) await fn(items[next++]!)
    })
  )
}

/**
 * Starts `teammates` real `swarmdesk teammate` processes on `hosts` (teammate i on host i mod n) by
 * the product's ssh executor, `concurrency` spawns at once, as a leader on this machine does: a
 * git repository here (hidden on the hosts) whose HEAD each teammate gets as its branch, the team
 * on `natsUrl` (reached from the hosts through each teammate's ssh remote forward), the scripted
 * model server's address forwarded the same way (the teammates get no prompt, so none asks it).
 * Measures spawn → ready (the spawn's resolution), then kills them all and counts what is left on
 * the hosts. `hidden` are the folders the hosts do not see (made by the caller for `startTestHost`).
 */
export async function spawnHostTeammates(o: {
  hosts: TestHost[]
  natsUrl: string
  teammates: number
  concurrency: number
  /** The leader's data directory and repository: created empty by the caller, hidden on the hosts. */
  home: string
  repo: string
  /** The `swarmdesk` command on the hosts. */
  command: string
  /** One ssh connection per host (the executor's default) or one per ssh. */
  sharedConnections: boolean
}): Promise<HostSpawnFigures> {
  const transport = { kind: 'nats' as const, servers: [o.natsUrl] }
  execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: o.repo })
  writeFileSync(join(o.repo, 'README.md'), 'bench\n')
  execFileSync('git', ['add', '.'], { cwd: o.repo })
  execFileSync('git', ['-c', 'user.name=l', '-c', 'user.email=l@example.com', 'commit', '-qm', 'start'], {
    cwd: o.repo
  })
  const model = await startScriptedServer({ scenario: validateScenario({ agents: { '*': [{ text: 'ok' }] } }, 'b') })
  const store = await openTeamStore(o.home, transport)
  const team = `hosts-${Date.now().toString(36)}`
  const names = Array.from({ length: o.teammates }, (_, i) => `t${i}`)
  const lead = { name: 'team-lead', agentType: 'team-lead', model: 'm', backendType: 'main' as const, cwd: o.repo }
  await store.config.create({ name: team, lead })
  await store.config.update(team, (c) =>
    names.reduce(
      (cfg, name) =>
        withMember(cfg, { name, agentType: 'general-purpose', model: 'm', backendType: 'process', cwd: o.repo }).config,
      c
    )
  )
  const bus = new EventBus()
  const pty = createPtyHost()
  const split = new Map<string, HostStartPhases & { execMs?: number }>()
  const executor = new SshTeammateExecutor({
    bus,
    pty,
    multiplex: o.sharedConnections,
    onStartPhases: (agentId, phases) => split.set(agentId, phases)
  })
  // what one plain ssh connection costs here now: one per host, one after the other
  const setup: number[] = []
  for (const host of o.hosts) {
    const began = performance.now()
    await runProgram('ssh', [...host.sshOptions, '--', host.destination, 'true'])
    setup.push(performance.now() - began)
  }
  const took: number[] = []
  const errors: string[] = []
  let lastReady = 0
  const t0 = performance.now()
  try {
    await pool(
      names.map((name, i) => ({ name, host: o.hosts[i % o.hosts.length]!, i })),
      o.concurrency,
      async ({ name, host, i }) => {
        const start = performance.now()
        try {
          await executor.spawn({
            home: o.home,
            team,
            name,
            agentId: `${name}@${team}`,
            cwd: o.repo,
            color: 'blue',
            model: 'claude-bench',
            mode: 'default',
            planModeRequired: false,
            sessionId: randomUUID(),
            leaderAgentId: `team-lead@${team}`,
            env: {
              ANTHROPIC_API_KEY: 'bench-key',
              ANTHROPIC_BASE_URL: model.url,
              [SCRIPTED_MODEL_URL_ENV]: model.url,
              ...transportEnv(transport)
            },
            store,
            host: {
              name: `h${i % o.hosts.length}`,
              destination: host.destination,
              workspace: host.workspaceRoot,
              command: o.command,
              identityFile: host.identityFile,
              sshOptions: [
                `UserKnownHostsFile=${host.knownHostsFile}`,
                'StrictHostKeyChecking=yes',
                'ConnectTimeout=20'
              ]
            }
          })
          took.push(performance.now() - start)
          lastReady = performance.now()
          const phases = split.get(`${name}@${team}`)
          // its script on the host noted its pid just before exec: that file's time is the exec's
          if (phases)
            phases.execMs = statSync(join(host.workspaceRoot, team, `.${name}.pid`)).mtimeMs - phases.terminalAt
        } catch (error) {
          errors.push(`${name}: ${(error as Error).message.slice(0, 400)}`)
        }
      }
    )
    const allReadyMs = lastReady - t0
    const aliveOnServer = (await store.liveness.alive(team)).size
    // each kill fetches the branch back and removes the clone over ssh: 2 at a time per host
    await pool(names, 2 * o.hosts.length, (name) => executor.kill(`${name}@${team}`, 'benchmark done'))
    await executor.dispose()
    const mastersLeft = mastersTo(o.hosts.map((h) => h.destination))
    let leftOnHosts = 0
    const until = Date.now() + 30_000
    do {
      leftOnHosts = o.hosts.reduce((s, h) => s + h.leftovers().length, 0)
      if (leftOnHosts) await new Promise((r) => setTimeout(r, 300))
    } while (leftOnHosts && Date.now() < until)
    return {
      how: `swarmdesk teammate processes started by the product's ssh executor (SshTeammateExecutor: a preparation ssh, git push of the leader's HEAD, ssh -tt in a PTY with remote forwards), ${o.concurrency} spawns at once`,
      ready: HOST_READY,
      teammates: o.teammates,
      hosts: o.hosts.length,
      concurrency: o.concurrency,
      started: took.length,
      failed: errors.length,
      errors: errors.slice(0, 5),
      p50Ms: r2(percentile(took, 50)),
      p99Ms: r2(percentile(took, 99)),
      maxMs: r2(took.length ? Math.max(...took) : Number.NaN),
      allReadyMs: r2(allReadyMs),
      aliveOnServer,
      leftOnHosts,
      sharedConnections: o.sharedConnections,
      mastersLeft,
      phases: {
        how: "per teammate, from the executor's own timings (onStartPhases) and its pid file's time on the host; sshSetupMs per host before the spawns",
        sshSetupMs: spread(setup),
        connectMs: spread([...split.values()].flatMap((p) => (p.connectMs !== undefined ? [p.connectMs] : []))),
        prepareMs: spread([...split.values()].map((p) => p.prepareMs)),
        pushMs: spread([...split.values()].map((p) => p.pushMs)),
        terminalToExecMs: spread([...split.values()].flatMap((p) => (p.execMs !== undefined ? [p.execMs] : []))),
        execToReadyMs: spread(
          [...split.values()].flatMap((p) => (p.execMs !== undefined ? [p.terminalMs - p.execMs] : []))
        ),
        retried: [...split.values()].filter((p) => p.tries > 1).length
      }
    }
  } finally {
    await executor.dispose()
    await pty.dispose()
    await store.close()
    await model.close()
  }
}

/** A leader's data directory and repository for {@link spawnHostTeammates}, removed by `remove`. */
export function leaderFolders(): { home: string; repo: string; remove(): void } {
  const home = realpathSync(mkdtempSync(join(tmpdir(), 'swarmdesk-bench-hosts-home-')))
  const repo = realpathSync(mkdtempSync(join(tmpdir(), 'swarmdesk-bench-hosts-repo-')))
  return {
    home,
    repo,
    remove() {
      rmSync(home, { recursive: true, force: true })
      rmSync(repo, { recursive: true, force: true })
    }
  }
}
