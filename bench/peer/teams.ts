import type { ScenarioInput } from '../../src/main/runtime/scripted'
import { TEAM_PROMPT } from './claudeTeam'
import { lastUserMessage, type Req } from './scenarios'
import type { Product } from './stats'

/**
 * The team scenarios: a leader and one teammate playing ping-pong through their mailboxes, and a
 * leader spawning 1, 4 or 8 teammates at once. Figures are read at the scripted server, as the
 * others: a delivery is the end of the answer calling SendMessage to the recipient's next model
 * request carrying the message.
 *
 * Each product's leader starts the team its own way. Swarmdesk's (`swarmdesk run`, the prompt on
 * the command line) calls TeamCreate, then Agent with the team's name. Claude Code's (interactive,
 * bench/peer/claudeTeam.ts) has one implicit team per session and no TeamCreate: it answers the
 * warm-up prompt with text, then calls Agent on {@link TEAM_PROMPT}. Either way the spawning
 * answer is the leader's second request, and everything after it is the same script.
 */

/** Ping-pong rounds per run: the leader's pings 2..ROUNDS and every pong are timed deliveries. */
export const ROUNDS = 6

/** Filler answers: idle notifications and shutdown replies wake an agent for turns the scenario does not time. */
const filler = (text: string, n: number) => Array.from({ length: n }, () => ({ text }))

type Turn = NonNullable<ScenarioInput['agents']>[string][number]

/** The leader's first two answers: creating the team and spawning `mates` ({name, prompt}) in one answer. */
function startTeam(product: Product, team: string, mates: Array<{ name: string; prompt: string }>): Turn[] {
  const agent = (m: { name: string; prompt: string }) => ({
    name: 'Agent',
    input: {
      name: m.name,
      ...(product === 'swarmdesk' ? { team_name: team } : {}),
      description: `mate ${m.name}`,
      prompt: m.prompt
    }
  })
  return product === 'swarmdesk'
    ? [{ tools: [{ name: 'TeamCreate', input: { team_name: team } }] }, { tools: mates.map(agent) }]
    : [{ text: 'Ready.' }, { when: TEAM_PROMPT, tools: mates.map(agent) }]
}

/** A leader and `bob` of team `team` sending `ping N` / `pong N` back and forth, {@link ROUNDS} times. */
export function pingPongScenario(team: string, product: Product = 'swarmdesk'): ScenarioInput {
  const lead = [
    ...startTeam(product, team, [{ name: 'bob', prompt: 'ping 1' }]),
    { text: 'bob started.' },
    ...Array.from({ length: ROUNDS - 1 }, (_, i) => ({
      when: `pong ${i + 1}`,
      tools: [{ name: 'SendMessage', input: { to: 'bob', message: `ping ${i + 2}`, summary: `ping ${i + 2}` } }]
    })),
    { when: `pong ${ROUNDS}`, text: 'All rounds played.' },
    ...filler('Noted.', 3 * ROUNDS)
  ]
  const bob = Array.from({ length: ROUNDS }, (_, i) => [
    {
      when: `ping ${i + 1}`,
      tools: [{ name: 'SendMessage', input: { to: 'team-lead', message: `pong ${i + 1}`, summary: `pong ${i + 1}` } }]
    },
    // Claude Code's SendMessage result says something else: its next turn is a filler
    ...(product === 'swarmdesk' ? [{ when: 'Message sent', text: `pong ${i + 1} sent.` }] : [])
  ]).flat()
  return { name: 'peer-ping-pong', agents: { 'team-lead': lead, bob: [...bob, ...filler('Bye.', 2 * ROUNDS + 6)] } }
}

/** The first request of `agent` whose newest message carries `text`. */
function firstWith(requests: readonly Req[], agent: string, text: string): Req | undefined {
  return requests.find((r) => r.agentName === agent && lastUserMessage(r.raw).includes(text))
}

/** The timed deliveries of a ping-pong run, ms, each way. */
export interface Deliveries {
  /** ping N for N >= 2: the leader's answer to the request carrying pong N-1, to bob's request carrying ping N. */
  toTeammate: number[]
  /** pong N: bob's answer to the request carrying ping N, to the leader's request carrying pong N. */
  toLeader: number[]
}

/**
 * Every timed delivery of a ping-pong run, ms, each way (see {@link Deliveries}), in round order.
 * @throws naming the first request that is missing.
 */
export function pingPongDeliveries(requests: readonly Req[]): Deliveries {
  const out: Deliveries = { toTeammate: [], toLeader: [] }
  const find = (agent: string, text: string): Req => {
    const r = firstWith(requests, agent, text)
    if (!r) throw new Error(`the ping-pong run has no request of ${agent} carrying '${text}'`)
    return r
  }
  const end = (r: Req): number => {
    if (r.endedAt === undefined) throw new Error('an answer of the ping-pong run never finished')
    return r.endedAt
  }
  for (let n = 1; n <= ROUNDS; n++) {
    if (n >= 2) out.toTeammate.push(find('bob', `ping ${n}`).arrivedAt - end(find('team-lead', `pong ${n - 1}`)))
    out.toLeader.push(find('team-lead', `pong ${n}`).arrivedAt - end(find('bob', `ping ${n}`)))
  }
  return out
}

/** Whether a ping-pong run is over: the leader has made its request carrying the last pong. */
export const pingPongDone = (requests: readonly Req[]): boolean =>
  firstWith(requests, 'team-lead', `pong ${ROUNDS}`) !== undefined

/** The names of the teammates of a spawn run of `n`. */
export const mateNames = (n: number): string[] => Array.from({ length: n }, (_, i) => `mate-${i}`)

/** A leader of team `team` spawning `n` teammates in one answer; each says Ready and idles. */
export function spawnScenario(n: number, team: string, product: Product = 'swarmdesk'): ScenarioInput {
  const agents: NonNullable<ScenarioInput['agents']> = {
    'team-lead': [
      ...startTeam(
        product,
        team,
        mateNames(n).map((name) => ({ name, prompt: 'Say you are ready.' }))
      ),
      { text: 'The team is started.' },
      ...filler('Noted.', 3 * n + 6)
    ]
  }
  for (const name of mateNames(n)) agents[name] = [{ text: 'Ready.' }, ...filler('Bye.', 4)]
  return { name: `peer-spawn-${n}`, agents }
}

/** Whether a spawn run is over: every teammate's first answer has ended. */
export const spawnDone = (requests: readonly Req[], names: readonly string[]): boolean =>
  names.every((name) => requests.find((r) => r.agentName === name)?.endedAt !== undefined)

/**
 * The teammates Claude Code reports spawned, read from the leader's request after the spawning
 * answer (each Agent result says `agent_id: <name>@<team>`); undefined while that request has not
 * come. Under load Claude Code 2.1.197 fails some of several Agent calls made at once ("Lock file
 * is already being held": its lock on the team's config), so fewer than asked may start.
 */
export function claudeCodeSpawned(requests: readonly Req[], names: readonly string[]): string[] | undefined {
  const after = requests.filter((r) => r.agentName === 'team-lead')[2]
  if (!after) return undefined
  const text = lastUserMessage(after.raw)
  return names.filter((name) => text.includes(`agent_id: ${name}@`))
}

/** The text of every tool result that is an error in the leader's request after the spawning answer. */
export function spawnErrors(requests: readonly Req[]): string[] {
  const after = requests.filter((r) => r.agentName === 'team-lead')[2]
  if (!after) return []
  type Block = { type?: string; is_error?: boolean; content?: unknown }
  const messages = JSON.parse(lastUserMessage(after.raw) || '[]') as Array<{ content?: string | Block[] }>
  return messages
    .flatMap((m) => (Array.isArray(m.content) ? m.content : []))
    .filter((b) => b.type === 'tool_result' && b.is_error === true)
    .map((b) => (typeof b.content === 'string' ? b.content : JSON.stringify(b.content)))
}

/**
 * Spawn time of the teammates `names`: the end of the leader's answer calling Agent for each
 * (its second request, for both products) to the last teammate's first model request, ms.
 * @throws when a teammate made no request.
 */
export function spawnMs(requests: readonly Req[], names: readonly string[]): number {
  const spawning = requests.filter((r) => r.agentName === 'team-lead')[1]
  if (spawning?.endedAt === undefined) throw new Error('the spawn run has no finished second leader answer')
  const firsts = names.map((name) => {
    const r = requests.find((q) => q.agentName === name)
    if (!r) throw new Error(`teammate ${name} of the spawn run made no model request`)
    return r.arrivedAt
  })
  return Math.max(...firsts) - spawning.endedAt
}
