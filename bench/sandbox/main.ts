import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { sandboxDefaults } from '../../src/main/runtime/permissions'
import { createPtyHost } from '../../src/main/runtime/pty'
import {
  agentProxySocket,
  forwarderAvailable,
  sandboxAvailability,
  sandboxedCommand
} from '../../src/main/runtime/sandbox'

/**
 * `npm run bench -- sandbox` (docs/sandbox.md): what the Bash sandbox costs one command. Bash `true`
 * run the way the Bash tool runs it — a fresh bash in a real PTY of the PTY host — unsandboxed,
 * under bwrap without network, and under bwrap with the network forwarder (socat) and the
 * agent's proxy, interleaved in one run so the machine's load weighs on all three alike.
 * Figures are wall milliseconds per command, p50 and p99; the goal is on the added p50.
 */
const RUNS = Number(process.env.BENCH_SANDBOX_N ?? 40)
/** The goal: the sandbox with its network adds at most this much to a command's p50, ms. */
const GOAL_ADDED_P50_MS = 150

const quantile = (sorted: number[], q: number): number =>
  sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!
const stats = (times: number[]) => {
  const sorted = [...times].sort((a, b) => a - b)
  const round = (n: number) => Math.round(n * 10) / 10
  return { p50Ms: round(quantile(sorted, 0.5)), p99Ms: round(quantile(sorted, 0.99)) }
}

const available = sandboxAvailability()
if (!available.ok) {
  process.stdout.write(JSON.stringify({ name: 'sandbox', verdict: 'skipped', reason: available.problem }) + '\n')
} else {
  const root = mkdtempSync(join(tmpdir(), 'bench-sandbox-root-'))
  const tmpDir = mkdtempSync(join(tmpdir(), 'bench-sandbox-tmp-'))
  const pty = createPtyHost()
  const settings = sandboxDefaults()
  settings.enabled = true
  const proxySocket = agentProxySocket(
    { sessionId: 'bench', agentId: 'bench', agentName: 'bench' },
    settings.network,
    undefined
  )
  const withNetwork = forwarderAvailable()
  const commands = {
    unsandboxed: 'true',
    sandboxedNoNetwork: sandboxedCommand('true', { root, tmpDir, settings }),
    ...(withNetwork ? { sandboxed: sandboxedCommand('true', { root, tmpDir, settings, proxySocket }) } : {})
  }
  const times: Record<string, number[]> = Object.fromEntries(Object.keys(commands).map((k) => [k, []]))
  try {
    // one warm-up each (the first bwrap pays for page cache), then interleaved runs
    for (const command of Object.values(commands)) await pty.run({ command, cwd: root, timeoutMs: 30_000 })
    for (let i = 0; i < RUNS; i++)
      for (const [kind, command] of Object.entries(commands)) {
        const started = performance.now()
        const result = await pty.run({ command, cwd: root, timeoutMs: 30_000 })
        if (result.exitCode !== 0) throw new Error(`${kind} \`true\` exited ${result.exitCode}: ${result.output}`)
        times[kind]!.push(performance.now() - started)
      }
  } finally {
    await pty.dispose()
    rmSync(root, { recursive: true, force: true })
    rmSync(tmpDir, { recursive: true, force: true })
  }
  const figures = Object.fromEntries(Object.entries(times).map(([k, t]) => [k, stats(t)]))
  const base = figures.unsandboxed!.p50Ms
  const full = (figures.sandboxed ?? figures.sandboxedNoNetwork)!.p50Ms
  const addedP50Ms = Math.round((full - base) * 10) / 10
  process.stdout.write(
    JSON.stringify({
      name: 'sandbox',
      runs: RUNS,
      ...figures,
      addedP50Ms,
      addedP50NoNetworkMs: Math.round((figures.sandboxedNoNetwork!.p50Ms - base) * 10) / 10,
      p50Ratio: Math.round((full / base) * 100) / 100,
      network: withNetwork ? 'proxy (socat forwarder)' : 'none (socat missing: measured without the forwarder)',
      goal: `the sandbox (bwrap, with its network forwarder) adds at most ${GOAL_ADDED_P50_MS} ms to a Bash command's p50`,
      verdict: addedP50Ms <= GOAL_ADDED_P50_MS ? 'pass' : 'fail'
    }) + '\n'
  )
}
