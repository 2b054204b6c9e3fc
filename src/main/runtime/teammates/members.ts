import type { TeamMember } from '../../../shared/teams'
import { withMember, withoutMember, type NewMember } from '../teams'
import type { TeamConfigPort } from '../teamStore'

/**
 * Adds a member to the team's config through the team store (docs/nats.md#the-team-store): the
 * change `TeamStore.addMember` writes on files, made with `config.update` on any transport.
 * @throws TeamMemberError when the name is taken; TeamNotFoundError.
 */
export async function addMember(config: TeamConfigPort, team: string, input: NewMember): Promise<TeamMember> {
  let added!: TeamMember
  await config.update(team, (c) => {
    const next = withMember(c, input)
    added = next.added
    return next.config
  })
  return added
}

/** Removes a member through the team store. @throws TeamMemberError when there is none; TeamNotFoundError. */
export async function removeMember(config: TeamConfigPort, team: string, name: string): Promise<void> {
  await config.update(team, (c) => withoutMember(c, name))
}
