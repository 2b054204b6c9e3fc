/** Errors of team config; one base, subclassed by blame; `name` survives IPC. */
export class TeamError extends Error {
  override name = 'TeamError'
}

/** A team or member name that is not usable: empty after sanitising, or shaped like a path. */
export class TeamNameError extends TeamError {
  override name = 'TeamNameError'
}

/** No config for this team. */
export class TeamNotFoundError extends TeamError {
  override name = 'TeamNotFoundError'
  constructor(readonly team: string) {
    super(`Team '${team}' does not exist.`)
  }
}

/** A team with this name already exists (create never overwrites). */
export class TeamExistsError extends TeamError {
  override name = 'TeamExistsError'
  /** `why`: what keeps the existing team (its live leader), said after the name. */
  constructor(
    readonly team: string,
    why?: string
  ) {
    super(`Team '${team}' already exists${why ? `: ${why}` : ''}.`)
  }
}

/** A member name that is taken, or one that is not in the team. */
export class TeamMemberError extends TeamError {
  override name = 'TeamMemberError'
}

/** Delete refused: teammates are still active. Shut them down first. */
export class TeamActiveError extends TeamError {
  override name = 'TeamActiveError'
  constructor(
    readonly team: string,
    readonly active: string[]
  ) {
    super(`Team '${team}' still has active members: ${active.join(', ')}. Shut them down first.`)
  }
}

/** The config file exists but is not a valid team config (file named). */
export class TeamFileError extends TeamError {
  override name = 'TeamFileError'
  constructor(
    readonly file: string,
    readonly problem: string
  ) {
    super(`${file}: ${problem}`)
  }
}

/** Refused: the team's leader session is alive (in this process or another), so the team is not stale. */
export class TeamLeaderAliveError extends TeamError {
  override name = 'TeamLeaderAliveError'
  constructor(
    readonly team: string,
    readonly sessionId: string,
    readonly pid: number
  ) {
    super(
      `Team '${team}' is led by session ${sessionId}, alive in process ${pid}: it is not stale. Delete it from that session (TeamDelete), or end that session first.`
    )
  }
}
