/**
 * The sandbox's network (docs/sandbox.md#network), all real: a local HTTP server on 127.0.0.1, the
 * proxy on its unix socket, socat and curl inside /usr/bin/bwrap. Test host names are mapped to
 * 127.0.0.1 by the proxy's `hosts`, so nothing leaves the machine, and no DNS is asked.
 */
import { execFile } from 'node:child_process'
import { mkdtemp } from 'node:fs/promises'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { PermissionPromptRequest } from '../../../shared/permissions'
import { sandboxDefaults, type PermissionPrompter } from '../permissions'
import { forwarderAvailable, sandboxAvailability, sandboxedCommand } from './bwrap'
import { domainMatches, domainVerdict } from './domains'
import {
  agentProxySocket,
  NETWORK_TOOL,
  promptNetworkAsker,
  refusedHostsSince,
  rememberNetworkAnswers
} from './network'

const exec = promisify(execFile)
const TEST_HOSTS = ['allowed.test', 'api.wild.test', 'denied.test', 'unknown.test', 'refused.test', 'later.test']
const hosts = Object.fromEntries(TEST_HOSTS.map((h) => [h, '127.0.0.1']))

let server: http.Server
let port = 0
const seen: string[] = []
beforeAll(async () => {
  server = http.createServer((req, res) => {
    seen.push(req.headers.host ?? '')
    res.end(`hello ${req.headers.host?.split(':')[0]}`)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  port = (server.address() as AddressInfo).port
})
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

/** Runs `command` under bwrap (async: the proxy answers in this very process) and returns stdout. */
async function sandboxed(command: string, proxySocket: string, scope: { root: string; tmpDir: string }) {
  const settings = sandboxDefaults()
  const wrapped = sandboxedCommand(command, { ...scope, settings, proxySocket })
  const { stdout } = await exec('bash', ['-c', wrapped], { encoding: 'utf8', timeout: 30_000 }).catch(
    (error: { stdout?: string }) => ({ stdout: error.stdout ?? '' })
  )
  return stdout
}

describe('domain patterns', () => {
  it('match a name exactly, or every name below a wildcard but not the wildcard domain itself', () => {
    expect(domainMatches('Example.COM', 'example.com')).toBe(true)
    expect(domainMatches('api.example.com', 'example.com')).toBe(false)
    expect(domainMatches('api.example.com', '*.example.com')).toBe(true)
    expect(domainMatches('a.b.example.com', '*.example.com')).toBe(true)
    expect(domainMatches('example.com', '*.example.com')).toBe(false)
    expect(domainMatches('badexample.com', '*.example.com')).toBe(false)
    const network = { allowedDomains: ['*.example.com'], deniedDomains: ['evil.example.com'], allowLocalBinding: false }
    expect(domainVerdict('evil.example.com', network)).toBe('deny')
    expect(domainVerdict('api.example.com', network)).toBe('allow')
    expect(domainVerdict('example.org', network)).toBe('ask')
  })
})

describe.runIf(sandboxAvailability().ok && forwarderAvailable())('the sandbox network proxy', () => {
  it('lets allowed domains through, refuses denied ones, asks once for an unknown one and honours the answer', async () => {
    const base = await mkdtemp(path.join(os.tmpdir(), 'sbx-net-'))
    const scope = { root: await mkdtemp(path.join(base, 'root-')), tmpDir: await mkdtemp(path.join(base, 'tmp-')) }
    const asked: PermissionPromptRequest[] = []
    // the person: allows unknown.test, refuses refused.test
    const person: PermissionPrompter = {
      prompt: async (request) => {
        asked.push(request)
        const host = (request.input as { host: string }).host
        return host === 'unknown.test'
          ? { decision: 'allow', by: 'user' }
          : { decision: 'deny', by: 'user', reason: 'no' }
      }
    }
    const network = {
      allowedDomains: ['allowed.test', '*.wild.test'],
      deniedDomains: ['denied.test'],
      allowLocalBinding: false
    }
    const agent = { sessionId: 'net-test', agentId: 'team-lead', agentName: 'team-lead' }
    const socket = agentProxySocket(agent, network, promptNetworkAsker(rememberNetworkAnswers(person)), hosts)
    const url = (host: string) => `http://${host}:${port}/`
    const curl = `curl -s --max-time 20 -w ' %{http_code}'`

    // the command sees what bash -c would give it, and its exit status comes back
    expect(await sandboxed('printf "%s %s %s %s" "$HTTPS_PROXY" "$http_proxy" "$0" "$#"', socket, scope)).toBe(
      'http://127.0.0.1:3128 http://127.0.0.1:3128 bash 0'
    )
    const wrapped = sandboxedCommand('echo out; exit 7', { ...scope, settings: sandboxDefaults(), proxySocket: socket })
    expect(
      await exec('bash', ['-c', wrapped]).then(
        () => 0,
        (error: { code?: number }) => error.code
      )
    ).toBe(7)
    // plain HTTP through the proxy, and a CONNECT tunnel (what HTTPS uses)
    expect(await sandboxed(`${curl} ${url('allowed.test')}`, socket, scope)).toBe('hello allowed.test 200')
    expect(await sandboxed(`${curl} --proxytunnel ${url('api.wild.test')}`, socket, scope)).toBe(
      'hello api.wild.test 200'
    )

    const before = Date.now()
    const denied = await sandboxed(`${curl} ${url('denied.test')}`, socket, scope)
    expect(denied).toMatch(/connection to denied\.test was refused \(sandbox\.network\.deniedDomains lists it\)/)
    expect(denied).toMatch(/ 403$/)
    expect(await sandboxed(`${curl} --proxytunnel ${url('denied.test')}`, socket, scope)).not.toContain('hello')
    expect(await refusedHostsSince(socket, before)).toEqual(['denied.test'])
    expect(asked).toEqual([])

    // unknown: one question, then its answer for every later connection
    expect(await sandboxed(`${curl} ${url('unknown.test')}; ${curl} ${url('unknown.test')}`, socket, scope)).toBe(
      'hello unknown.test 200hello unknown.test 200'
    )
    expect(await sandboxed(`${curl} ${url('refused.test')}`, socket, scope)).toMatch(/refused: no\).* 403$/s)
    expect(await sandboxed(`${curl} ${url('refused.test')}`, socket, scope)).toMatch(/ 403$/)
    expect(asked.map((r) => [r.tool, r.agentName, r.input])).toEqual([
      [NETWORK_TOOL, 'team-lead', { host: 'unknown.test' }],
      [NETWORK_TOOL, 'team-lead', { host: 'refused.test' }]
    ])
    expect(asked[0]!.reason).toMatch(/^network: unknown\.test/)
    expect(seen.filter((h) => h.startsWith('denied.test') || h.startsWith('refused.test'))).toEqual([])

    // straight to the server, around the proxy: the sandbox has no way out
    const direct = await sandboxed(
      `curl -s --noproxy '*' --max-time 5 http://127.0.0.1:${port}/ || echo blocked`,
      socket,
      scope
    )
    expect(direct).toContain('blocked')

    // settings given again (a reload) apply to the next connection; no asker: nobody to ask, refused
    agentProxySocket(agent, { ...network, allowedDomains: [...network.allowedDomains, 'later.test'] }, undefined, hosts)
    expect(await sandboxed(`${curl} ${url('later.test')}`, socket, scope)).toBe('hello later.test 200')
    agentProxySocket(agent, network, undefined, hosts)
    expect(await sandboxed(`${curl} ${url('later.test')}`, socket, scope)).toMatch(/nobody can be asked\).* 403$/s)
  }, 60_000)
})
