import { spawn } from 'node:child_process'
import { afterEach, describe, expect, it } from 'vitest'
import { listDescendantPids, listTreeFromChildren } from './procfs'
import { killProcessTree } from './killTree'

let root: number | undefined
afterEach(async () => {
  if (root) await killProcessTree(root)
  root = undefined
})

describe('listTreeFromChildren', () => {
  it('finds a process and its descendants, as a walk of one snapshot does', async () => {
    const child = spawn('bash', ['-c', '(sleep 30 & wait) & sleep 30 & echo ready; wait'], {
      stdio: ['ignore', 'pipe', 'ignore']
    })
    root = child.pid!
    await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()))
    // the subshell forks its sleep on its own time: wait until the whole tree is there
    const deadline = Date.now() + 30_000
    while (listDescendantPids(root).length < 3 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20))
    const tree = listTreeFromChildren(root)
    expect(tree).toBeDefined()
    // bash, its subshell, and the two sleeps
    expect(new Set(tree)).toEqual(new Set([root, ...listDescendantPids(root)]))
    expect(tree!.length).toBe(4)
  })

  it('gives nothing for a process that does not exist', () => {
    expect(listTreeFromChildren(2 ** 22 + 7)).toEqual([])
  })
})
