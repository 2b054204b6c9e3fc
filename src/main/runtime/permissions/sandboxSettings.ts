import os from 'node:os'
import path from 'node:path'
import type { SandboxBlock } from './settingsSchema'

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
