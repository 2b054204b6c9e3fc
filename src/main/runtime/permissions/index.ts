/**
 * Permissions (docs/permissions.md#permissions): settings, trust, rules, canonical paths, Bash analysis and the engine.
 *
 * Choices where docs/permissions.md#permissions leaves room:
 * - Protected paths (`.git/`, `.swarmdesk/`, `.claude/` below the agent's root, shell rc files
 *   anywhere, the loaded settings files and `<home>/trusted.json`) ask in every mode but bypass,
 *   also in acceptEdits. An allow rule opens one only by naming it (`Edit(./.git/hooks/**)`,
 *   `Edit(.bashrc)`); a generic `Edit` or `Edit(./**)` does not. Deny rules still deny.
 * - An allow rule covers the command, not its side effects: every file a rule-allowed command
 *   writes (redirections, `tee`, `sed -i`/`w`, `sort -o`, `find -delete`/`-fprint*`, `rm`/`cp`/`mv`
 *   and the other file commands' operands, `curl -o`, `wget -O`, `tar -cf`, `git --output`/`-o`,
 *   `perl -i`…) is decided exactly as an Edit of that path: in default mode it asks (unless an
 *   Edit allow rule covers it), in acceptEdits it is allowed inside the workspace, outside it asks,
 *   Edit deny rules deny it. Code it runs (`sed e`, `find -exec`, `xargs`, `bash -c`,
 *   `--upload-pack`…) is judged as Bash. What it writes that the engine cannot name — an
 *   archive's members (`tar -x`, `unzip`), a server's file names (`wget`, `curl -J`), inline code
 *   in a language it does not parse (`awk` programs that redirect or call `system()`, `perl -e`,
 *   `python -c`, `node -e`), arguments fed by `xargs` — asks, whatever rule allows the command.
 *   A script file (`perl fix.pl`, `npm test`) is the command itself.
 * - A recursive write (`rm -r`, `chmod -R`, `find -delete`, `find -exec` on what it finds, an rsync
 *   destination, where tar/unzip extract) also asks when an Edit deny rule covers files below the
 *   directory, or when the agent's own `.git/`, `.swarmdesk/`, `.claude/` or a settings file lies
 *   below it (`rm -rf .`); deeper nested repositories and rc files are not searched for.
 * - A redirection to `/dev/tcp/…` or `/dev/udp/…` opens a network connection: it asks.
 * - Deny and ask Bash rules also match a command given by path (`/bin/rm` ~ `Bash(rm:*)`);
 *   allow rules match as written.
 * - Constructs the lexer does not model (loops, `case`, functions, `[[`, arithmetic commands,
 *   heredocs with substitutions) ask as a whole, even when a part would be denied.
 * - In plan mode a Bash part that is not known to be read-only, or cannot be classified, is
 *   denied; reads decide as in default mode.
 * - bypassPermissions skips ask rules too ("everything, deny rules still apply").
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
export {
  loadPermissionSettings,
  loadWorkspaceSettings,
  readSettingsFile,
  settingsSourceFiles,
  untrustedKeys,
  type LoadedSettings,
  type LoadSettingsOptions,
  type SettingsScope,
  type SettingsSource
} from './settings'
export {
  isWorkspaceTrusted,
  trustPath,
  trustStatus,
  trustWorkspace,
  untrustWorkspace,
  TrustFileSchema,
  type TrustFile
} from './trust'
export { PermissionsError, SettingsError, TrustFileError } from './errors'
export { parseRule, RuleSyntaxError, type PermissionRule } from './rules'
export { canonicalPath, fileSystemCase, isWithin, protectedReason, PROTECTED_DIRS, SHELL_RC_FILES } from './paths'
export { suggestRules } from './suggest'
export { PermissionDecisionLog, PermissionDecisionRecordSchema, type PermissionDecisionRecord } from './decisionLog'
export { SettingsFileSchema, type SettingsFile } from './settingsSchema'
export type { PermissionPrompter } from './prompter'
export { teammateMode, TeammateModeError } from './teammateMode'
export { fieldPath, fixHint } from './settingsSchema'
export { effectiveSandbox, sandboxDefaults, type SandboxSettings } from './sandboxSettings'
export { SandboxBlockSchema, type SandboxBlock } from './settingsSchema'
export { parseShell, prepareShellGrammar } from './shellGrammar'
