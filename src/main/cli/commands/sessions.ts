import { realpathSync, statSync } from 'node:fs'
import { resolve } from 'node:path'
import { swarmdeskHome } from '../../runtime/storage'
import { listSessions } from '../../runtime/transcripts'
import { parseCommandArgs, UsageError } from '../io'

/** `swarmdesk sessions list [--cwd DIR] [--json]` (docs/events.md#the-command-line). */
export async function sessionsCommand(argv: string[]): Promise<number> {
  const [sub, ...rest] = argv
  if (sub !== 'list')
    throw new UsageError(
      `swarmdesk sessions: unknown subcommand '${sub ?? ''}'. Use: swarmdesk sessions list [--cwd DIR] [--json]`
    )
  const { values } = parseCommandArgs('sessions list', rest, { cwd: { type: 'string' }, json: { type: 'boolean' } })
  const cwd = resolve(values.cwd ?? process.cwd())
  let root: string
  try {
    root = realpathSync(cwd)
    if (!statSync(root).isDirectory()) throw new Error('not a directory')
  } catch {
    // as `run` does: a mistyped --cwd must not look like a workspace without sessions
    throw new UsageError(
      `swarmdesk sessions list: --cwd ${cwd} does not exist or is not a directory. Give the workspace folder (default: the current directory).`
    )
  }
  const sessions = listSessions(swarmdeskHome(), root)
  if (values.json) {
    process.stdout.write(JSON.stringify(sessions) + '\n')
    return 0
  }
  if (sessions.length === 0) {
    process.stdout.write('No sessions for this workspace yet.\n')
    return 0
  }
  for (const s of sessions) {
    process.stdout.write(
      `${s.sessionId}  ${s.lastActivity}  ${String(s.entries).padStart(4)} lines  ${s.firstPrompt ?? ''}\n`
    )
  }
  return 0
}
