import { readFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import type { PermissionMode } from '../../../shared/permissions'
import { RunUsageError } from '../base'
import { SettingsError } from './errors'
import { canonicalPath } from './paths'
import { parseRule, RuleSyntaxError, type PermissionRule } from './rules'
import { fieldPath, fixHint, SettingsFileSchema, type SettingsFile } from './settingsSchema'
import { trustPath, trustStatus } from './trust'
import { dropLooseningSandboxKeys, mergeSandboxBlock, sandboxDefaults, type SandboxSettings } from './sandboxSettings'

/** Where a settings file sits in the precedence order (lowest first). */
export type SettingsScope = 'user' | 'project' | 'local' | 'session'

/** One loaded file. Keys ignored for lack of trust are removed from `data`. */
export interface SettingsSource {
  path: string
  scope: SettingsScope
  /** False for project/local files of an untrusted workspace. */
  trusted: boolean
  data: SettingsFile
}

/** Every settings source merged (docs/permissions.md#permissions): rule lists unioned, single values from the highest source. */
export interface LoadedSettings {
  workspace: string
  home: string
  userHome: string
  rules: { allow: PermissionRule[]; ask: PermissionRule[]; deny: PermissionRule[] }
  defaultMode: Exclude<PermissionMode, 'bubble'>
  /** Canonical directories treated like the workspace for reads and (in acceptEdits) edits. */
  additionalDirectories: string[]
  env: Record<string, string>
  /** Raw hooks per source, lowest first; the hooks subsystem validates them. */
  hooks: Array<{ source: string; hooks: Record<string, unknown> }>
  apiBaseUrl?: string
  /** The Bash sandbox (docs/permissions.md#the-bash-sandbox), defaults filled in. */
  sandbox: SandboxSettings
  /** Keys ignored for lack of trust, each naming the key and the file. */
  warnings: string[]
  sources: SettingsSource[]
  /** Settings and trust files: edits to them are protected. */
  protectedFiles: string[]
}

/** Inputs of {@link loadPermissionSettings}. `home` is SWARMDESK_HOME or ~/.swarmdesk, resolved by the caller. */
export interface LoadSettingsOptions {
  cwd: string
  home: string
  /** `--settings FILE` files, in the order given (later ones win single values). */
  extraSettingsFiles?: string[]
  /** `--trust-project`: trust the workspace for this session only. */
  trustProject?: boolean
  /** For `~/` specifiers; defaults to os.homedir(). */
  userHome?: string
  /**
   * Files read in place of the user settings (`<home>/settings.json`) and the local settings
   * (`<cwd>/.swarmdesk/settings.local.json`), each in its own scope: a teammate on another host
   * reads the leader's copies (docs/hosts.md#the-sessions-settings-on-the-host).
   */
  sources?: SettingsSourceFiles
}

/** See {@link LoadSettingsOptions.sources}. */
export interface SettingsSourceFiles {
  userFile?: string
  localFile?: string
}

/** Keys a workspace's own settings may only set once trusted (docs/permissions.md#permissions "Project trust"). */
const BASE_URL_KEY = /base_?url/i

/**
 * The settings files of a workspace, lowest precedence first (docs/permissions.md#permissions):
 * `<home>/settings.json`, `<workspace>/.swarmdesk/settings.json`, `<workspace>/.swarmdesk/settings.local.json`
 * and each `--settings` file (resolved against `cwd`), whether they exist or not. `workspace` is
 * the canonical workspace; `cwd` resolves the `--settings` files (the workspace when not given).
 */
export function settingsSourceFiles(opts: {
  workspace?: string
  cwd: string
  home: string
  extraSettingsFiles?: string[]
  sources?: SettingsSourceFiles
}): Array<{ path: string; scope: SettingsScope }> {
  const workspace = opts.workspace ?? opts.cwd
  return [
    { path: opts.sources?.userFile ?? path.join(opts.home, 'settings.json'), scope: 'user' },
    { path: path.join(workspace, '.swarmdesk', 'settings.json'), scope: 'project' },
    { path: opts.sources?.localFile ?? path.join(workspace, '.swarmdesk', 'settings.local.json'), scope: 'local' },
    ...(opts.extraSettingsFiles ?? []).map((f) => ({ path: path.resolve(opts.cwd, f), scope: 'session' as const }))
  ]
}

/**
 * Load and merge user, project, local and session settings.
 * @throws SettingsError naming the file and field when a file is malformed (fails closed).
 */
export async function loadPermissionSettings(opts: LoadSettingsOptions): Promise<LoadedSettings> {
  const workspace = await canonicalPath(opts.cwd, '/')
  const userHome = opts.userHome ?? os.homedir()
  const trust = opts.trustProject === true ? { trusted: true } : await trustStatus(opts.home, workspace)
  const trusted = trust.trusted
  const files = settingsSourceFiles({ ...opts, workspace })
  const loaded: LoadedSettings = {
    workspace,
    home: opts.home,
    userHome,
    rules: { allow: [], ask: [], deny: [] },
    defaultMode: 'default',
    additionalDirectories: [],
    env: {},
    hooks: [],
    warnings: [],
    sources: [],
    sandbox: sandboxDefaults(),
    protectedFiles: [...files.map((f) => f.path), trustPath(opts.home)]
  }
  if (trust.problem) loaded.warnings.push(`treating ${workspace} as untrusted: ${trust.problem}`)
  let trustedAutoAllow = false
  for (const file of files) {
    const data = await readSettingsFile(file.path, file.scope === 'session')
    if (!data) continue
    const isTrusted = trusted || file.scope === 'user' || file.scope === 'session'
    if (!isTrusted) dropUntrustedKeys(data, file.path, loaded.warnings)
    loaded.sources.push({ path: file.path, scope: file.scope, trusted: isTrusted, data })
    await mergeInto(loaded, data, file.path)
    if (data.sandbox) {
      // an untrusted project turning the sandbox on must not thereby let Bash run without asking
      const enablesUntrusted = !isTrusted && data.sandbox.enabled === true && !loaded.sandbox.enabled
      mergeSandboxBlock(loaded.sandbox, data.sandbox, { workspace, userHome })
      if (enablesUntrusted && !trustedAutoAllow) loaded.sandbox.autoAllowBashIfSandboxed = false
    }
    if (isTrusted && data.sandbox?.autoAllowBashIfSandboxed === true) trustedAutoAllow = true
  }
  return loaded
}

/**
 * The parsed file, or undefined when it does not exist (a missing `--settings` file is an error).
 * @throws SettingsError naming the file and field when it is unreadable, not JSON or not a settings file.
 */
export async function readSettingsFile(file: string, required: boolean): Promise<SettingsFile | undefined> {
  let text: string
  try {
    text = await readFile(file, 'utf8')
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code
    if (code === 'ENOENT' && !required) return undefined
    throw new SettingsError(
      file,
      undefined,
      `cannot be read (${code ?? String(e)}); ${required ? 'check the --settings path' : 'make it a readable file or remove it'}`
    )
  }
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch (e) {
    throw new SettingsError(file, undefined, `is not valid JSON (${(e as Error).message}); fix the syntax`)
  }
  const result = SettingsFileSchema.safeParse(json)
  if (!result.success) {
    const issue = result.error.issues[0]
    const field = fieldPath(issue.path)
    throw new SettingsError(file, field || undefined, `${issue.message}; ${fixHint(field)}`)
  }
  return result.data
}

/**
 * The keys of a project or local settings file that are ignored until the workspace is trusted
 * (docs/permissions.md#permissions): `hooks`, `env`, any base URL key, a `bypassPermissions` default mode and
 * `permissions.additionalDirectories`, as dotted paths (`permissions.defaultMode`).
 */
export function untrustedKeys(data: SettingsFile): string[] {
  const keys = Object.keys(data).filter((key) => key === 'hooks' || key === 'env' || BASE_URL_KEY.test(key))
  const perms = data.permissions
  if (perms?.defaultMode === 'bypassPermissions') keys.push('permissions.defaultMode')
  if (perms?.additionalDirectories) keys.push('permissions.additionalDirectories')
  return keys
}

function dropUntrustedKeys(data: SettingsFile, file: string, warnings: string[]): void {
  for (const key of data.sandbox ? dropLooseningSandboxKeys(data.sandbox) : []) {
    warnings.push(
      `ignored "${key}" in ${file}: it would loosen the sandbox and this workspace is not trusted (trust it, or pass --trust-project)`
    )
  }
  for (const key of untrustedKeys(data)) {
    warnings.push(`ignored "${key}" in ${file}: this workspace is not trusted (trust it, or pass --trust-project)`)
    if (key === 'permissions.defaultMode') delete data.permissions?.defaultMode
    else if (key === 'permissions.additionalDirectories') delete data.permissions?.additionalDirectories
    else delete data[key]
  }
}

async function mergeInto(loaded: LoadedSettings, data: SettingsFile, file: string): Promise<void> {
  const dir = path.dirname(file)
  for (const kind of ['allow', 'ask', 'deny'] as const) {
    const list = data.permissions?.[kind] ?? []
    list.forEach((text, i) => {
      try {
        loaded.rules[kind].push(parseRule(text, file, dir))
      } catch (e) {
        if (e instanceof RuleSyntaxError) throw new SettingsError(file, `permissions.${kind}[${i}]`, e.message)
        throw e
      }
    })
  }
  if (data.permissions?.defaultMode) loaded.defaultMode = data.permissions.defaultMode
  for (const d of data.permissions?.additionalDirectories ?? []) {
    const abs = d.startsWith('~/') ? path.join(loaded.userHome, d.slice(2)) : path.resolve(loaded.workspace, d)
    loaded.additionalDirectories.push(await canonicalPath(abs, '/'))
  }
  if (data.env) Object.assign(loaded.env, data.env)
  if (data.hooks) loaded.hooks.push({ source: file, hooks: data.hooks })
  if (data.apiBaseUrl !== undefined) loaded.apiBaseUrl = data.apiBaseUrl
}

/**
 * Loads and merges the settings of every source (docs/permissions.md#permissions).
 * @throws RunUsageError naming the file and field of a malformed settings file (fails closed).
 */
export async function loadWorkspaceSettings(
  cwd: string,
  home: string,
  settingsFiles: string[],
  trustProject: boolean,
  sources: SettingsSourceFiles = {}
): Promise<LoadedSettings> {
  try {
    return await loadPermissionSettings({ cwd, home, extraSettingsFiles: settingsFiles, trustProject, sources })
  } catch (error) {
    throw new RunUsageError((error as Error).message)
  }
}
