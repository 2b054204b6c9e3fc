import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { installClaudeCode } from '../../src/main/runtime/scripted/claudeCode.testkit'
import { SPAWNS, runTeamRuns, teamHome, type TeamMemory } from './teamPair'
import { ROUNDS } from './teams'

/**
 * Claude Code's side of the peer benchmark's team figures, once (`npm run test:slow`, about half a
 * minute): the real claude 2.1.197 interactive in a PTY plays the ping-pong and spawns 4 and 8
 * teammates against the scripted model, and every figure the benchmark reads comes out of it.
 * Times are not judged here (that is `npm run bench -- peer`), only that each was measured.
 */
const install = await installClaudeCode()
if (install.skip) console.warn(`peer team runs skipped: ${install.skip}`)

describe.skipIf(install.skip !== undefined)(
  `the peer benchmark's Claude Code team runs${install.skip ? ` (skipped: ${install.skip})` : ''}`,
  () => {
    const root = mkdtempSync(join(tmpdir(), 'swarmdesk-peer-team-'))
    afterAll(() => rmSync(root, { recursive: true, force: true }))

    it('measures deliveries both ways, the spawns and memory per teammate in interactive Claude Code', async () => {
      const samples: Record<string, number[]> = {}
      const errors: string[] = []
      const memory: TeamMemory[] = []
      let runs = 0
      await runTeamRuns('claudeCode', {
        nextCwd: () => join(root, `run-${runs++}`),
        home: (p) => teamHome(root, p),
        claudeBin: install.bin,
        swarmdeskTextPeak: 0,
        add: (p, name, ...xs) => {
          expect(p).toBe('claudeCode')
          ;(samples[name] ??= []).push(...xs)
        },
        spawnError: (_p, what) => errors.push(what),
        memory: (_p, m) => memory.push(m)
      })
      expect(runs).toBe(1 + SPAWNS.length)
      expect(samples.deliveriesToTeammate).toHaveLength(ROUNDS - 1)
      expect(samples.deliveriesToLeader).toHaveLength(ROUNDS)
      for (const d of [...samples.deliveriesToTeammate!, ...samples.deliveriesToLeader!]) expect(d).toBeGreaterThan(0)
      for (const n of [1, ...SPAWNS]) {
        expect(samples[`teammateSpawn${n}Ms`], `spawn of ${n}`).toHaveLength(1)
        expect(samples[`teammateSpawn${n}Ms`]![0]).toBeGreaterThan(0)
      }
      // Claude Code may fail some of 8 Agent calls at once (its lock on the team config); each is named
      for (const e of errors) expect(e).toMatch(/^spawning \d+ /)
      expect(memory).toHaveLength(1)
      expect(memory[0]!.teammates).toBeGreaterThan(0)
      expect(memory[0]!.baselineMiB).toBeGreaterThan(50)
      expect(memory[0]!.peakMiB).toBeGreaterThanOrEqual(memory[0]!.baselineMiB)
      expect(memory[0]!.restAfterMiB).toBeGreaterThan(50)
      expect(memory[0]!.restBeforeMiB).toBeGreaterThan(50)
      expect(samples.teammateMemoryMiB).toHaveLength(1)
    }, 300_000)
  }
)
