import type { Task } from '../../../shared/tasks'

/**
 * A dependency cycle, as the task ids met going round it from the task being changed, that task
 * again last: `[1, 2, 1]` reads "#1 waits for #2, which waits for #1". Empty when there is none.
 */
export type TaskCycle = number[]

/** `#1 → #2 → #1`: how a cycle is written in errors (an arrow reads "waits for"). */
export function formatCycle(cycle: TaskCycle): string {
  return cycle.map((id) => `#${id}`).join(' → ')
}

/**
 * The cycle that adding `edges` to the task list would close, or `[]`. An edge `[a, b]` says
 * task `a` waits for task `b` (`b` is in `a.blockedBy`, `a` in `b.blocks`); the existing graph is
 * read from both sides of every link, so a half-written pair (a crash between the two files) still
 * counts. A cycle blocks each of its tasks forever (none can be claimed before the others are
 * completed, docs/teams.md#shared-task-list), so it is refused before anything is written. The cycle returned is a
 * shortest one and starts and ends at `start` (the task being changed: every new edge touches it).
 */
export function findCycle(
  tasks: Iterable<Task>,
  edges: ReadonlyArray<readonly [number, number]>,
  start: number
): TaskCycle {
  const waitsFor = new Map<number, Set<number>>()
  const add = (a: number, b: number) => {
    let set = waitsFor.get(a)
    if (!set) waitsFor.set(a, (set = new Set()))
    set.add(b)
  }
  for (const t of tasks) {
    for (const b of t.blockedBy) add(t.id, b)
    for (const b of t.blocks) add(b, t.id)
  }
  for (const [a, b] of edges) add(a, b)
  // a cycle through `start` exists iff `start` is reachable from one of the tasks it waits for;
  // breadth first, so the cycle named is a shortest one
  const parent = new Map<number, number>()
  const queue = [start]
  const seen = new Set<number>([start])
  while (queue.length > 0) {
    const at = queue.shift() as number
    for (const next of [...(waitsFor.get(at) ?? [])].sort((x, y) => x - y)) {
      if (next === start) {
        const path = [at]
        while (path[0] !== start) path.unshift(parent.get(path[0]) as number)
        return [...path, start]
      }
      if (seen.has(next)) continue
      seen.add(next)
      parent.set(next, at)
      queue.push(next)
    }
  }
  return []
}
