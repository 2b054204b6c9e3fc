import { afterEach, beforeEach } from 'vitest'
import { makeTempDir, makeToolContext } from '../tools.testkit'
import type { ToolContext } from '../types'

/**
 * The folder the current test's file tools work in: a fresh temporary directory (its realpath),
 * set before each test by {@link useToolFolder}. A live binding: read it inside a test or hook.
 */
export let dir: string
/** A tool context working in {@link dir}, with its own file-state cache; replaced before each test. */
export let ctx: ToolContext
let cleanup: (() => Promise<void>) | undefined

/**
 * Gives each test of the calling file a fresh {@link dir} and {@link ctx}, and removes the folder
 * with everything in it after the test. Call once, at the top of a test file.
 */
export function useToolFolder(): void {
  beforeEach(async () => {
    ;({ dir, cleanup } = await makeTempDir())
    ctx = makeToolContext(dir)
  })
  afterEach(async () => {
    await cleanup?.()
    cleanup = undefined
  })
}
