import { mkdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import type { PermissionPrompter } from '../permissions'
import { writeFileAtomicSync } from '../locks'
import { isPlainHost } from './domains'
import { NETWORK_TOOL } from './network'

/** The local settings file of `workspace`, where an "Always allow" of a domain is kept. */
export function localSettingsFile(workspace: string): string {
  return path.join(workspace, '.swarmdesk', 'settings.local.json')
}

/** The local settings file cannot take the domain (not a JSON object, or its sandbox keys are of another shape). */
export class AllowDomainError extends Error {
  override readonly name = 'AllowDomainError'
}

/**
 * Adds `host` to `sandbox.network.allowedDomains` of the workspace's local settings
 * (`.swarmdesk/settings.local.json`, docs/sandbox.md#network), as Claude Code keeps an "always"
 * answer in the local settings: the file is read, changed in that list alone — every other key kept,
 * a domain already listed not added twice — and written whole by rename, so a reader never sees a
 * torn file. Creates the file (and `.swarmdesk/`) when missing.
 * @returns the file written (or that already listed the domain).
 * @throws AllowDomainError when the file is not a JSON object, or `sandbox`, `sandbox.network` or
 *   `allowedDomains` is of another shape; the file is left as it was.
 */
export function allowDomainLocally(workspace: string, host: string): string {
  const file = localSettingsFile(workspace)
  let text: string | undefined
  try {
    text = readFileSync(file, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
  }
  let json: unknown = {}
  if (text !== undefined && text.trim() !== '') {
    try {
      json = JSON.parse(text)
    } catch (error) {
      throw new AllowDomainError(`${file} is not valid JSON (${(error as Error).message}); fix it first.`)
    }
  }
  const objectAt = (value: unknown, where: string): Record<string, unknown> => {
    if (value === undefined) return {}
    if (typeof value !== 'object' || value === null || Array.isArray(value))
      throw new AllowDomainError(`${where} in ${file} is not an object; fix it first.`)
    return value as Record<string, unknown>
  }
  const root = objectAt(json, 'the file')
  const sandbox = objectAt(root.sandbox, 'sandbox')
  const network = objectAt(sandbox.network, 'sandbox.network')
  const listed = network.allowedDomains ?? []
  if (!Array.isArray(listed) || listed.some((d) => typeof d !== 'string'))
    throw new AllowDomainError(`sandbox.network.allowedDomains in ${file} is not a list of domains; fix it first.`)
  if ((listed as string[]).some((d) => d.toLowerCase() === host.toLowerCase())) return file
  const next = { ...root, sandbox: { ...sandbox, network: { ...network, allowedDomains: [...listed, host] } } }
  mkdirSync(path.dirname(file), { recursive: true })
  writeFileAtomicSync(file, `${JSON.stringify(next, null, 2)}\n`)
  return file
}

/**
 * `prompter`, keeping each "Always allow" of a network question for good (docs/sandbox.md#network):
 * a `SandboxNetwork` request answered allow with `alwaysAllowRule` — the host, the one rule such a
 * request offers — has the host added to the local settings of `workspace`
 * ({@link allowDomainLocally}), so the next session does not ask. Every path to a person passes
 * here when the caller hands the wrapped prompter to the session and to its teammate backends: the
 * leader's and its subagents' questions, a worker teammate's, a process teammate's
 * (`sandbox_permission_request`). `report` is told the file written, or why it could not be (the
 * answer then holds for this session only). Other requests and answers pass unchanged.
 */
export function keepAlwaysAllowedDomains(
  prompter: PermissionPrompter,
  workspace: string,
  report: (outcome: { host: string; file: string; error?: string }) => void = () => undefined
): PermissionPrompter {
  return {
    async prompt(request, signal) {
      const answer = await prompter.prompt(request, signal)
      if (request.tool !== NETWORK_TOOL || answer.decision !== 'allow' || !answer.alwaysAllowRule) return answer
      const host = answer.alwaysAllowRule
      const asked = (request.input as { host?: unknown } | null)?.host
      if (typeof asked !== 'string' || host.toLowerCase() !== asked.toLowerCase() || !isPlainHost(host)) {
        const error = `"${host}" is not the plain host name the question was about; it was allowed for this session only.`
        report({ host, file: localSettingsFile(workspace), error })
        return answer
      }
      try {
        report({ host, file: allowDomainLocally(workspace, host) })
      } catch (error) {
        report({ host, file: localSettingsFile(workspace), error: (error as Error).message })
      }
      return answer
    }
  }
}

/**
 * What {@link keepAlwaysAllowedDomains} reports, as the leader's notice for the event stream:
 * `info` naming the domain and the file it was written to, or a `warning` saying why it could not
 * be and that the answer holds for this session only.
 */
export function domainKeptNotice(outcome: { host: string; file: string; error?: string }): {
  type: 'notice'
  level: 'info' | 'warning'
  message: string
  agentId: string
  agentName: string
} {
  const who = { agentId: 'team-lead', agentName: 'team-lead' }
  return outcome.error
    ? {
        type: 'notice',
        level: 'warning',
        message: `The sandbox could not keep ${outcome.host} allowed in ${outcome.file}: ${outcome.error} It is allowed for this session only.`,
        ...who
      }
    : {
        type: 'notice',
        level: 'info',
        message: `The sandbox always allows ${outcome.host} in this workspace: added to sandbox.network.allowedDomains in ${outcome.file}.`,
        ...who
      }
}
