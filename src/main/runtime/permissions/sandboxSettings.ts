import os from 'node:os'
import path from 'node:path'
import type { SandboxBlock } from './settingsSchema'
import type { PathRuleContext, PermissionRule } from './rules'
import type { LoadedSettings } from './settings'

/**
 * The merged `sandbox` settings (docs/permissions.md#the-bash-sandbox), Claude Code's shape with
 * its defaults. Paths are absolute (`~/` from the user's home, relative ones from the workspace).
 */
export interface SandboxSettings {
  enabled: boolean
  autoAllowBashIfSandboxed: boolean
  excludedCommands: string[]
  allowUnsandboxedCommands: boolean
  failIfUnavailable: boolean
  filesystem: { allowWrite: string[]; denyWrite: string[]; denyRead: string[] }
  network: { allowedDomains: string[]; deniedDomains: string[]; allowLocalBinding: boolean }
}

/** Claude Code's defaults: off; when on, sandboxed Bash runs without asking. */
export function sandboxDefaults(): SandboxSettings {
  return {
    enabled: false,
    autoAllowBashIfSandboxed: true,
    excludedCommands: [],
    allowUnsandboxedCommands: true,
    failIfUnavailable: false,
    filesystem: { allowWrite: [], denyWrite: [], denyRead: [] },
    network: { allowedDomains: [], deniedDomains: [], allowLocalBinding: false }
  }
}

/**
 * Removes from an untrusted project's `sandbox` block every value that would loosen the sandbox
 * (docs/permissions.md#project-trust): turning it off, auto-allowing, excluded commands, running
 * outside, not failing, wider writes, allowed domains, local binding. Tightening values stay.
 * Returns the dotted keys removed.
 */
export function dropLooseningSandboxKeys(block: SandboxBlock): string[] {
  const dropped: string[] = []
  const drop = (key: string, when: boolean, remove: () => void): void => {
    if (!when) return
    remove()
    dropped.push(`sandbox.${key}`)
  }
  drop('enabled', block.enabled === false, () => delete block.enabled)
  drop('autoAllowBashIfSandboxed', block.autoAllowBashIfSandboxed === true, () => delete block.autoAllowBashIfSandboxed)
  drop('excludedCommands', block.excludedCommands !== undefined, () => delete block.excludedCommands)
  drop('allowUnsandboxedCommands', block.allowUnsandboxedCommands === true, () => delete block.allowUnsandboxedCommands)
  drop('failIfUnavailable', block.failIfUnavailable === false, () => delete block.failIfUnavailable)
  drop('filesystem.allowWrite', block.filesystem?.allowWrite !== undefined, () => delete block.filesystem?.allowWrite)
  drop(
    'network.allowedDomains',
    block.network?.allowedDomains !== undefined,
    () => delete block.network?.allowedDomains
  )
  drop(
    'network.allowLocalBinding',
    block.network?.allowLocalBinding === true,
    () => delete block.network?.allowLocalBinding
  )
  return dropped
}

/**
 * Merges one source's block into `into`: lists are unioned, single values taken from the higher
 * source. An untrusted source that turns the sandbox on does not bring the default auto-allow with
 * it: `autoAllowBashIfSandboxed` then holds only when a trusted source says so (`trustedAutoAllow`).
 */
export function mergeSandboxBlock(
  into: SandboxSettings,
  block: SandboxBlock,
  ctx: { workspace: string; userHome?: string }
): void {
  const abs = (p: string): string =>
    p === '~'
      ? (ctx.userHome ?? os.homedir())
      : p.startsWith('~/')
        ? path.join(ctx.userHome ?? os.homedir(), p.slice(2))
        : path.resolve(ctx.workspace, p)
  if (block.enabled !== undefined) into.enabled = block.enabled
  if (block.autoAllowBashIfSandboxed !== undefined) into.autoAllowBashIfSandboxed = block.autoAllowBashIfSandboxed
  if (block.allowUnsandboxedCommands !== undefined) into.allowUnsandboxedCommands = block.allowUnsandboxedCommands
  if (block.failIfUnavailable !== undefined) into.failIfUnavailable = block.failIfUnavailable
  into.excludedCommands.push(...(block.excludedCommands ?? []))
  for (const key of ['allowWrite', 'denyWrite', 'denyRead'] as const)
    into.filesystem[key].push(...(block.filesystem?.[key] ?? []).map(abs))
  into.network.allowedDomains.push(...(block.network?.allowedDomains ?? []))
  into.network.deniedDomains.push(...(block.network?.deniedDomains ?? []))
  if (block.network?.allowLocalBinding !== undefined) into.network.allowLocalBinding = block.network.allowLocalBinding
}

/**
 * The sandbox as it applies to an agent working in `cwd` (docs/permissions.md#the-bash-sandbox),
 * merging permission rules in as Claude Code does: `Edit(...)` allow rules and
 * `permissions.additionalDirectories` widen where commands may write (only from trusted sources:
 * an untrusted project's rule cannot loosen the sandbox), `Edit(...)` deny rules are written to
 * `denyWrite` and `Read(...)` deny rules to `denyRead`. A rule's path is its literal part (`Edit(//data/**)`
 * opens `/data`); a deny rule whose pattern a mount cannot express (`Read(**\/.env)`, `Edit(*.key)`)
 * is left to the permission engine, which still applies it to the commands it can read.
 */
export function effectiveSandbox(
  loaded: Pick<LoadedSettings, 'sandbox' | 'rules' | 'sources' | 'additionalDirectories' | 'userHome'>,
  cwd: string
): SandboxSettings {
  const untrusted = new Set(loaded.sources.filter((s) => !s.trusted).map((s) => s.path))
  const ctx = { cwd, userHome: loaded.userHome }
  const fs = loaded.sandbox.filesystem
  const pathsOf = (rules: PermissionRule[], tool: string, whole: boolean): string[] =>
    rules.flatMap((rule) => {
      if (rule.tool !== tool || rule.specifier === undefined) return []
      const literal = ruleLiteral(rule, ctx)
      return literal && (!whole || literal.whole) ? [literal.path] : []
    })
  const trustedAllow = loaded.rules.allow.filter((r) => !untrusted.has(r.source))
  return {
    ...loaded.sandbox,
    filesystem: {
      allowWrite: unique([...fs.allowWrite, ...loaded.additionalDirectories, ...pathsOf(trustedAllow, 'Edit', false)]),
      denyWrite: unique([...fs.denyWrite, ...pathsOf(loaded.rules.deny, 'Edit', true)]),
      denyRead: unique([...fs.denyRead, ...pathsOf(loaded.rules.deny, 'Read', true)])
    }
  }
}

const GLOB = /[*?[\]{}!]/

/**
 * The literal path a `Read(...)`/`Edit(...)` rule names, resolved as rules.ts resolves it; `whole`
 * when the rule covers exactly that path and what is below it (no glob, or a trailing `/**`).
 * Undefined for a name matched at any depth (`Edit(*.md)`, `Read(.env)`): no one path to mount.
 */
function ruleLiteral(rule: PermissionRule, ctx: PathRuleContext): { path: string; whole: boolean } | undefined {
  const spec = rule.specifier!
  let abs: string
  if (spec.startsWith('//')) abs = spec.slice(1)
  else if (spec.startsWith('~/')) abs = path.posix.join(ctx.userHome, spec.slice(2))
  else if (spec.startsWith('/')) abs = path.posix.join(rule.baseDir, spec)
  else if (!spec.replace(/\/$/, '').includes('/') && !spec.startsWith('./')) return undefined
  else abs = path.posix.join(ctx.cwd, spec)
  const segs = abs.replace(/\/$/, '').split('/')
  const firstGlob = segs.findIndex((s) => GLOB.test(s))
  if (firstGlob < 0) return { path: abs.replace(/\/$/, '') || '/', whole: true }
  const literal = segs.slice(0, firstGlob).join('/') || '/'
  const rest = segs.slice(firstGlob).join('/')
  return { path: literal, whole: rest === '**' }
}

const unique = (list: string[]): string[] => [...new Set(list)]
