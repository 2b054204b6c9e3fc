import { accessSync, constants, statSync } from 'node:fs'
import { delimiter, isAbsolute, join } from 'node:path'

/** The person's `claude` could not be found or run; the message says where it looked and what to do. */
export class ClaudeNotFoundError extends Error {
  override readonly name = 'ClaudeNotFoundError'
}

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK)
    return statSync(path).isFile()
  } catch {
    return false
  }
}

/**
 * The `claude` program a Claude Code session runs (docs/claude-code.md#sessions-in-panes): the
 * configured path (`--claude-path`) when given, else the first
 * executable `claude` on `PATH`.
 * @throws ClaudeNotFoundError when the configured path is not an executable file, or no `claude` is on PATH.
 */
export function findClaude(configured: string | undefined, env: NodeJS.ProcessEnv): string {
  if (configured) {
    if (!isAbsolute(configured))
      throw new ClaudeNotFoundError(`The configured claude path '${configured}' is not absolute: give its full path.`)
    if (!executable(configured))
      throw new ClaudeNotFoundError(
        `The configured claude path '${configured}' is not an executable file: fix --claude-path.`
      )
    return configured
  }
  for (const dir of (env.PATH ?? '').split(delimiter).filter(Boolean)) {
    const candidate = join(dir, 'claude')
    if (executable(candidate)) return candidate
  }
  throw new ClaudeNotFoundError(
    'No claude program on PATH. Install Claude Code (npm install -g @anthropic-ai/claude-code) or start Swarmdesk with --claude-path FILE (its full path).'
  )
}
