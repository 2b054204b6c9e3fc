import type { ScenarioInput } from '../../src/main/runtime/scripted'
import { lastUserMessage, type Req } from './scenarios'

/**
 * The team scenarios: a leader and one teammate playing ping-pong through their mailboxes, and a
 * leader spawning 1, 4 or 8 teammates at once. Figures are read at the scripted server, as the
 * others: a delivery is the end of the answer calling SendMessage to the recipient's next model
 * request carrying the message.
 */

/** Ping-pong rounds per run: the leader's pings 2..ROUNDS and every pong are timed deliveries. */
export const ROUNDS = 6

/** Filler answers: idle notifications and shutdown replies wake an agent for turns the scenario does not time. */
const filler = (text: string, n: number) => Array.from({ length: n }, () => ({ text }))

/** A leader and `bob` of team `team` sending `ping N` / `pong N` back and forth, {@link ROUNDS} times. */
export function pingPongScenario(team: string): ScenarioInput {
  const lead = [
    { tools: [{ name: 'TeamCreate', input: { team_name: team } }] },
    {
      tools: [{ name: 'Agent', input: { name: 'bob', team_name: team, description: 'ponger', prompt: 'ping 1' } }]
    },
    { text: 'bob started.' },
    ...Array.from({ length: ROUNDS - 1 }, (_, i) => ({
      when: `pong ${i + 1}`,
      tools: [{ name: 'SendMessage', input: { to: 'bob', message: `ping ${i + 2}`, summary: `ping ${i + 2}` } }]
    })),
    { when: `pong ${ROUNDS}`, text: 'All rounds played.' },
    ...filler('Noted.', 12)
  ]
  const bob = Array.from({ length: ROUNDS }, (_, i) => [
    {
      when: `ping ${i + 1}`,
      tools: [{ name: 'SendMessage', input: { to: 'team-lead', message: `pong ${i + 1}`, summary: `pong ${i + 1}` } }]
    },
    { when: 'Message sent', text: `pong ${i + 1} sent.` }
  ]).flat()
  return { name: 'peer-ping-pong', agents: { 'team-lead': lead, bob: [...bob, ...filler('Bye.', 6)] } }
}

/** The first request of `agent` whose newest message carries `text`. */
function firstWith(requests: readonly Req[], agent: string, text: string): Req | undefined {
  return requests.find((r) => r.agentName === agent && lastUserMessage(r.raw).includes(text))
}

/**
 * Every timed delivery of a ping-pong run, ms: pong N (bob's answer to the request carrying
 * ping N, to the leader's request carrying pong N) and ping N for N >= 2 (the leader's answer to
 * the request carrying pong N-1, to bob's request carrying ping N).
 * @throws naming the first request that is missing.
 */
export function pingPongDeliveries(requests: readonly Req[]): number[] {
  const out: number[] = []
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
    if (n >= 2) out.push(find('bob', `ping ${n}`).arrivedAt - end(find('team-lead', `pong ${n - 1}`)))
    out.push(find('team-lead', `pong ${n}`).arrivedAt - end(find('bob', `ping ${n}`)))
  }
  return out
}

/** The names of the teammates of a spawn run of `n`. */
export const mateNames = (n: number): string[] => Array.from({ length: n }, (_, i) => `mate-${i}`)

/** A leader of team `team` spawning `n` teammates in one answer; each says Ready and idles. */
export function spawnScenario(n: number, team: string): ScenarioInput {
  const agents: NonNullable<ScenarioInput['agents']> = {
    'team-lead': [
      { tools: [{ name: 'TeamCreate', input: { team_name: team } }] },
      {
        tools: mateNames(n).map((name) => ({
          name: 'Agent',
          input: { name, team_name: team, description: `mate ${name}`, prompt: 'Say you are ready.' }
        }))
      },
      { text: 'The team is started.' },
      ...filler('Noted.', 3 * n + 6)
    ]
  }
  for (const name of mateNames(n)) agents[name] = [{ text: 'Ready.' }, ...filler('Bye.', 4)]
  return { name: `peer-spawn-${n}`, agents }
}

/**
 * Spawn time of a run of `n`: the end of the leader's answer calling Agent `n` times to the last
 * teammate's first model request, ms.
 * @throws when a teammate made no request.
 */
export function spawnMs(requests: readonly Req[], n: number): number {
  const spawning = requests.filter((r) => r.agentName === 'team-lead')[1]
  if (spawning?.endedAt === undefined) throw new Error('the spawn run has no finished second leader answer')
  const firsts = mateNames(n).map((name) => {
    const r = requests.find((q) => q.agentName === name)
    if (!r) throw new Error(`teammate ${name} of the spawn run made no model request`)
    return r.arrivedAt
  })
  return Math.max(...firsts) - spawning.endedAt
}
