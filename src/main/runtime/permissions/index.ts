/**
 * Permissions (SPEC §4): settings, trust, rules, canonical paths, Bash analysis and the engine.
 *
 * Choices where SPEC §4 leaves room:
 * - Protected paths (`.git/`, `.swarmdesk/`, `.claude/` below the agent's root, shell rc files
 *   anywhere, the loaded settings files and `<home>/trusted.json`) ask in every mode but bypass,
 *   also in acceptEdits. An allow rule opens one only by naming it (`Edit(./.git/hooks/**)`,
 *   `Edit(.bashrc)`); a generic `Edit` or `Edit(./**)` does not. Deny rules still deny.
 * - An allow rule covers the command, not its side effects: what a rule-allowed command writes
 *   (redirections, `sed -i`, `tee`, `rm`'s arguments…) is judged as acceptEdits would — allowed
 *   inside the workspace, asked when protected or outside, denied by Edit deny rules; code it
 *   runs (`sed e`, `find -exec`, `xargs`, `bash -c`, `--upload-pack`…) is judged as Bash.
 * - Deny and ask Bash rules also match a command given by path (`/bin/rm` ~ `Bash(rm:*)`);
 *   allow rules match as written.
 * - Constructs the lexer does not model (loops, `case`, functions, `[[`, arithmetic commands,
 *   heredocs with substitutions) ask as a whole, even when a part would be denied.
 * - In plan mode a Bash part that is not known to be read-only, or cannot be classified, is
 *   denied; reads decide as in default mode.
 * - bypassPermissions skips ask rules too (SPEC: "everything, deny rules still apply").
 * - From an untrusted project, `permissions.additionalDirectories` is ignored too (it widens
 *   what modes allow), next to hooks, env, base URL keys and `defaultMode: bypassPermissions`.
 * - An empty specifier (`Bash()`) is a settings error, never a match-all.
 * - In bypassPermissions, a Bash part that cannot be classified is denied while any Bash, Read,
 *   Edit or Write deny rule is in force (it might be one they deny, and nobody can be asked);
 *   with no such rule it is allowed.
 * - A recursive read (the Grep tool, `grep -r`, `rg`) of a directory with files a deny rule covers
 *   below it asks (denied in bypassPermissions); a search of a narrower path does not.
 * - Invisible and bidirectional formatting characters in a command ask, like control characters.
 * - Protected names compare without case on every file system; on a case-insensitive one
 *   (`fileSystemCase`) paths take their on-disk spelling and rules compare without case.
 * - Long options match by any prefix, as GNU getopt and git's parse-options accept them.
 */
export { PermissionEngine, type DecideContext } from './engine'
export { loadPermissionSettings, readSettingsFile, untrustedKeys, type LoadedSettings, type LoadSettingsOptions, type SettingsScope, type SettingsSource } from './settings'
export { isWorkspaceTrusted, trustStatus, trustWorkspace, untrustWorkspace, TrustFileSchema, type TrustFile } from './trust'
export { PermissionsError, SettingsError, TrustFileError } from './errors'
export { parseRule, RuleSyntaxError, type PermissionRule } from './rules'
export { canonicalPath, fileSystemCase, isWithin, protectedReason, PROTECTED_DIRS, SHELL_RC_FILES } from './paths'
export { suggestRules } from './suggest'
export { PermissionDecisionLog, PermissionDecisionRecordSchema, type PermissionDecisionRecord } from './decisionLog'
export { SettingsFileSchema, type SettingsFile } from './settingsSchema'
export type { PermissionPrompter } from './prompter'
