export { LEAD_NAME, TeamStore, uniqueMemberName, type MemberPatch, type NewMember, type NewTeam } from './store'
export { TeamActiveError, TeamError, TeamExistsError, TeamFileError, TeamMemberError, TeamNameError, TeamNotFoundError } from './errors'
export { safeName } from './names'
