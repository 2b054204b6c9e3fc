import { describe, expect, it } from 'vitest'
import { NATS_SERVER } from '../../src/main/runtime/teamStore/natsServer.testkit'
import { testHostsUnavailable } from '../../src/main/runtime/teammates/ssh/testHost.testkit'
import type { CrossHostFigures } from './crossHost'
import { HOST_READY } from './hostTeammates'
import { runTeamTransportBenchmark } from './teamTransportBench'

// The cross-host row on a small team (docs/hosts.md#benchmark): its shape and that the work it
// reports was done — every message delivered once, every task won once, every teammate ready and
// nothing left on the hosts. Not its timings (the machine is shared and loaded).

const unavailable = testHostsUnavailable() ?? (NATS_SERVER ? undefined : 'nats-server is not installed')
if (unavailable) console.warn(`skipping the cross-host benchmark test: ${unavailable}`)

describe.skipIf(unavailable !== undefined)('team-transport benchmark, cross-host row', () => {
  it('runs 2 hosts, 4 teammates: delivery host to host, real teammates ready, a claim race and a burst, exactly once', async () => {
    const r = await runTeamTransportBenchmark({
      latencyMessages: 3,
      settleMs: 20,
      claimants: [2],
      tasks: 3,
      writers: 2,
      perWriter: 3,
      crossHost: {
        hosts: 2,
        latencyMessages: 8,
        settleMs: 20,
        teammates: 4,
        spawnConcurrency: 2,
        tasks: 6,
        perWriter: 3
      }
    })
    expect(r.crossHost).toBeDefined()
    expect(r.crossHost, JSON.stringify(r.crossHost)).not.toHaveProperty('skipped')
    const x = r.crossHost as CrossHostFigures
    expect(x.hosts).toBe(2)
    expect(x.reach).toMatch(/remote forward/)
    // the recipient and the sender on different hosts
    expect(x.latency).toMatchObject({
      messages: 8,
      received: 8,
      lost: 0,
      duplicated: 0,
      recipientHost: 0,
      senderHost: 1
    })
    expect(x.latency.p99Ms).toBeGreaterThanOrEqual(x.latency.p50Ms)
    expect(x.latency.p50Ms).toBeGreaterThan(0)
    expect(x.spawn).toMatchObject({
      ready: HOST_READY,
      teammates: 4,
      hosts: 2,
      started: 4,
      failed: 0,
      aliveOnServer: 4,
      leftOnHosts: 0
    })
    expect(x.spawn.maxMs).toBeGreaterThanOrEqual(x.spawn.p50Ms)
    // one shared connection per host, closed at the end; the start split into its phases
    expect(x.spawn).toMatchObject({ sharedConnections: true, mastersLeft: 0 })
    expect(x.spawn.phases.connectMs.n).toBe(2)
    expect(x.spawn.phases.sshSetupMs.n).toBe(2)
    for (const phase of ['prepareMs', 'pushMs', 'terminalToExecMs', 'execToReadyMs'] as const) {
      expect(x.spawn.phases[phase].n, phase).toBe(4)
      expect(x.spawn.phases[phase].p50, phase).toBeGreaterThan(0)
    }
    expect(x.claims).toMatchObject({
      claimants: 4,
      tasks: 6,
      attempts: 24,
      wins: 6,
      alreadyClaimed: 18,
      otherRefusals: 0,
      failed: 0,
      claimErrors: 0
    })
    expect(x.burst).toMatchObject({
      writers: 4,
      perWriter: 3,
      acked: 12,
      failed: 0,
      lost: 0,
      duplicatedStored: 0,
      lostAtRecipient: 0,
      duplicatedAtRecipient: 0
    })
    expect(x).toMatchObject({ lost: 0, duplicated: 0, claimErrors: 0, failed: 0 })
    expect(x.pass.exactlyOnce).toBe(true)
    expect(typeof x.pass.latency).toBe('boolean')
    expect(x.goals).toMatchObject({ p50Ms: 10, p99Ms: 50 })
  }, 240_000)
})
