import { runMailboxBenchmark } from './mailboxBench'

// 200 spaced messages for latency; bursts of 16 and 32 writers x 50 (issue 5), 3 timed rounds each
// after a warm-up; 3 kills for this mailbox and 1 for the baseline, whose lock then blocks for its
// 10 s stale time. About two minutes on 2 cores.
const result = await runMailboxBenchmark({
  latencyMessages: 200,
  gapMs: 10,
  burstWriters: [16, 32],
  perWriter: 50,
  burstRounds: 3,
  crashTrials: 3,
  baselineCrashTrials: 1
})
process.stdout.write(JSON.stringify(result) + '\n')
