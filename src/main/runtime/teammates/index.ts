/**
 * Teammates of the `process` backend (SPEC §9.5, §9.7, §14 `swarmdesk teammate`): one teammate
 * per process, identity from the team config and the environment, messages, tasks and permission
 * requests through the team's files.
 */
export { runTeammate, TeammateNotFoundError, type TeammateExit, type TeammateRunOptions } from './runner'
export { createMailboxPrompter, type MailboxPrompterOptions } from './mailboxPrompter'
export { teammateRolePrompt } from './prompt'
