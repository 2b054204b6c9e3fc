import { type PtyHost } from '../../pty/types'
import { createBackgroundShells } from '../../pty/backgroundShells'
import { FileStateCache } from '../files/fileState'
import type { ToolContext } from '../types'

/**
 * Test support: a ToolContext for the shell tools over a real PTY host, with its own background
 * shell registry; `streamed()` is everything that reached the pane (`onOutput`).
 */
export function shellToolContext(
  host: PtyHost,
  cwd: string,
  signal = new AbortController().signal
): ToolContext & { streamed(): string } {
  let streamed = ''
  return {
    agentId: 'a0000000000000001',
    agentName: 'tester',
    cwd,
    signal,
    fileState: new FileStateCache(),
    pty: host,
    shells: createBackgroundShells(host),
    toolUseId: 'toolu_test',
    onOutput: (data) => {
      streamed += data
    },
    streamed: () => streamed
  }
}
