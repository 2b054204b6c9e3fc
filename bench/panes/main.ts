import { runPanesBenchmark } from './panesBench'

// issue 7's loads: 16 panes at 50 KB/s and at 200 KB/s, 20 s each
const result = await runPanesBenchmark([
  { panes: 16, bytesPerSecond: 50_000, seconds: 20 },
  { panes: 16, bytesPerSecond: 200_000, seconds: 20 }
])
process.stdout.write(JSON.stringify(result) + '\n')
