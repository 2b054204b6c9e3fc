/** The OS sandbox for Bash (docs/permissions.md#the-bash-sandbox). */
export { blockedWrites, isExcludedCommand, sandboxAvailability, sandboxedCommand, type SandboxScope } from './bwrap'
export { sandboxRoute, type SandboxRoute } from './route'
