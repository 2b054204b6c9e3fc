import { runTeamTransportBenchmark } from './teamTransportBench'

// 200 messages one at a time to an idle recipient; claim races of 8 and 32 processes over 100
// tasks; a burst of 8 writers x 100 messages. Each on JetStream and on the files, side by side.
// A few minutes on 2 cores under load (issue 27: within 10).
const result = await runTeamTransportBenchmark({
  latencyMessages: Number(process.env.BENCH_TRANSPORT_MESSAGES ?? 200),
  settleMs: 50,
  claimants: [8, 32],
  tasks: Number(process.env.BENCH_TRANSPORT_TASKS ?? 100),
  writers: 8,
  perWriter: 100
})
process.stdout.write(JSON.stringify(result) + '\n')
