import { cpSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { resourcesDir } from '../app/resources'
import { runCli, useTempWorkspace } from './cli.testkit'

const ws = useTempWorkspace(({ work }) => {
  cpSync(join(resourcesDir(), 'demo', 'project'), work, { recursive: true })
})

describe('swarmdesk run with a team, human output', () => {
  it('starts each teammate line with its name, with no colour codes off a TTY', async () => {
    const scenario = join(resourcesDir(), 'demo', 'team.yaml')
    const run = await runCli(
      ['run', '--cwd', ws.work, '--scenario', scenario, '--approve', 'all', 'Document this project with a team'],
      { env: { SWARMDESK_HOME: ws.home } }
    )
    expect(run.code, run.stderr).toBe(0)
    expect(run.stdout).not.toContain('\x1b[')
    const lines = run.stdout.split('\n')
    // every tool call line names its agent, and each teammate worked
    const calls = lines.filter((l) => / ● \w+\(/.test(l))
    expect(calls.length).toBeGreaterThan(5)
    // the leader, its subagents (named by their description) and the teammates
    for (const line of calls) expect(line).toMatch(/^[a-z][\w-]* +● /)
    expect(calls.some((l) => l.startsWith('team-lead '))).toBe(true)
    // carol has a task of her own; the rest go to whoever claims first (carol, alice or bob), so
    // only carol is sure to work: every line above already had to start with some agent's name
    expect(calls.some((l) => l.startsWith('carol '))).toBe(true)
    // carol's writes were asked about, under her name
    expect(lines.some((l) => /^carol +\? Permission needed: Write\(/.test(l))).toBe(true)
  }, 150_000)
})
