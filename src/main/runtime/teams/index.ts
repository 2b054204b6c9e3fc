export {
  LEAD_NAME,
  newTeamConfig,
  TeamStore,
  uniqueMemberName,
  withMember,
  withMemberPatch,
  withoutMember,
  type MemberPatch,
  type NewMember,
  type NewTeam,
  type StaleTeamRemoval
} from './store'
export {
  TeamActiveError,
  TeamError,
  TeamExistsError,
  TeamFileError,
  TeamLeaderAliveError,
  TeamMemberError,
  TeamNameError,
  TeamNotFoundError
} from './errors'
export {
  claimLeadership,
  leaderLeasePath,
  leaderStatus,
  readLeaderLease,
  releaseLeadership,
  type LeaderLease,
  type LeaderStatus
} from './leader'
export { killTeamLeftovers, runningTeammates, type LeftoverKill } from './leftovers'
export { safeName } from './names'
export { watchTeamConfig, type TeamConfigChange } from './watch'
