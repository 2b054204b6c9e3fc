/**
 * "Always allow" of a sandbox network question (docs/sandbox.md#network), from every path a
 * question takes: the leader's card, a worker teammate's queue, a process teammate's
 * `sandbox_permission_request` mail. Each such answer writes its host into the workspace's local
 * settings (`sandbox.network.allowedDomains`, every other key kept), so a second session of the
 * workspace reaches all three hosts without asking.
 *
 * All real: two Sessions of one workspace with a team, the scripted model over HTTP, the Bash tool
 * in real PTYs under /usr/bin/bwrap with socat, a worker thread, a `swarmdesk teammate` child
 * process, and HTTP servers the test starts on 127.0.0.1 and 127.0.0.2 (reached as `localhost`,
 * `127.0.0.1` and `127.0.0.2`; NO_PROXY is cleared for curl, so each goes through the proxy). The
 * prompters are wrapped as the app and the CLI wrap theirs (keepAlwaysAllowedDomains).
 */
import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { EventOf } from '../../../shared/events'
import type { PermissionPromptRequest } from '../../../shared/permissions'
import { trustWorkspace, type PermissionPrompter } from '../permissions'
import { forwarderAvailable, keepAlwaysAllowedDomains, NETWORK_TOOL, sandboxAvailability } from '../sandbox'
import { bothTeammateBackends } from './teammateBackends.testkit'
import { openTestSession } from './session.testkit'

const servers: http.Server[] = []
const url: Record<string, string> = {}
beforeAll(async () => {
  for (const [host, address] of [
    ['localhost', '127.0.0.1'],
    ['127.0.0.2', '127.0.0.2']
  ] as const) {
    const server = http.createServer((req, res) => res.end(`hello ${req.url?.slice(1)}`))
    await new Promise<void>((resolve) => server.listen(0, address, resolve))
    servers.push(server)
    url[host] = `http://${host}:${(server.address() as AddressInfo).port}`
  }
  url['127.0.0.1'] = url.localhost!.replace('localhost', '127.0.0.1')
})
afterAll(async () => {
  for (const server of servers) await new Promise<void>((resolve) => server.close(() => resolve()))
})

const curl = (host: string, path: string) =>
  `env -u NO_PROXY -u no_proxy curl -s --max-time 30 ${url[host]}/${path} ; echo`
const bash = (command: string) => ({ name: 'Bash', input: { command } })
const noted = Array.from({ length: 12 }, () => ({ text: 'Noted.' }))

/** The output of `agentName`'s first Bash call, once its result is on the stream. */
async function bashResult(events: readonly unknown[], agentName: string): Promise<string> {
  const deadline = Date.now() + 90_000
  for (;;) {
    const list = events as Array<EventOf<'tool_call'> | EventOf<'tool_result'>>
    const call = list.find((e) => e.type === 'tool_call' && e.name === 'Bash' && e.agentName === agentName)
    const result = call && list.find((e) => e.type === 'tool_result' && e.toolUseId === call.toolUseId)
    if (result?.type === 'tool_result') return result.output
    if (Date.now() > deadline) throw new Error(`no Bash result from ${agentName}`)
    await new Promise((r) => setTimeout(r, 50))
  }
}

describe.runIf(sandboxAvailability().ok && forwarderAvailable())('always allow a domain', () => {
  it('from the leader, a worker and a process teammate; the next session asks no more', async () => {
    const work = realpathSync(mkdtempSync(join(tmpdir(), 'swarmdesk-sandbox-always-work-')))
    const home = realpathSync(mkdtempSync(join(tmpdir(), 'swarmdesk-sandbox-always-home-')))
    execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: work })
    writeFileSync(join(home, 'settings.json'), JSON.stringify({ sandbox: { enabled: true } }))
    await trustWorkspace(home, work)
    const local = join(work, '.swarmdesk', 'settings.local.json')
    mkdirSync(join(work, '.swarmdesk'))
    const before = { permissions: { allow: ['Bash(ls:*)'] }, sandbox: { network: { deniedDomains: ['evil.invalid'] } } }
    writeFileSync(local, JSON.stringify(before))

    const asked: Array<{ via: string; request: PermissionPromptRequest }> = []
    /** A person answering network questions "always allow" (the one rule offered), anything else once. */
    const person = (via: string): PermissionPrompter =>
      keepAlwaysAllowedDomains(
        {
          prompt: async (request) => {
            asked.push({ via, request })
            return request.tool === NETWORK_TOOL
              ? { decision: 'allow', by: 'user', alwaysAllowRule: request.suggestions[0] }
              : { decision: 'allow', by: 'user' }
          }
        },
        work
      )
    const backends = bothTeammateBackends(person('worker'), () => first.server.url)
    const first = await openTestSession({
      work,
      home,
      mode: 'bypassPermissions',
      prompter: person('leader'),
      scenario: {
        agents: {
          'team-lead': [
            { tools: [bash(curl('localhost', 'team-lead'))] },
            { tools: [{ name: 'TeamCreate', input: { team_name: 'crew' } }] },
            {
              tools: [
                { name: 'Agent', input: { name: 'wally', backend: 'worker', description: 'w', prompt: 'Start.' } },
                { name: 'Agent', input: { name: 'pat', backend: 'process', description: 'p', prompt: 'Start.' } }
              ]
            },
            ...noted
          ],
          wally: [{ tools: [bash(curl('127.0.0.1', 'wally'))] }, ...noted],
          pat: [{ tools: [bash(curl('127.0.0.2', 'pat'))] }, ...noted]
        }
      },
      teammates: backends.teammates
    })
    try {
      first.session.prompt('Fetch, then start the crew.').catch(() => undefined)
      expect(await bashResult(first.events, 'team-lead')).toContain('hello team-lead')
      expect(await bashResult(first.events, 'wally')).toContain('hello wally')
      expect(await bashResult(first.events, 'pat')).toContain('hello pat')
      // each path asked once, offering its host as the one "always allow" rule
      const network = asked.filter((a) => a.request.tool === NETWORK_TOOL)
      expect(network.map((a) => [a.via, a.request.agentName, a.request.suggestions]).sort()).toEqual([
        ['leader', 'pat', ['127.0.0.2']],
        ['leader', 'team-lead', ['localhost']],
        ['worker', 'wally', ['127.0.0.1']]
      ])
      // the stream says which answers were "always", with the host kept
      const decided = first.events.filter(
        (e): e is EventOf<'permission_decided'> => e.type === 'permission_decided' && e.rule !== undefined
      )
      expect(decided.map((e) => [e.agentName, e.rule]).sort()).toEqual([
        ['pat', '127.0.0.2'],
        ['team-lead', 'localhost'],
        ['wally', '127.0.0.1']
      ])
    } finally {
      await backends.registry()?.dispose()
      await first.close()
    }
    // written into the local settings, every other key kept
    const saved = JSON.parse(readFileSync(local, 'utf8')) as typeof before & {
      sandbox: { network: { allowedDomains: string[] } }
    }
    expect(saved.permissions).toEqual(before.permissions)
    expect(saved.sandbox.network.deniedDomains).toEqual(['evil.invalid'])
    expect([...saved.sandbox.network.allowedDomains].sort()).toEqual(['127.0.0.1', '127.0.0.2', 'localhost'])

    // a second session of the workspace: a person who would refuse is never asked
    const refused: PermissionPromptRequest[] = []
    const second = await openTestSession({
      work,
      home,
      mode: 'bypassPermissions',
      prompter: {
        prompt: async (request) => {
          refused.push(request)
          return { decision: 'deny', by: 'user' }
        }
      },
      scenario: {
        agents: {
          'team-lead': [
            {
              tools: [
                bash(
                  [curl('localhost', 'again-a'), curl('127.0.0.1', 'again-b'), curl('127.0.0.2', 'again-c')].join(' ; ')
                )
              ]
            },
            { text: 'Fetched.' }
          ]
        }
      }
    })
    try {
      await second.session.prompt('Fetch again.')
      const output = await bashResult(second.events, 'team-lead')
      for (const path of ['again-a', 'again-b', 'again-c']) expect(output).toContain(`hello ${path}`)
      expect(refused).toEqual([])
    } finally {
      await second.close()
      rmSync(work, { recursive: true, force: true })
      rmSync(home, { recursive: true, force: true })
    }
  }, 180_000)
})
