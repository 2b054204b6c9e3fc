import { execFileSync } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { EventBus } from '../../events'
import { createPtyHost } from '../../pty'
import { withMember } from '../../teams'
import { openTeamStore, transportEnv, type TeamStorePort } from '../../teamStore'
import { NATS_SERVER, startNatsServer, type NatsServer } from '../../teamStore/natsServer.testkit'
import { SshTeammateExecutor, type SshTeammateExecutorOptions } from './executor'
import { startTestHost, stopAllTestHosts, testHostsUnavailable, type TestHost } from './testHost.testkit'

// One ssh connection per host (docs/hosts.md#connections), on a real test host: two teammates
// there authenticate once, the connection is closed when the last one ends and when the session
// closes, and a connection that cannot be shared leaves the spawn on plain connections.

const BIN = fileURLToPath(new URL('../../../../../bin/swarmdesk', import.meta.url))
const unavailable = testHostsUnavailable() ?? (NATS_SERVER ? undefined : 'nats-server is not installed')
if (unavailable) console.warn(`skipping the shared ssh connection test: ${unavailable}`)

/** This machine's ssh processes whose command line names `destination` (masters and clients). */
function sshTo(destination: string): string[] {
  const found: string[] = []
  for (const pid of readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    try {
      const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')
      if (args[0] === 'ssh' && args.includes(destination)) found.push(`${pid}: ${args.join(' ')}`)
    } catch {
      // ended meanwhile
    }
  }
  return found
}

/** Public-key authentications sshd logged on the host so far. */
function authentications(host: TestHost): number {
  return host
    .log()
    .split('\n')
    .filter((l) => l.includes('Accepted publickey')).length
}

describe.skipIf(unavailable !== undefined)('one shared ssh connection per host', () => {
  const home = realpathSync(mkdtempSync(join(tmpdir(), 'swarmdesk-mux-home-')))
  const repo = realpathSync(mkdtempSync(join(tmpdir(), 'swarmdesk-mux-repo-')))
  let server: NatsServer
  let store: TeamStorePort
  beforeAll(async () => {
    server = await startNatsServer()
    store = await openTeamStore(home, { kind: 'nats', servers: [server.url] })
    execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: repo })
    writeFileSync(join(repo, 'README.md'), 'x\n')
    execFileSync('git', ['add', '.'], { cwd: repo })
    execFileSync('git', ['-c', 'user.name=l', '-c', 'user.email=l@example.com', 'commit', '-qm', 'start'], {
      cwd: repo
    })
  }, 60_000)
  afterAll(async () => {
    await stopAllTestHosts()
    await store?.close()
    await server?.stop()
    rmSync(home, { recursive: true, force: true })
    rmSync(repo, { recursive: true, force: true })
  })

  /** An executor with a team `team` of `names`, and a spawn of one of them on `host`. */
  async function team(team: string, names: string[], options: Partial<SshTeammateExecutorOptions> = {}) {
    const lead = { name: 'team-lead', agentType: 'team-lead', model: 'm', backendType: 'main' as const, cwd: repo }
    await store.config.create({ name: team, lead })
    await store.config.update(team, (c) =>
      names.reduce(
        (cfg, name) =>
          withMember(cfg, { name, agentType: 'general-purpose', model: 'm', backendType: 'process', cwd: repo }).config,
        c
      )
    )
    const bus = new EventBus()
    const notices: string[] = []
    bus.onEvent((e) => {
      if (e.type === 'notice') notices.push(e.message)
    })
    const pty = createPtyHost()
    const executor = new SshTeammateExecutor({ bus, pty, ...options })
    const spawn = (name: string, host: TestHost) =>
      executor.spawn({
        home,
        team,
        name,
        agentId: `${name}@${team}`,
        cwd: repo,
        color: 'blue',
        model: 'claude-test',
        mode: 'default',
        planModeRequired: false,
        sessionId: randomUUID(),
        leaderAgentId: `team-lead@${team}`,
        env: { ANTHROPIC_API_KEY: 'k', ...transportEnv({ kind: 'nats', servers: [server.url] }) },
        store,
        host: {
          name: 'h1',
          destination: host.destination,
          workspace: host.workspaceRoot,
          command: `${process.execPath} ${BIN}`,
          identityFile: host.identityFile,
          sshOptions: [`UserKnownHostsFile=${host.knownHostsFile}`, 'StrictHostKeyChecking=yes']
        }
      })
    return { executor, pty, notices, spawn }
  }

  it('two teammates on one host authenticate once; the last one ending closes the connection', async () => {
    const host = await startTestHost({ hide: [home, repo] })
    const { executor, pty, notices, spawn } = await team('mux', ['ann', 'bob'])
    try {
      const before = authentications(host)
      const [ann, bob] = await Promise.all([spawn('ann', host), spawn('bob', host)])
      // preparations, pushes and both terminals (with their forwards): one key exchange and authentication
      expect(authentications(host) - before, host.log()).toBe(1)
      expect(notices.filter((n) => n.includes('no shared ssh connection'))).toEqual([])
      const masters = sshTo(host.destination).filter((l) => l.includes(' -M '))
      expect(masters).toHaveLength(1)
      // ann's server port there, a remote forward of the shared connection
      const [annPid] = host
        .leftovers()
        .filter((pid) => readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('teammate\0--team\0mux\0--name\0ann'))
      const annPort = /SWARMDESK_TEAM_TRANSPORT=nats:\/\/127\.0\.0\.1:(\d+)/.exec(
        readFileSync(`/proc/${annPid}/environ`, 'utf8')
      )?.[1]
      expect(annPort).toBeDefined()
      const listening = async () => (await host.ssh('ss -ltnH')).stdout
      expect(await listening()).toContain(`127.0.0.1:${annPort} `)
      const mark = authentications(host) // the test's own ssh just now
      // Esc goes through it too
      expect(executor.interrupt('ann@mux')).toBe(true)
      await executor.kill('ann@mux', 'test kill')
      expect(await ann.exited).toMatchObject({ status: 'killed' })
      // bob still runs on it: the connection stays, and ann's end (its branch fetch, its clean-up) made no new one
      expect(executor.isAlive('bob@mux')).toBe(true)
      expect(sshTo(host.destination).filter((l) => l.includes(' -M '))).toEqual(masters)
      expect(authentications(host)).toBe(mark)
      // its forwards were cancelled in the connection (a client's forwards outlive it there otherwise)
      expect(await listening()).not.toContain(`127.0.0.1:${annPort} `)
      await executor.kill('bob@mux', 'test kill')
      expect(await bob.exited).toMatchObject({ status: 'killed' })
      // the last one's end closed it: no ssh to the host is left on the leader's side
      expect(sshTo(host.destination)).toEqual([])
      const until = Date.now() + 60_000
      while (host.leftovers().length && Date.now() < until) await new Promise((r) => setTimeout(r, 300))
      expect(host.leftovers(), host.describeLeftovers()).toEqual([])
    } finally {
      await executor.dispose()
      await pty.dispose()
    }
  }, 180_000)

  it('a connection carries a bounded number of teammates: past it, the next one opens another', async () => {
    const host = await startTestHost({ hide: [home, repo] })
    const { executor, pty, spawn } = await team('two', ['eli', 'flo'], { multiplex: { perConnection: 1 } })
    try {
      const before = authentications(host)
      await spawn('eli', host)
      await spawn('flo', host)
      expect(authentications(host) - before, host.log()).toBe(2)
      expect(sshTo(host.destination).filter((l) => l.includes(' -M '))).toHaveLength(2)
      await executor.kill('eli@two', 'test kill')
      expect(sshTo(host.destination).filter((l) => l.includes(' -M '))).toHaveLength(1)
      await executor.kill('flo@two', 'test kill')
      expect(sshTo(host.destination)).toEqual([])
    } finally {
      await executor.dispose()
      await pty.dispose()
    }
  }, 120_000)

  it('closing the session closes the connection of a host whose teammate still runs', async () => {
    const host = await startTestHost({ hide: [home, repo] })
    const { executor, pty, spawn } = await team('close', ['cid'])
    try {
      await spawn('cid', host)
      expect(sshTo(host.destination).filter((l) => l.includes(' -M '))).toHaveLength(1)
      await executor.dispose()
      expect(sshTo(host.destination)).toEqual([])
    } finally {
      await executor.dispose()
      await pty.dispose()
    }
  }, 120_000)

  it('a connection that cannot be shared leaves the spawn on plain connections, saying why', async () => {
    const host = await startTestHost({ hide: [home, repo] })
    // a folder cannot be made inside a file
    const { executor, pty, notices, spawn } = await team('plain', ['dan'], { multiplex: { parent: '/etc/hostname' } })
    try {
      const before = authentications(host)
      const dan = await spawn('dan', host)
      expect(notices).toContainEqual(
        expect.stringMatching(/^Host 'h1': no shared ssh connection \(cannot make a private folder in \/etc\/hostname/)
      )
      expect(executor.isAlive('dan@plain')).toBe(true)
      // the preparation, the push and the terminal each authenticated
      expect(authentications(host) - before).toBeGreaterThanOrEqual(3)
      expect(sshTo(host.destination).filter((l) => l.includes(' -M '))).toEqual([])
      await executor.kill('dan@plain', 'test kill')
      expect(await dan.exited).toMatchObject({ status: 'killed' })
    } finally {
      await executor.dispose()
      await pty.dispose()
    }
  }, 120_000)
})
