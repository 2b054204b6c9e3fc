import { randomBytes } from 'node:crypto'

/** A subagent's or fork's id (docs/tools.md#tools): `a` + 16 hex digits. */
export function newAgentId(): string {
  return `a${randomBytes(8).toString('hex')}`
}

/**
 * The name a subagent goes by in headers, panes and scenarios (docs/scenarios.md#scripted-model-scenarios): its description as a
 * slug — lowercase words joined by `-`, at most 40 characters; `agent` when nothing is left.
 */
export function agentSlug(description: string): string {
  const slug = description
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40)
    .replace(/-+$/, '')
  return slug || 'agent'
}
