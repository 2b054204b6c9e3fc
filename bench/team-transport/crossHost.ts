// The team-transport benchmark's cross-host row (docs/hosts.md#benchmark): the team store on the
// leader's nats-server, its processes on test hosts (network namespaces with sshd, as the tests
// make them) reached over ssh.
import { join } from 'node:path'
import {
  startTestHost,
  stopAllTestHosts,
  testHostsUnavailable,
  type TestHost
} from '../../src/main/runtime/teammates/ssh/testHost.testkit'
import { leaderFolders, spawnHostTeammates, type HostSpawnFigures } from './hostTeammates'
import { hostIndex, onHosts } from './hosts'
import {
  burst,
  claimRace,
  deliveryLatency,
  onThisMachine,
  pause,
  type BurstFigures,
  type ClaimFigures,
  type LatencyFigures,
  type Placement,
  type Target
} from './scenarios'

/** Sizes of the cross-host row. */
export interface CrossHostOptions {
  /** Test hosts to make (issue 28: 5). */
  hosts: number
  /** Messages to the idle recipient on one host from a sender on another; its settle time, ms. */
  latencyMessages: number
  settleMs: number
  /** Teammates across the hosts (issue 28: 50): real ones spawned, then as many racing claimants and writers. */
  teammates: number
  /** Teammate spawns in flight at once. */
  spawnConcurrency: number
  /** Tasks of the claim race (every claimant tries each). */
  tasks: number
  /** Messages each writer sends to the leader's inbox. */
  perWriter: number
  /** One ssh connection per host for the teammates (default, docs/hosts.md#connections), or one per ssh. */
  sharedConnections?: boolean
}

/** Issue 28's goals for delivery between hosts. */
export const CROSS_HOST_GOALS = { p50Ms: 10, p99Ms: 50 }

/** How the processes on the hosts reach the team's server (the JSON says it). */
export const CROSS_HOST_REACH =
  "each process on a host has its own ssh connection from this machine and reaches the leader's nats-server (on this machine's loopback) through a remote forward of it (ssh -R to a port of the host's loopback), as a host teammate does (docs/hosts.md#what-the-teammate-reaches); the hosts are network namespaces of this machine joined by a veth /30 each, with sshd (testHost.testkit)"

/** The cross-host row's figures. */
export interface CrossHostFigures {
  hosts: number
  reach: string
  /** A recipient on host 0 waits; a sender on host 1 sends each message (through the server here). */
  latency: LatencyFigures & { recipientHost: number; senderHost: number; settleMs: number }
  /** Real teammates started on the hosts round-robin by the product's ssh executor. */
  spawn: HostSpawnFigures
  /** `teammates` claimant processes, round-robin over the hosts, racing for the same tasks. */
  claims: ClaimFigures
  /** `teammates` writers, round-robin over the hosts, to the leader's inbox watched on this machine. */
  burst: BurstFigures
  /** Over the latency run and the burst: acknowledged and not delivered; delivered or stored twice. */
  lost: number
  duplicated: number
  /** Tasks not won exactly once (or stored with another owner). */
  claimErrors: number
  /** Sends and claims that threw or were refused for another reason than `already_claimed`; spawns that failed. */
  failed: number
  goals: { p50Ms: number; p99Ms: number; lost: 0; duplicated: 0; claimErrors: 0; failed: 0 }
  pass: {
    /** p50 and p99 within the goals, every message received. */
    latency: boolean
    /** 0 lost, 0 duplicated, every task won once, nothing failed, every teammate ready, nothing left on the hosts nor an ssh master here. */
    exactlyOnce: boolean
  }
  /** Wall time of each part, processes' starts and ends included, ms (`teammates`: spawns and kills). */
  phasesMs: { hosts: number; latency: number; claims: number; burst: number; teammates: number }
}

/** The row, or why it could not be measured here (never a figure then), or the error that broke it. */
export type CrossHostRow = CrossHostFigures | { skipped: string } | { error: string }

/**
 * Measures the cross-host row against `server` (the leader's nats-server URL, on this machine):
 * makes `o.hosts` test hosts (the leader's data folder and repository hidden there), then
 * delivery latency host to host, spawn → ready of `o.teammates` real teammates on them, a claim
 * race of as many claimant processes and a burst of as many writers. Every host and process is
 * gone when it returns. Skipped (with the reason) where test hosts cannot be made.
 * @param script the bundled `child.ts` (this machine's path, which the hosts see).
 * @param countStored copies stored on an inbox subject, duplicates included (the burst's check).
 * @throws Error when a host cannot be made although namespaces can (its sshd's output in the message).
 */
export async function crossHostRow(
  o: CrossHostOptions,
  env: {
    script: string
    server: string | undefined
    command: string
    countStored: (team: string, agent: string) => Promise<number>
  }
): Promise<CrossHostRow> {
  if (!env.server) return { skipped: 'nats-server is not installed: the team across hosts needs JetStream' }
  const unavailable = testHostsUnavailable()
  if (unavailable) return { skipped: `test hosts cannot be made here: ${unavailable}` }
  const leader = leaderFolders()
  try {
    const made = performance.now()
    const hosts: TestHost[] = []
    for (let i = 0; i < o.hosts; i++) hosts.push(await startTestHost({ hide: [leader.home, leader.repo] }))
    const target: Target = {
      label: 'jetstream',
      store: { home: join(leader.home, 'bench'), transport: { kind: 'nats', servers: [env.server] } }
    }
    const place = onHosts(env.script, hosts)
    const local = onThisMachine(env.script)
    // the burst's recipient is the leader's inbox: on this machine
    const leaderHere: Placement = (role, index) => (role === 'recipient' ? local : place)(role, index)
    const phasesMs: CrossHostFigures['phasesMs'] = { hosts: 0, latency: 0, claims: 0, burst: 0, teammates: 0 }
    let mark = made
    const phase = (name: keyof typeof phasesMs): void => {
      phasesMs[name] = Math.round(performance.now() - mark)
      mark = performance.now()
    }
    phase('hosts')
    const latency = await deliveryLatency(target, place, {
      messages: o.latencyMessages,
      settleMs: o.settleMs,
      fromSender: true
    })
    phase('latency')
    await pause(500)
    mark = performance.now()
    const claims = await claimRace(target, place, { claimants: o.teammates, tasks: o.tasks })
    phase('claims')
    await pause(500)
    mark = performance.now()
    const burstFigures = await burst(target, leaderHere, {
      writers: o.teammates,
      perWriter: o.perWriter,
      countStored: env.countStored
    })
    phase('burst')
    await pause(500)
    mark = performance.now()
    const spawn = await spawnHostTeammates({
      hosts,
      natsUrl: env.server,
      teammates: o.teammates,
      concurrency: o.spawnConcurrency,
      home: leader.home,
      repo: leader.repo,
      command: env.command,
      sharedConnections: o.sharedConnections ?? true
    })
    phase('teammates')
    const lost = latency.lost + burstFigures.lost + burstFigures.lostAtRecipient
    const duplicated = latency.duplicated + burstFigures.duplicatedStored + burstFigures.duplicatedAtRecipient
    const failed = burstFigures.failed + claims.failed + claims.otherRefusals + spawn.failed
    const pass = {
      latency:
        latency.received === latency.messages &&
        latency.p50Ms <= CROSS_HOST_GOALS.p50Ms &&
        latency.p99Ms <= CROSS_HOST_GOALS.p99Ms,
      exactlyOnce:
        lost === 0 &&
        duplicated === 0 &&
        claims.claimErrors === 0 &&
        failed === 0 &&
        spawn.started === o.teammates &&
        spawn.aliveOnServer === o.teammates &&
        spawn.leftOnHosts === 0 &&
        spawn.mastersLeft === 0
    }
    return {
      hosts: hosts.length,
      reach: CROSS_HOST_REACH,
      latency: {
        ...latency,
        recipientHost: hostIndex('recipient', 0, hosts.length),
        senderHost: hostIndex('sender', 0, hosts.length),
        settleMs: o.settleMs
      },
      spawn,
      claims,
      burst: burstFigures,
      lost,
      duplicated,
      claimErrors: claims.claimErrors,
      failed,
      goals: { ...CROSS_HOST_GOALS, lost: 0, duplicated: 0, claimErrors: 0, failed: 0 },
      pass,
      phasesMs
    }
  } finally {
    await stopAllTestHosts()
    leader.remove()
  }
}
