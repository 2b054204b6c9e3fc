import { randomBytes } from 'node:crypto'
import { rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  SANDBOX_NETWORK_TOOL,
  type PermissionPromptAnswer,
  type PermissionPromptRequest
} from '../../../shared/permissions'
import type { PermissionPrompter, SandboxSettings } from '../permissions'
import { domainVerdict, isPlainHost } from './domains'
import { startNetworkProxy, type ConnectionVerdict, type NetworkProxy } from './proxy'

/**
 * The tool name of a network permission request (docs/sandbox.md#network): the permission card
 * shows it with `input: {host}`; the leader's queue answers it once per host and session, and an
 * "always allow" is kept in the local settings.
 */
export const NETWORK_TOOL = SANDBOX_NETWORK_TOOL

/** One question "may a sandboxed command of this agent connect to `host`?". */
export interface NetworkQuestion {
  requestId: string
  host: string
  agentId: string
  agentName: string
}

/**
 * Who answers a {@link NetworkQuestion}: for the leader and its subagents the permission card (the
 * leader's prompter), for a worker teammate the leader's queue, for a process teammate the
 * leader through the mailbox (`sandbox_permission_request`). Resolves, never rejects.
 */
export type NetworkAsker = (question: NetworkQuestion, signal: AbortSignal) => Promise<ConnectionVerdict>

/** A {@link NetworkAsker} that puts the question to a permission prompter as a `SandboxNetwork` request. */
export function promptNetworkAsker(prompter: PermissionPrompter): NetworkAsker {
  return async (question, signal) => {
    const answer = await prompter.prompt(networkPromptRequest(question), signal)
    return verdictOf(answer)
  }
}

/**
 * The permission request of a network question: allow once (this session), always allow — its one
 * suggestion is the host itself, which {@link keepAlwaysAllowedDomains} writes into the local
 * settings' `sandbox.network.allowedDomains` — or deny. A host that is no plain name (a client may
 * name `*.com`) offers no "always allow".
 */
export function networkPromptRequest(question: NetworkQuestion): PermissionPromptRequest {
  return {
    requestId: question.requestId,
    agentId: question.agentId,
    agentName: question.agentName,
    tool: NETWORK_TOOL,
    input: { host: question.host },
    reason: `network: ${question.host} (a sandboxed command asks to connect; sandbox.network.allowedDomains does not list it)`,
    suggestions: isPlainHost(question.host) ? [question.host] : []
  }
}

/** A person's answer as the proxy's verdict. */
export function verdictOf(answer: PermissionPromptAnswer): ConnectionVerdict {
  if (answer.decision === 'allow') return { allow: true }
  if (answer.by === 'cancelled') return { allow: false, reason: 'the question was withdrawn' }
  return { allow: false, reason: answer.reason ? `refused: ${answer.reason}` : 'a person refused it' }
}

/**
 * The leader's prompter, answering each host's `SandboxNetwork` question once per session
 * (docs/sandbox.md#network): a later question for a host a person already answered — from any
 * agent, worker or process teammate — gets the same answer without a card (an "always allow"
 * was also kept in the local settings, by {@link keepAlwaysAllowedDomains} beneath). Other
 * requests pass.
 */
export function rememberNetworkAnswers(prompter: PermissionPrompter): PermissionPrompter {
  const answered = new Map<string, PermissionPromptAnswer>()
  return {
    async prompt(request, signal) {
      const host = request.tool === NETWORK_TOOL ? hostOf(request.input) : undefined
      if (host === undefined) return prompter.prompt(request, signal)
      const known = answered.get(host)
      if (known) return known
      const answer = await prompter.prompt(request, signal)
      if (answer.by !== 'cancelled') answered.set(host, answer)
      return answer
    }
  }
}

const hostOf = (input: unknown): string | undefined => {
  const host = (input as { host?: unknown } | null)?.host
  return typeof host === 'string' ? host.toLowerCase() : undefined
}

/** One agent's proxy and what it decides with; settings and asker are replaced as the agent's change. */
interface AgentNetwork {
  network: SandboxSettings['network']
  ask: NetworkAsker | undefined
  agentId: string
  agentName: string
  /** This agent's answers, by host: asked once, then kept (a withdrawn question is asked again). */
  answers: Map<string, Promise<ConnectionVerdict>>
  socketPath: string
  proxy: Promise<NetworkProxy>
}

/** By `sessionId/agentId`: one process may hold several workspaces and sessions, each with a `team-lead`. */
const agents = new Map<string, AgentNetwork>()
const bySocket = new Map<string, AgentNetwork>()
const sockets = new Set<string>()
process.once('exit', () => {
  for (const socket of sockets) rmSync(socket, { force: true })
})

/**
 * The socket of `agent`'s network proxy (docs/sandbox.md#network), started on first use and kept
 * for the process; each agent of each session has its own, so a question names the agent whose
 * command asked, and an answer of one session is not taken for another's.
 * A host `deniedDomains` matches is refused, one `allowedDomains` matches goes through, any other
 * is put to `ask` once (no asker: refused, nobody can be asked). `network` and `ask` replace the
 * previous ones, so settings reloaded while the agent runs apply to its next connection.
 * `hosts`: addresses used instead of DNS (see {@link startNetworkProxy}).
 */
export function agentProxySocket(
  agent: { sessionId: string; agentId: string; agentName: string },
  network: SandboxSettings['network'],
  ask: NetworkAsker | undefined,
  hosts?: Readonly<Record<string, string>>
): string {
  const key = `${agent.sessionId}/${agent.agentId}`
  const known = agents.get(key)
  if (known) {
    known.network = network
    known.ask = ask
    return known.socketPath
  }
  const socketPath = join(tmpdir(), `swarmdesk-net-${randomBytes(6).toString('hex')}.sock`)
  const entry: AgentNetwork = {
    network,
    ask,
    agentId: agent.agentId,
    agentName: agent.agentName,
    answers: new Map(),
    socketPath,
    proxy: startNetworkProxy({ socketPath, decide: (host) => decideFor(entry, host), ...(hosts ? { hosts } : {}) })
  }
  entry.proxy.catch(() => undefined)
  agents.set(key, entry)
  bySocket.set(socketPath, entry)
  sockets.add(socketPath)
  return socketPath
}

/** The hosts the proxy on `socketPath` refused since `since` (ms since the epoch), for a command's result. */
export async function refusedHostsSince(socketPath: string, since: number): Promise<string[]> {
  const entry = bySocket.get(socketPath)
  if (!entry) return []
  return (await entry.proxy.catch(() => undefined))?.refusedSince(since) ?? []
}

async function decideFor(entry: AgentNetwork, rawHost: string): Promise<ConnectionVerdict> {
  const host = rawHost.toLowerCase()
  const verdict = domainVerdict(host, entry.network)
  if (verdict === 'deny') return { allow: false, reason: 'sandbox.network.deniedDomains lists it' }
  if (verdict === 'allow') return { allow: true }
  const ask = entry.ask
  if (!ask) return { allow: false, reason: 'not in sandbox.network.allowedDomains, and nobody can be asked' }
  const known = entry.answers.get(host)
  if (known) return known
  const question = {
    requestId: `net-${randomBytes(8).toString('hex')}`,
    host,
    agentId: entry.agentId,
    agentName: entry.agentName
  }
  const pending = ask(question, new AbortController().signal).catch((error: Error): ConnectionVerdict => ({
    allow: false,
    reason: `the question failed: ${error.message}`
  }))
  entry.answers.set(host, pending)
  const answer = await pending
  if (!answer.allow && answer.reason === 'the question was withdrawn') entry.answers.delete(host)
  return answer
}
