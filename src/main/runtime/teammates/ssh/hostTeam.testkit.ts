import { execFileSync } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { RuntimeEvent } from '../../../../shared/events'
import type { TeammateHost } from '../../../../shared/teammateHosts'
import { EventBus } from '../../events'
import { createPtyHost, type PtyHost } from '../../pty'
import { SCRIPTED_MODEL_URL_ENV } from '../../runner'
import { startScriptedServer, type ScenarioInput, type ScriptedServer } from '../../scripted'
import { createTeamContext, openTeamStore, type TeamStorePort, type TeamTransport } from '../../teamStore'
import { startNatsServer, type NatsServer } from '../../teamStore/natsServer.testkit'
import { createTeammateBackends } from '../backends'
import type { TeammateExecutorRegistry } from '../executor'
import { TeammateSupervisor } from '../supervisor'
import type { TestHost } from './testHost.testkit'

const BIN = fileURLToPath(new URL('../../../../../bin/swarmdesk', import.meta.url))

/** The `teammateHosts` entry of a test host named `name`: its key, its known host key, this checkout's CLI. */
export function testHostSetting(name: string, host: TestHost): TeammateHost {
  return {
    name,
    destination: host.destination,
    workspace: host.workspaceRoot,
    command: `${process.execPath} ${BIN}`,
    identityFile: host.identityFile,
    sshOptions: [`UserKnownHostsFile=${host.knownHostsFile}`, 'StrictHostKeyChecking=yes']
  }
}

/** A leader's side of a team on JetStream, for tests of host teammates: see {@link openHostTeam}. */
export interface HostTeam {
  home: string
  /** The leader's repository (one commit on `main`). */
  repo: string
  team: string
  sessionId: string
  server: NatsServer
  model: ScriptedServer
  store: TeamStorePort
  transport: TeamTransport
  /** Every event of every supervisor's bus, in order. */
  events: RuntimeEvent[]
  /**
   * A supervisor of the team (as a leader session makes one) with its own bus, PTY host and
   * backends, on `hosts`; a second one stands for the session started again. `modelEnv` adds to
   * the scripted model's environment (e.g. the session's settings files).
   */
  supervisor(hosts: TeammateHost[], modelEnv?: Record<string, string>): TeammateSupervisor
  /** Disposes every supervisor, its backends and PTY host, the servers and the folders. */
  close(): Promise<void>
}

/**
 * Opens a team `team` on a new NATS server with the leader in a new repository, the scripted
 * model answering `scenario`. The test makes its hosts (hiding `home` and `repo` there).
 */
export async function openHostTeam(team: string, scenario: ScenarioInput): Promise<HostTeam> {
  const home = realpathSync(mkdtempSync(join(tmpdir(), 'swarmdesk-hostteam-home-')))
  const repo = realpathSync(mkdtempSync(join(tmpdir(), 'swarmdesk-hostteam-repo-')))
  execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: repo })
  writeFileSync(join(repo, 'README.md'), 'the project\n')
  execFileSync('git', ['add', '.'], { cwd: repo })
  execFileSync('git', ['-c', 'user.name=l', '-c', 'user.email=l@example.com', 'commit', '-qm', 'start'], { cwd: repo })
  const server = await startNatsServer()
  const transport: TeamTransport = { kind: 'nats', servers: [server.url] }
  const store = await openTeamStore(home, transport)
  const model = await startScriptedServer({ scenario })
  const lead = { name: 'team-lead', agentType: 'team-lead', model: 'm', backendType: 'main' as const, cwd: repo }
  await store.config.create({ name: team, lead })
  const sessionId = randomUUID()
  const events: RuntimeEvent[] = []
  const opened: Array<{ supervisor: TeammateSupervisor; registry: TeammateExecutorRegistry; pty: PtyHost }> = []
  return {
    home,
    repo,
    team,
    sessionId,
    server,
    model,
    store,
    transport,
    events,
    supervisor(hosts, extraEnv = {}) {
      const bus = new EventBus()
      bus.onEvent((e) => events.push(e))
      const pty = createPtyHost()
      const prompter = { prompt: async () => ({ decision: 'allow' as const, by: 'user' as const }) }
      const registry = createTeammateBackends({ bus, pty, prompter, home })
      const context = createTeamContext({ home, sessionId, bus, leaderName: 'team-lead', store, transport })
      context.setTeam(team)
      const supervisor = new TeammateSupervisor({
        cwd: repo,
        sessionId,
        bus,
        team: context,
        registry,
        defaultBackend: 'process',
        prompter,
        askPersonForPlans: false,
        enqueue: () => undefined,
        modelEnv: () => ({
          ANTHROPIC_API_KEY: 'scripted-model',
          ANTHROPIC_BASE_URL: model.url,
          [SCRIPTED_MODEL_URL_ENV]: model.url,
          ...extraEnv
        }),
        hosts: () => hosts
      })
      opened.push({ supervisor, registry, pty })
      return supervisor
    },
    async close() {
      for (const { supervisor, registry, pty } of opened.reverse()) {
        await supervisor.dispose().catch(() => undefined)
        await registry.dispose().catch(() => undefined)
        await pty.dispose()
      }
      await store.close()
      await model.close()
      await server.stop()
      rmSync(home, { recursive: true, force: true })
      rmSync(repo, { recursive: true, force: true })
    }
  }
}

/** Polls `check` every 200 ms until it gives a value other than undefined/false; fails after `ms`. */
export async function until<T>(
  what: string,
  check: () => T | undefined | false | Promise<T | undefined | false>,
  ms = 60_000
): Promise<T> {
  const deadline = Date.now() + ms
  for (;;) {
    const value = await check()
    if (value !== undefined && value !== false) return value
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 200))
  }
}
