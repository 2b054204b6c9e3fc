import { readFileSync } from 'node:fs'
import { listDescendantPids } from '../../src/main/runtime/processes'

/** RSS of one process in bytes (VmRSS of /proc/<pid>/status), 0 when it has ended. */
function rssBytes(pid: number): number {
  try {
    const m = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))
    return m ? Number(m[1]) * 1024 : 0
  } catch {
    return 0
  }
}

/** RSS of `root` and every live descendant, in bytes, at this moment (Linux /proc). */
export function treeRssBytes(root: number): number {
  return [root, ...listDescendantPids(root)].reduce((n, pid) => n + rssBytes(pid), 0)
}

/**
 * Samples the process tree of `root` every `everyMs` until `stop()` is called; `stop()` returns
 * the peak RSS seen, in bytes (0 when no sample was taken: the process ended first), and
 * `peak()` the peak so far (a fresh sample included) while sampling goes on.
 */
export function sampleTreePeak(root: number, everyMs = 50): { peak(): number; stop(): number } {
  let peak = 0
  const take = () => {
    peak = Math.max(peak, treeRssBytes(root))
  }
  take()
  const timer = setInterval(take, everyMs)
  return {
    peak() {
      take()
      return peak
    },
    stop() {
      clearInterval(timer)
      return peak
    }
  }
}
