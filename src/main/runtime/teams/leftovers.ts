import { killProcessTree, readProcEntry, snapshotProcesses, type ProcEntry } from '../processes'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'

import { leaderStatus } from './leader'

/**
 * What a stale team's cleanup killed: every pid (each teammate process with its process tree) and
 * any that outlived SIGKILL.
 */
export interface LeftoverKill {
  killed: number[]
  survivors: number[]
}

/** Whether the environment of `row` holds every `NAME=value` of `wanted`. */
function hasEnv(row: ProcEntry, wanted: string[]): boolean {
  try {
    const environ = Buffer.concat([Buffer.from([0]), readFileSync(`/proc/${row.pid}/environ`), Buffer.from([0])])
    return wanted.every((pair) => environ.includes(Buffer.from(`\0${pair}\0`)))
  } catch {
    return false
  }
}

/** This process and its ancestors: a command run from inside a teammate's shell inherits its variables, and must not kill itself. */
function selfAndAncestors(): Set<number> {
  const pids = new Set<number>()
  for (let pid = process.pid; pid > 1 && !pids.has(pid);) {
    pids.add(pid)
    const row = readProcEntry(pid)
    if (!row) break
    pid = row.ppid
  }
  return pids
}

/** Pids of the live leaders of every team under `home` (a leader started from a teammate's shell carries that teammate's variables). */
function liveLeaders(home: string): Set<number> {
  const pids = new Set<number>()
  let names: string[]
  try {
    names = readdirSync(join(home, 'teams'))
  } catch {
    return pids
  }
  for (const name of names) {
    try {
      const status = leaderStatus(home, name)
      if (status.state === 'alive') pids.add(status.lease.pid)
    } catch {
      // not a team folder
    }
  }
  return pids
}

/** The value of `name` in the environment of process `pid`, if it can be read. */
function envValue(pid: number, name: string): string | undefined {
  try {
    const prefix = `${name}=`
    const entry = readFileSync(`/proc/${pid}/environ`, 'utf8')
      .split('\0')
      .find((e) => e.startsWith(prefix))
    return entry?.slice(prefix.length)
  } catch {
    return undefined
  }
}

/**
 * The names of `team`'s members under `home` that still have a process running: every process
 * whose environment says it is a member of that team (`SWARMDESK_HOME`, `SWARMDESK_TEAM`), named by
 * its `SWARMDESK_AGENT_NAME` (a `process` teammate, or a command it started, which inherits its
 * variables). Never this process or its ancestors, never a live team leader. A worker teammate is a
 * thread of its leader and is never found here. Linux `/proc` only (elsewhere the set is empty).
 * Never throws.
 */
export function runningTeammates(home: string, team: string): Set<string> {
  const spared = new Set([...selfAndAncestors(), ...liveLeaders(home)])
  const wanted = [`SWARMDESK_HOME=${home}`, `SWARMDESK_TEAM=${team}`]
  const names = new Set<string>()
  for (const row of snapshotProcesses()) {
    if (row.state === 'Z' || row.state === 'X' || spared.has(row.pid) || !hasEnv(row, wanted)) continue
    const name = envValue(row.pid, 'SWARMDESK_AGENT_NAME')
    if (name) names.add(name)
  }
  return names
}

/**
 * Kills what a stale team's `process` teammates left running: every process whose environment says
 * it is a member of `team` under `home` (docs/design.md#process-model's `SWARMDESK_HOME` and `SWARMDESK_TEAM`, which a
 * teammate's shell commands inherit too), each with its process tree. Never this process or its
 * ancestors, never a live team leader. Worker teammates are threads of their leader's process and
 * end with it. Call only for a team whose leader is gone. Linux `/proc` only (elsewhere nothing is
 * found). Never throws.
 */
export async function killTeamLeftovers(home: string, team: string): Promise<LeftoverKill> {
  const spared = new Set([...selfAndAncestors(), ...liveLeaders(home)])
  const wanted = [`SWARMDESK_HOME=${home}`, `SWARMDESK_TEAM=${team}`]
  const roots = snapshotProcesses().filter(
    (row) => row.state !== 'Z' && row.state !== 'X' && !spared.has(row.pid) && hasEnv(row, wanted)
  )
  const killed = new Set<number>()
  const survivors = new Set<number>()
  for (const root of roots) {
    const result = await killProcessTree(root.pid)
    for (const pid of result.killed) if (!spared.has(pid)) killed.add(pid)
    for (const pid of result.survivors) survivors.add(pid)
  }
  return { killed: [...killed], survivors: [...survivors] }
}
