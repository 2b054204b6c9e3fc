import { homedir } from 'node:os'
import { join, resolve } from 'node:path'

/** Claude Code's config folder: `CLAUDE_CONFIG_DIR` (a relative one read from the working directory), else `~/.claude`. */
export function claudeConfigDir(env: NodeJS.ProcessEnv = process.env): string {
  return env.CLAUDE_CONFIG_DIR ? resolve(env.CLAUDE_CONFIG_DIR) : join(homedir(), '.claude')
}
