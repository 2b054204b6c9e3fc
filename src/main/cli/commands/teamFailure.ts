import { TeamError, TeamNameError, TeamNotFoundError } from '../../runtime/teams'
import { UsageError } from '../io'

/**
 * How a `swarmdesk team …` command ends on a team store error (docs/events.md#event-stream-and-command-line):
 * a team that does not exist or a bad name is bad usage (the UsageError thrown, exit 2), as is an
 * error of a class in `usage`; any other TeamError (a live leader, an unreadable config) is written
 * to stderr after `swarmdesk <command>:` and returns exit code 1.
 * @throws UsageError as said; anything that is not a TeamError, unchanged.
 */
export function teamCommandFailure(
  command: string,
  error: unknown,
  usage: ReadonlyArray<new (...args: never[]) => Error> = []
): 1 {
  if (error instanceof TeamNotFoundError || error instanceof TeamNameError || usage.some((c) => error instanceof c))
    throw new UsageError(`swarmdesk ${command}: ${(error as Error).message}`)
  if (error instanceof TeamError) {
    process.stderr.write(`swarmdesk ${command}: ${error.message}\n`)
    return 1
  }
  throw error
}
