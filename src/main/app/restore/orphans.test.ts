import { isProcessAlive, readProcEntry } from '../../runtime/processes'
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { afterEach, describe, expect, it } from 'vitest'

import { cleanUpOrphans } from './orphans'
import { RUN_TAG_VARIABLE, type WorkspaceState } from './stateFile'

const children: ChildProcess[] = []
afterEach(() => {
  for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL')
})

/** A `sleep` child, optionally carrying a run tag in its environment. */
function sleeper(tag?: string): ChildProcess {
  const child = spawn('sleep', ['60'], {
    env: { ...process.env, ...(tag ? { [RUN_TAG_VARIABLE]: tag } : {}) },
    stdio: 'ignore'
  })
  children.push(child)
  return child
}

/** A process that has already exited: its pid and start time name nobody alive. */
function deadOwner(): { pid: number; startTime: string } {
  const done = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' })
  return { pid: Number(done.stdout), startTime: '1' }
}

function state(
  owner: { pid: number; startTime: string | null },
  runTag: string,
  ptys: WorkspaceState['ptys'] = []
): WorkspaceState {
  return {
    schemaVersion: 1,
    sessionId: 's',
    cwd: '/tmp',
    updatedAt: new Date().toISOString(),
    owner,
    runTag,
    ptys,
    agents: []
  }
}

async function startTime(pid: number): Promise<string> {
  for (let i = 0; i < 100; i++) {
    const row = readProcEntry(pid)
    if (row) return String(row.startTime)
    await new Promise((r) => setTimeout(r, 10))
  }
  throw new Error(`no /proc entry for ${pid}`)
}

describe('cleanUpOrphans', () => {
  it("kills the processes carrying a dead run's tag and leaves others alone", async () => {
    const tag = `test-${process.pid}-${Date.now()}`
    const orphan = sleeper(tag)
    const bystander = sleeper(`other-${tag}`)
    await startTime(orphan.pid!)
    const result = await cleanUpOrphans(state(deadOwner(), tag))
    expect(result.killed).toContain(orphan.pid)
    expect(result.survivors).toEqual([])
    expect(isProcessAlive(orphan.pid!)).toBe(false)
    expect(isProcessAlive(bystander.pid!)).toBe(true)
  })

  it('does nothing while the recorded owner still runs: its processes are its own', async () => {
    const tag = `live-${process.pid}-${Date.now()}`
    const owner = sleeper()
    const ownersChild = sleeper(tag)
    const result = await cleanUpOrphans(state({ pid: owner.pid!, startTime: await startTime(owner.pid!) }, tag))
    expect(result.killed).toEqual([])
    expect(isProcessAlive(ownersChild.pid!)).toBe(true)
  })

  it('kills a recorded PTY only when its start time matches: a reused pid belongs to someone else', async () => {
    const tag = `pty-${process.pid}-${Date.now()}`
    const reused = sleeper()
    const recorded = sleeper()
    const reusedStart = await startTime(reused.pid!)
    const ptys = [
      { pid: reused.pid!, startTime: String(Number(reusedStart) - 1) },
      { pid: recorded.pid!, startTime: await startTime(recorded.pid!) }
    ]
    const result = await cleanUpOrphans(state(deadOwner(), tag, ptys))
    expect(result.killed).toContain(recorded.pid)
    expect(result.killed).not.toContain(reused.pid)
    expect(isProcessAlive(reused.pid!)).toBe(true)
  })
})
