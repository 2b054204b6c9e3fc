/**
 * The Bash sandbox confines every agent's Bash (docs/permissions.md#the-bash-sandbox): the
 * leader's, a background shell's, a subagent's, a fork's, a worker teammate's and a process
 * teammate's. With `sandbox.enabled` each writes outside the root in vain and its result names
 * the path; with the sandbox off the same commands write there.
 *
 * All real: a Session with a team, the scripted model over HTTP, the real Bash tool in real PTYs,
 * a worker thread, a `swarmdesk teammate` child process, /usr/bin/bwrap.
 */
import { existsSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import type { EventOf, RuntimeEvent } from '../../../shared/events'
import type { ScenarioInput } from '../scripted'
import { sandboxAvailability } from '../sandbox'
import { bothTeammateBackends } from './teammateBackends.testkit'
import { openTestSession, type TestSession } from './session.testkit'

const allow = { prompt: async () => ({ decision: 'allow' as const, by: 'user' as const }) }
const HOSTS = ['leader', 'subagent', 'fork', 'worker', 'process'] as const
/** Who runs each host's command, by agent name. */
const AGENT: Record<(typeof HOSTS)[number], string> = {
  leader: 'team-lead',
  subagent: 'probe',
  fork: 'forked-probe',
  worker: 'wally',
  process: 'pat'
}

const outside = realpathSync(mkdtempSync(join(tmpdir(), 'swarmdesk-sandbox-outside-')))
const cleanups: Array<() => Promise<void> | void> = []
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c()
  for (const host of [...HOSTS, 'background']) rmSync(join(outside, `${host}.txt`), { force: true })
})
afterAll(() => rmSync(outside, { recursive: true, force: true }))

const touch = (host: string) => ({ name: 'Bash', input: { command: `touch ${outside}/${host}.txt` } })

function scenario(): ScenarioInput {
  const noted = Array.from({ length: 12 }, () => ({ text: 'Noted.' }))
  return {
    agents: {
      'team-lead': [
        {
          tools: [
            touch('leader'),
            {
              name: 'Bash',
              input: {
                command: `touch ${outside}/background.txt; touch background.done`,
                run_in_background: true
              }
            }
          ]
        },
        {
          tools: [
            { name: 'Agent', input: { subagent_type: 'general-purpose', description: 'probe', prompt: 'Probe.' } },
            { name: 'Agent', input: { description: 'forked probe', prompt: 'Probe as a fork.' } },
            { name: 'TeamCreate', input: { team_name: 'crew' } }
          ]
        },
        {
          tools: [
            { name: 'Agent', input: { name: 'wally', backend: 'worker', description: 'w', prompt: 'Start.' } },
            { name: 'Agent', input: { name: 'pat', backend: 'process', description: 'p', prompt: 'Start.' } }
          ]
        },
        ...noted
      ],
      probe: [{ tools: [touch('subagent')] }, { text: 'Probed.' }],
      'forked-probe': [{ tools: [touch('fork')] }, { text: 'Probed.' }],
      wally: [{ tools: [touch('worker')] }, ...noted],
      pat: [{ tools: [touch('process')] }, ...noted]
    }
  }
}

/** A session whose leader may fork and lead a team of both backends; `settings` is the user's settings file. */
async function open(settings: object | undefined): Promise<TestSession> {
  const home = realpathSync(mkdtempSync(join(tmpdir(), 'swarmdesk-sandbox-home-')))
  if (settings) writeFileSync(join(home, 'settings.json'), JSON.stringify(settings))
  const backends = bothTeammateBackends(allow, () => h.server.url)
  const h = await openTestSession({
    mode: 'bypassPermissions',
    home,
    scenario: scenario(),
    teammates: backends.teammates
  })
  cleanups.push(async () => {
    await backends.registry()?.dispose()
    await h.close()
    rmSync(home, { recursive: true, force: true })
  })
  await h.session.setOrchestration({ fork: true, coordinator: false })
  return h
}

/** The result of each host's Bash call, once every host has run its command. */
async function results(h: TestSession): Promise<Record<(typeof HOSTS)[number], EventOf<'tool_result'>>> {
  const deadline = Date.now() + 90_000
  h.session.prompt('Probe every host.').catch(() => undefined)
  for (;;) {
    const found = Object.fromEntries(
      HOSTS.map((host) => {
        const call = h.events.find(
          (e): e is EventOf<'tool_call'> => e.type === 'tool_call' && e.name === 'Bash' && e.agentName === AGENT[host]
        )
        const result =
          call &&
          h.events.find((e): e is EventOf<'tool_result'> => e.type === 'tool_result' && e.toolUseId === call.toolUseId)
        return [host, result]
      })
    )
    if (Object.values(found).every(Boolean) && existsSync(join(h.work, 'background.done')))
      return found as Record<(typeof HOSTS)[number], EventOf<'tool_result'>>
    if (Date.now() > deadline)
      throw new Error(
        `timed out; results: ${JSON.stringify(Object.keys(found).filter((k) => found[k]))}; events: ${h.events
          .map((e: RuntimeEvent) => `${e.agentName}:${e.type}`)
          .join(' ')}`
      )
    await new Promise((r) => setTimeout(r, 50))
  }
}

describe.runIf(sandboxAvailability().ok)('the Bash sandbox on every host', () => {
  it('confines the leader, a background shell, a subagent, a fork and teammates of both backends', async () => {
    const h = await open({ sandbox: { enabled: true } })
    const got = await results(h)
    for (const host of HOSTS) {
      expect(existsSync(join(outside, `${host}.txt`)), host).toBe(false)
      expect(got[host].output, host).toContain(`Sandbox blocked a write to ${outside}/${host}.txt`)
    }
    expect(existsSync(join(outside, 'background.txt'))).toBe(false)
  }, 120_000)

  it('with the sandbox off, the same commands write outside the root', async () => {
    const h = await open(undefined)
    const got = await results(h)
    for (const host of HOSTS) {
      expect(existsSync(join(outside, `${host}.txt`)), host).toBe(true)
      expect(got[host].isError, host).toBe(false)
    }
    expect(existsSync(join(outside, 'background.txt'))).toBe(true)
  }, 120_000)
})
