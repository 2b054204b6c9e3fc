import { existsSync } from 'node:fs'
import { canonicalPath } from '../../runtime/permissions'
import { AllowedPathError, editAllowedPaths } from '../../runtime/teammates'
import { parseCommandArgs, UsageError } from '../io'
import { commandTransport, TEAM_TRANSPORT_FLAG, withCommandStore } from '../teamTransport'
import { teamCommandFailure } from './teamFailure'

/** The usage lines of `team allow|disallow`, part of `swarmdesk team`'s. */
export const TEAM_PATHS_USAGE = `     swarmdesk team allow --team T DIR [--team-transport URL]      let every teammate read and edit
                                      in DIR without asking (the team's allowed paths)
     swarmdesk team disallow --team T DIR [--team-transport URL]   take DIR off them`

/**
 * `swarmdesk team allow|disallow --team T DIR` (docs/teams.md#allowed-paths): adds a directory to
 * the team's allowed paths, or takes one off, on the team store of `--team-transport` (files by
 * default). DIR is resolved against the working directory. Prints the paths after the change.
 * Allowing a DIR that does not exist here adds it with a warning on stderr (it may be made later,
 * or be there on a teammate's host).
 * Exit codes: 0; 1 an unusable server or unreadable config; 2 bad usage, an unknown team, a
 * path that cannot be allowed (empty, `/`, a file), or disallowing one the team does not have
 * (nothing changes; as `mcp remove` of a server no scope has).
 */
export async function teamPathsCommand(sub: 'allow' | 'disallow', argv: string[]): Promise<number> {
  const command = `team ${sub}`
  const { values, positionals } = parseCommandArgs(
    command,
    argv,
    { team: { type: 'string' }, ...TEAM_TRANSPORT_FLAG },
    true
  )
  if (!values.team) throw new UsageError(`swarmdesk ${command}: --team is required.\n${TEAM_PATHS_USAGE}`)
  if (positionals.length !== 1)
    throw new UsageError(`swarmdesk ${command}: give exactly one directory.\n${TEAM_PATHS_USAGE}`)
  const team = values.team
  const dir = positionals[0]!
  const transport = commandTransport(command, values['team-transport'])
  const code = await withCommandStore(command, transport, async (store) => {
    try {
      const canonical = await canonicalPath(dir, process.cwd()).catch(() => undefined)
      if (sub === 'disallow' && canonical && !(await store.config.read(team)).allowedPaths.includes(canonical))
        throw new AllowedPathError(
          `${canonical} is not among the allowed paths of team '${team}': nothing changed (swarmdesk team show --team ${team} lists them).`
        )
      const paths = await editAllowedPaths(store, team, sub === 'allow' ? { add: dir } : { remove: dir }, process.cwd())
      if (sub === 'allow' && canonical && !existsSync(canonical))
        process.stderr.write(
          `swarmdesk ${command}: warning: ${canonical} does not exist on this machine; it is allowed all the same, for when it is made or for a teammate on another host.
`
        )
      process.stdout.write(
        paths.length
          ? `Allowed paths of team '${team}':\n${paths.map((p) => `  ${p}`).join('\n')}\n`
          : `Team '${team}' has no allowed paths.\n`
      )
      return 0
    } catch (error) {
      // bad usage is thrown on, after the store is closed
      return teamCommandFailure(command, error, [AllowedPathError])
    }
  })
  return code
}
