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
import { SshTeammateExecutor } from './executor'
import { startTestHost, stopAllTestHosts, testHostsUnavailable } from './testHost.testkit'

// One teammate on a test host, driven by the executor itself (docs/hosts.md#spawning-on-a-host):
// it starts over ssh, its pane gets the remote terminal, no credential is on any command line, and
// a kill leaves no process on either host.

const BIN = fileURLToPath(new URL('../../../../../bin/swarmdesk', import.meta.url))
const unavailable = testHostsUnavailable() ?? (NATS_SERVER ? undefined : 'nats-server is not installed')
if (unavailable) console.warn(`skipping the ssh executor test: ${unavailable}`)

/** Command lines of this machine's processes that mention `needle`. */
function commandLinesWith(needle: string): string[] {
  const found: string[] = []
  for (const pid of readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    try {
      const line = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ')
      if (line.includes(needle)) found.push(`${pid}: ${line}`)
    } catch {
      // ended meanwhile
    }
  }
  return found
}

describe.skipIf(unavailable !== undefined)('the ssh teammate executor on a test host', () => {
  const home = realpathSync(mkdtempSync(join(tmpdir(), 'swarmdesk-sshx-home-')))
  const repo = realpathSync(mkdtempSync(join(tmpdir(), 'swarmdesk-sshx-repo-')))
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

  it('starts a teammate over ssh with its env off the command line, and a kill leaves nothing on either host', async () => {
    const host = await startTestHost({ hide: [home, repo] })
    const lead = { name: 'team-lead', agentType: 'team-lead', model: 'm', backendType: 'main' as const, cwd: repo }
    await store.config.create({ name: 'hk', lead })
    await store.config.update(
      'hk',
      (c) =>
        withMember(c, { name: 'eve', agentType: 'general-purpose', model: 'm', backendType: 'process', cwd: repo })
          .config
    )
    const bus = new EventBus()
    const pty = createPtyHost()
    const executor = new SshTeammateExecutor({ bus, pty })
    const secret = `key-${randomUUID()}`
    try {
      const handle = await executor.spawn({
        home,
        team: 'hk',
        name: 'eve',
        agentId: 'eve@hk',
        cwd: repo,
        color: 'blue',
        model: 'claude-test',
        mode: 'default',
        planModeRequired: false,
        sessionId: randomUUID(),
        leaderAgentId: 'team-lead@hk',
        env: {
          ANTHROPIC_API_KEY: secret,
          ANTHROPIC_BASE_URL: 'http://127.0.0.1:9',
          ...transportEnv({ kind: 'nats', servers: [server.url] })
        },
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
      expect(executor.isAlive('eve@hk')).toBe(true)
      // it runs on the host, in its clone, on its branch
      const there = host.describeLeftovers()
      expect(there).toContain(`teammate --team hk --name eve --cwd ${host.workspaceRoot}/hk/eve`)
      const branch = await host.ssh(`git -C ${host.workspaceRoot}/hk/eve rev-parse --abbrev-ref HEAD`)
      expect(branch.stdout.trim()).toBe('swarmdesk/hk/eve')
      // its credentials were in the env file, which is gone, and on no command line of either host
      const envFile = await host.ssh(`ls -A ${host.workspaceRoot}/hk`)
      expect(envFile.stdout.split('\n')).not.toContain('.eve.env')
      expect(commandLinesWith(secret)).toEqual([])
      // its pane is its terminal there, resized like a local one (ssh passes the size on)
      const [teammatePid] = host
        .leftovers()
        .filter((pid) => readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('teammate\0--team\0hk'))
      const size = () => execFileSync('stty', ['-F', `/proc/${teammatePid}/fd/0`, 'size'], { encoding: 'utf8' }).trim()
      // its start noted its pid there, where an interrupt (Esc) sends its SIGUSR2
      const pidFile = await host.ssh(`cat ${host.workspaceRoot}/hk/.eve.pid`)
      expect(Number(pidFile.stdout.trim())).toBe(teammatePid)
      expect(executor.resize('eve@hk', 100, 30)).toBe(true)
      const sized = Date.now() + 20_000
      while (size() !== '30 100' && Date.now() < sized) await new Promise((r) => setTimeout(r, 200))
      expect(size()).toBe('30 100')
      await executor.kill('eve@hk', 'test kill')
      expect(await handle.exited).toMatchObject({ status: 'killed', reason: 'test kill' })
      expect(executor.isAlive('eve@hk')).toBe(false)
      // it committed nothing: no branch came back, and its clean clone is gone from the host
      expect(execFileSync('git', ['branch', '--list', 'swarmdesk/*'], { cwd: repo, encoding: 'utf8' })).toBe('')
      expect((await host.ssh(`test -e ${host.workspaceRoot}/hk/eve && echo KEPT || echo GONE`)).stdout.trim()).toBe(
        'GONE'
      )
      expect(commandLinesWith(`${host.destination}`).filter((l) => l.includes('ssh'))).toEqual([])
      const until = Date.now() + 60_000
      while (host.leftovers().length && Date.now() < until) await new Promise((r) => setTimeout(r, 300))
      expect(host.leftovers(), host.describeLeftovers()).toEqual([])
    } finally {
      await executor.dispose()
      await pty.dispose()
    }
  }, 120_000)

  it('brings uncommitted changes back as their own commit on its branch, tells the lead, and removes the clone', async () => {
    const host = await startTestHost({ hide: [home, repo] })
    const lead = { name: 'team-lead', agentType: 'team-lead', model: 'm', backendType: 'main' as const, cwd: repo }
    await store.config.create({ name: 'dirty', lead })
    await store.config.update(
      'dirty',
      (c) =>
        withMember(c, { name: 'fay', agentType: 'general-purpose', model: 'm', backendType: 'process', cwd: repo })
          .config
    )
    const bus = new EventBus()
    const notices: string[] = []
    bus.onEvent((e) => {
      if (e.type === 'notice' && e.agentId === 'fay@dirty') notices.push(e.message)
    })
    const pty = createPtyHost()
    const executor = new SshTeammateExecutor({ bus, pty })
    const leaderHead = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: repo, encoding: 'utf8' }).trim()
    try {
      const handle = await executor.spawn({
        home,
        team: 'dirty',
        name: 'fay',
        agentId: 'fay@dirty',
        cwd: repo,
        color: 'blue',
        model: 'claude-test',
        mode: 'default',
        planModeRequired: false,
        sessionId: randomUUID(),
        leaderAgentId: 'team-lead@dirty',
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
      // it leaves work uncommitted in its clone: a changed file and a new one
      const clone = `${host.workspaceRoot}/dirty/fay`
      const wrote = await host.ssh(`cd ${clone} && echo changed >> README.md && echo new > notes.txt`)
      expect(wrote.code, wrote.stderr).toBe(0)
      await executor.kill('fay@dirty', 'test kill')
      await handle.exited
      const branch = 'swarmdesk/dirty/fay'
      const git = (...args: string[]) => execFileSync('git', args, { cwd: repo, encoding: 'utf8' }).trim()
      expect(git('log', '--format=%s|%an', `${leaderHead}..${branch}`)).toBe('uncommitted work of fay|fay')
      expect(git('show', `${branch}:notes.txt`)).toBe('new')
      expect(git('show', `${branch}:README.md`)).toBe('x\nchanged')
      // the leader's checkout is untouched
      expect(git('rev-parse', '--abbrev-ref', 'HEAD')).toBe('main')
      expect(git('rev-parse', 'HEAD')).toBe(leaderHead)
      expect(git('status', '--porcelain')).toBe('')
      expect(notices).toContainEqual(
        expect.stringMatching(
          /^Its work is on branch swarmdesk\/dirty\/fay in .*: 1 commit over \w{12}, the last one "uncommitted work of fay": the 2 changes it left uncommitted \(from host 'h1'\)\.$/
        )
      )
      const told = (await store.mailbox.read('dirty', 'team-lead')).map((m) => m.message)
      expect(told).toContainEqual(
        expect.objectContaining({ from: 'fay', text: expect.stringContaining('"uncommitted work of fay"') })
      )
      // nothing is left of it on the host
      expect((await host.ssh(`ls -A ${host.workspaceRoot}/dirty`)).stdout.split('\n')).not.toContain('fay')
    } finally {
      await executor.dispose()
      await pty.dispose()
    }
  }, 120_000)

  it('tries other ports when the host refuses a remote forward on one already taken there', async () => {
    const host = await startTestHost({ hide: [home, repo] })
    const lead = { name: 'team-lead', agentType: 'team-lead', model: 'm', backendType: 'main' as const, cwd: repo }
    await store.config.create({ name: 'ports', lead })
    await store.config.update(
      'ports',
      (c) =>
        withMember(c, { name: 'gus', agentType: 'general-purpose', model: 'm', backendType: 'process', cwd: repo })
          .config
    )
    // a program on the host holds the port the first try picks
    const taken = 34_000 + Math.floor(Math.random() * 1000)
    const holder = await host.ssh(
      `nohup socat TCP-LISTEN:${taken},bind=127.0.0.1,fork,reuseaddr EXEC:/bin/cat >/dev/null 2>&1 & sleep 0.5; ss -ltn`
    )
    expect(holder.stdout).toContain(`127.0.0.1:${taken}`)
    const picks = [taken]
    const bus = new EventBus()
    const notices: string[] = []
    bus.onEvent((e) => {
      if (e.type === 'notice' && e.agentId === 'gus@ports') notices.push(e.message)
    })
    const pty = createPtyHost()
    const executor = new SshTeammateExecutor({
      bus,
      pty,
      pickPort: () => picks.shift() ?? 40_000 + Math.floor(Math.random() * 10_000)
    })
    try {
      const handle = await executor.spawn({
        home,
        team: 'ports',
        name: 'gus',
        agentId: 'gus@ports',
        cwd: repo,
        color: 'blue',
        model: 'claude-test',
        mode: 'default',
        planModeRequired: false,
        sessionId: randomUUID(),
        leaderAgentId: 'team-lead@ports',
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
      expect(executor.isAlive('gus@ports')).toBe(true)
      expect(notices).toContain(`Host 'h1' refused a remote forward (ports ${taken}); trying other ports.`)
      // it runs there, reaching its server through another port
      const [pid] = host
        .leftovers()
        .filter((p) => readFileSync(`/proc/${p}/cmdline`, 'utf8').includes('teammate\0--team\0ports'))
      const transport = readFileSync(`/proc/${pid}/environ`, 'utf8')
        .split('\0')
        .find((v) => v.startsWith('SWARMDESK_TEAM_TRANSPORT='))
      expect(transport).toMatch(/^SWARMDESK_TEAM_TRANSPORT=nats:\/\/127\.0\.0\.1:\d+$/)
      expect(transport).not.toContain(`:${taken}`)
      await executor.kill('gus@ports', 'test kill')
      expect(await handle.exited).toMatchObject({ status: 'killed' })
    } finally {
      await executor.dispose()
      await pty.dispose()
    }
  }, 120_000)
})
