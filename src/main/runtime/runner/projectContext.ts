import { execFile } from 'node:child_process'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { promisify } from 'node:util'

const run = promisify(execFile)

/** Project instruction files read from the workspace root, in this order (CLAUDE.md for compatibility with Claude Code). */
export const INSTRUCTION_FILES = ['CLAUDE.md', 'AGENTS.md', '.swarmdesk/SWARMDESK.md'] as const

/** Cap on each instruction file, in characters: a huge file must not eat the context window. */
const MAX_INSTRUCTIONS_CHARS = 40_000

/**
 * The workspace's project instructions as one text block, each file under its own heading;
 * undefined when there are none. Files that cannot be read are skipped (they are optional).
 */
export async function loadProjectInstructions(cwd: string): Promise<string | undefined> {
  const parts: string[] = []
  for (const name of INSTRUCTION_FILES) {
    try {
      let text = await readFile(join(cwd, name), 'utf8')
      if (text.length > MAX_INSTRUCTIONS_CHARS)
        text = text.slice(0, MAX_INSTRUCTIONS_CHARS) + `\n[… ${name} truncated at ${MAX_INSTRUCTIONS_CHARS} characters]`
      parts.push(`Contents of ${join(cwd, name)}:\n\n${text.trim()}`)
    } catch {
      // absent: nothing to add
    }
  }
  return parts.length > 0 ? `# Project instructions\n\n${parts.join('\n\n')}` : undefined
}

/**
 * A snapshot of the repository's state at session start (branch, short status capped at 40
 * lines, last 5 commits); undefined outside a git repository. Taken once: it is part of the
 * cached prompt prefix, so it must not change during the session.
 */
export async function gitStatusSnapshot(cwd: string): Promise<string | undefined> {
  const git = async (...args: string[]): Promise<string> =>
    (
      await run('git', args, {
        cwd,
        env: { ...process.env, GIT_PAGER: 'cat', GIT_TERMINAL_PROMPT: '0' },
        timeout: 10_000
      })
    ).stdout.trim()
  try {
    await git('rev-parse', '--is-inside-work-tree')
  } catch {
    return undefined
  }
  const branch = await git('rev-parse', '--abbrev-ref', 'HEAD').catch(() => '(no commits yet)')
  const status = await git('status', '--short').catch(() => '')
  const lines = status.split('\n').filter(Boolean)
  const shown = lines.slice(0, 40).join('\n') + (lines.length > 40 ? `\n… and ${lines.length - 40} more` : '')
  const log = await git('log', '--oneline', '-5').catch(() => '(no commits yet)')
  return `# Git status at session start\nCurrent branch: ${branch}\n\nStatus:\n${shown || '(clean)'}\n\nRecent commits:\n${log || '(none)'}`
}

/** The environment block: working directory, platform, date. `date` is injectable for tests. */
export function environmentContext(cwd: string, isGitRepo: boolean, model: string, date = new Date()): string {
  return [
    '# Environment',
    `Working directory: ${cwd}`,
    `Is a git repository: ${isGitRepo ? 'yes' : 'no'}`,
    `Platform: ${process.platform}`,
    `Date: ${date.toISOString().slice(0, 10)}`,
    `Model: ${model}`
  ].join('\n')
}
