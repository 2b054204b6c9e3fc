import { readFileSync } from 'node:fs'

/** Who holds a lock: a process, told apart from a later process reusing its pid by its start time. */
export interface LockOwner {
  pid: number
  /**
   * Field 22 of `/proc/<pid>/stat` (clock ticks since boot), as a string; `null` where `/proc` is
   * missing (then only the pid is checked).
   */
  startTime: string | null
}

/** Why an owner counts as gone: its pid is dead (or a zombie), or the pid now belongs to another process. */
export type OwnerGoneReason = 'owner_dead' | 'pid_reused'

interface ProcStat {
  state: string
  startTime: string
}

/**
 * Reads `/proc/<pid>/stat`. The command name (field 2) may contain spaces and parentheses, so the
 * fields are counted from the last `)`: state is field 3, start time field 22 (proc(5)).
 */
function readProcStat(pid: number): ProcStat | undefined | null {
  let text: string
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8')
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'ENOENT' || code === 'ESRCH') return undefined
    return null
  }
  const rest = text.slice(text.lastIndexOf(')') + 2).split(' ')
  return { state: rest[0], startTime: rest[19] }
}

let selfOwner: LockOwner | undefined

/** This process as a lock owner. */
export function currentOwner(): LockOwner {
  selfOwner ??= { pid: process.pid, startTime: readProcStat(process.pid)?.startTime ?? null }
  return selfOwner
}

/**
 * Whether `owner` is gone, and why; `undefined` while it lives. Zombies (state Z/X: killed but not
 * yet reaped) are dead. Without `/proc`, `kill(pid, 0)` decides (EPERM means alive).
 */
export function ownerGone(owner: LockOwner): OwnerGoneReason | undefined {
  const stat = readProcStat(owner.pid)
  if (stat === undefined) return 'owner_dead'
  if (stat === null) {
    try {
      process.kill(owner.pid, 0)
      return undefined
    } catch (error) {
      return (error as NodeJS.ErrnoException).code === 'EPERM' ? undefined : 'owner_dead'
    }
  }
  if (stat.state === 'Z' || stat.state === 'X') return 'owner_dead'
  if (owner.startTime !== null && stat.startTime !== owner.startTime) return 'pid_reused'
  return undefined
}
