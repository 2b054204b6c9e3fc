import { runTeamTransportBenchmark } from './teamTransportBench'

// 200 messages one at a time to an idle recipient; claim races of 8 and 32 processes over 100
// tasks; a burst of 8 writers x 100 messages. Each on JetStream and on the files, side by side.
// Then the cross-host row (docs/hosts.md#benchmark): 5 test hosts, 200 messages host to host,
// 50 real teammates spawned on them, 50 claimants racing over 100 tasks, 50 writers x 20 messages
// (BENCH_TRANSPORT_HOSTS=0 leaves it out; BENCH_TRANSPORT_SSH_MUX=0 gives the teammates a
// connection per ssh). A few minutes on 2 cores under load (within 10).
const hosts = Number(process.env.BENCH_TRANSPORT_HOSTS ?? 5)
const result = await runTeamTransportBenchmark({
  latencyMessages: Number(process.env.BENCH_TRANSPORT_MESSAGES ?? 200),
  settleMs: 50,
  claimants: [8, 32],
  tasks: Number(process.env.BENCH_TRANSPORT_TASKS ?? 100),
  writers: 8,
  perWriter: 100,
  crossHost:
    hosts > 0
      ? {
          hosts,
          latencyMessages: Number(process.env.BENCH_TRANSPORT_MESSAGES ?? 200),
          settleMs: 50,
          teammates: Number(process.env.BENCH_TRANSPORT_TEAMMATES ?? 50),
          spawnConcurrency: 5,
          tasks: Number(process.env.BENCH_TRANSPORT_TASKS ?? 100),
          perWriter: 20,
          // BENCH_TRANSPORT_SSH_MUX=0: a connection per ssh, as before docs/hosts.md#connections
          sharedConnections: process.env.BENCH_TRANSPORT_SSH_MUX !== '0'
        }
      : { skipped: 'left out by BENCH_TRANSPORT_HOSTS=0' }
})
process.stdout.write(JSON.stringify(result) + '\n')
