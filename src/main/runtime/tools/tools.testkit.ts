import { type BackgroundShells, type PtyHost } from '../pty/types'
import { mkdtemp, realpath, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { FileStateCache } from './files/fileState'
import type { ToolContext } from './types'

/**
 * A {@link ToolContext} for tests of file tools: a fresh file-state cache, a fresh AbortSignal,
 * `toolUseId: 'toolu_test'`. `pty` and `shells` throw when used, so a file tool that reaches for
 * a terminal fails its test loudly; pass real ones in `overrides` to test Bash.
 * @param cwd the agent root (absolute); relative tool paths resolve here.
 */
export function makeToolContext(cwd: string, overrides: Partial<ToolContext> = {}): ToolContext {
  return {
    agentId: 'agent-test',
    agentName: 'test',
    cwd,
    signal: new AbortController().signal,
    fileState: new FileStateCache(),
    pty: unavailable<PtyHost>('pty'),
    shells: unavailable<BackgroundShells>('shells'),
    toolUseId: 'toolu_test',
    ...overrides
  }
}

/** An object whose every property access throws, naming what the test did not provide. */
function unavailable<T extends object>(what: string): T {
  return new Proxy({} as T, {
    get(_target, property) {
      throw new Error(`makeToolContext: ctx.${what}.${String(property)} used, but no ${what} was given in overrides`)
    }
  })
}

/**
 * A fresh temporary directory (its realpath, so paths in tool output compare equal) and a
 * function that removes it with everything in it.
 */
export async function makeTempDir(prefix = 'swarmdesk-tools-'): Promise<{ dir: string; cleanup: () => Promise<void> }> {
  const dir = await realpath(await mkdtemp(join(tmpdir(), prefix)))
  return { dir, cleanup: () => rm(dir, { recursive: true, force: true }) }
}
