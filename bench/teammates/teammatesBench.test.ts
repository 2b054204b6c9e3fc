import { readdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { describe, expect, it } from 'vitest'
import { runTeammatesBenchmark } from './teammatesBench'

const ours = (): string[] => readdirSync(tmpdir()).filter((n) => n.startsWith('swarmdesk-bench-teammates-'))

describe('teammates benchmark', () => {
  it('does the work it reports: every teammate got ready and idle (or is reported lost), every bubble was shown and answered, and nothing is left behind', async () => {
    const before = new Set(ours())
    const r = await runTeammatesBenchmark({ levels: [2], permissionSamples: 4 })
    expect(r.name).toBe('teammates')

    for (const variant of ['worker', 'workerCold', 'workerUncached', 'process'] as const) {
      const backend = variant === 'process' ? 'process' : 'worker'
      expect(r.spawn[variant]).toHaveLength(1)
      const level = r.spawn[variant][0]!
      expect(level).toMatchObject({ backend, teammates: 2 })
      // every teammate is accounted for: ready (then idle) or lost with a reason (a worker the
      // heartbeat watchdog kills on a loaded machine is a finding of the benchmark, not its failure)
      const lostBeforeReady = level.lost.filter((l) => l.stage === 'spawn' || l.stage === 'before ready').length
      expect(level.readySeen + lostBeforeReady).toBe(2)
      expect(level.idleSeen + level.lost.length).toBe(2)
      for (const l of level.lost) expect(l.reason).not.toBe('')
      expect(level.readySeen).toBeGreaterThan(0)
      expect(level.baseline.readySeen).toBe(2)
      // each teammate's spawn() resolved before its loop took its message, and its first model request came after
      expect(level.readyP50Ms).toBeGreaterThan(0)
      expect(level.spawnReturnedP50Ms).toBeLessThanOrEqual(level.readyP50Ms)
      expect(level.readyMaxMs).toBeGreaterThanOrEqual(level.readyP95Ms)
      expect(level.readyP95Ms).toBeGreaterThanOrEqual(level.readyP50Ms)
      expect(level.firstModelRequestP50Ms).toBeGreaterThanOrEqual(level.readyP50Ms - 2) // server clock: 1 ms resolution
      expect(level.firstModelRequestMaxMs).toBeGreaterThanOrEqual(level.firstModelRequestP50Ms)
      expect(level.cpuMsPerTeammate).toBeGreaterThan(0)
      expect(level.baseline.readyP50Ms).toBeGreaterThan(0)
      expect(level.idleMemoryPerTeammateBytes).toBeGreaterThan(0)
      expect(level.baseline.memoryPerUnitBytes).toBeGreaterThan(0)
      if (variant === 'process') continue
      // the shipping worker backend had its spare loaded before the spawns and refilled after; the cold ones had none
      expect(level.warmSpare).toBe(variant === 'worker')
      expect(level.codeCache).toBe(variant !== 'workerUncached')
      if (variant === 'worker') {
        expect(level.spareLoadMs).toBeGreaterThan(0)
        expect(level.spareWorkerBytes).toBeGreaterThan(0)
        expect(level.spareHeapUsedBytes).toBeGreaterThan(0)
      } else expect(level.spareLoadMs).toBeUndefined()
    }
    for (const backend of ['worker', 'process'] as const) {
      const p = r.permission[backend]
      expect(p).toMatchObject({ backend, samples: 4, bubblesShown: 4, commandsRun: 4 })
      expect(p.requestToBubbleP50Ms).toBeGreaterThanOrEqual(0)
      expect(p.requestToBubbleP95Ms).toBeGreaterThanOrEqual(p.requestToBubbleP50Ms)
      expect(p.requestToBubbleP50Ms).toBeGreaterThanOrEqual(p.requestToPrompterCallP50Ms)
      expect(p.baseline.samples).toBe(4)
      expect(p.baseline.p95Ms).toBeGreaterThanOrEqual(p.baseline.p50Ms)
    }
    // the worker teammates' own isolates answered; the process teammates' memory came from /proc
    const worker = r.spawn.worker[0]!
    expect(worker.workerHeapUsedPerTeammateBytes).toBeGreaterThan(0)
    expect(worker.baseline.cpuMsPerUnit).toBeGreaterThan(0)
    const ratio = r.checks.find((c) => c.unit === 'ratio')!
    expect(ratio.measured).toBeCloseTo(worker.firstModelRequestP50Ms / worker.baseline.readyP50Ms, 1)
    expect(worker.workerHeapTotalPerTeammateBytes).toBeGreaterThanOrEqual(worker.workerHeapUsedPerTeammateBytes!)
    const proc = r.spawn.process[0]!
    expect(proc.rssAnonPerTeammateBytes).toBeGreaterThan(0)
    expect(proc.rssAnonPerTeammateBytes).toBeLessThanOrEqual(proc.idleMemoryPerTeammateBytes)
    expect(proc.terminalShellsRssPerTeammateBytes).toBeGreaterThan(0)

    expect(r.checks).toHaveLength(9)
    expect(r.verdict).toBe(r.checks.every((c) => c.met) ? 'pass' : 'fail')
    expect(r.leftoverProcesses).toBe(0)
    expect(ours().filter((n) => !before.has(n))).toEqual([])
  }, 210_000)
})
