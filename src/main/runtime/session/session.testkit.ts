import { execFileSync } from 'node:child_process'
import { mkdtempSync, realpathSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { RuntimeEvent } from '../../../shared/events'
import type { PermissionMode } from '../../../shared/permissions'
import { EventBus } from '../events/bus'
import { ModelClient } from '../model/client'
import { loadPermissionSettings, PermissionEngine } from '../permissions'
import type { PermissionPrompter } from '../permissions/prompter'
import { createPtyHost, type PtyHost } from '../pty'
import { startScriptedServer, validateScenario, type ScenarioInput, type ScriptedServer } from '../scripted'
import { loadSubagentWiring } from '../subagents/wiring'
import { CORE_TOOLS } from '../tools/registry'
import { Session } from './session'
import type { SessionOptions } from './options'

/** A leader session for tests: see {@link openTestSession}. */
export interface TestSession {
  session: Session
  bus: EventBus
  /** Every event of the bus, in order. */
  events: RuntimeEvent[]
  server: ScriptedServer
  work: string
  home: string
  /** Closes the session, its PTYs and the server, and removes the folders this helper created. */
  close(): Promise<void>
}

/** Inputs of {@link openTestSession}; everything but `scenario` has a default. */
export interface TestSessionOptions {
  scenario: ScenarioInput
  /** The leader's mode; `default` when omitted. */
  mode?: PermissionMode
  /** Who answers permission questions; allows everything when omitted. */
  prompter?: PermissionPrompter
  /** The environment the subagent wiring reads (e.g. SWARMDESK_MAX_CONCURRENT_AGENTS). */
  env?: NodeJS.ProcessEnv
  /** An existing workspace and home (kept on close); fresh temp folders, the workspace a git repo, otherwise. */
  work?: string
  home?: string
  /** The production subagent wiring (the Agent tool and the definitions visible from `work`); on by default. */
  subagents?: boolean
  /** A session of `work` to resume from its transcript under `home` (as a restart does); a new session when omitted. */
  resumeSessionId?: string
  /** The session's teammates (both backends, made over the session's bus and PTY host); none when omitted. */
  teammates?: (parts: { bus: EventBus; pty: PtyHost; home: string }) => NonNullable<SessionOptions['teammates']>
}

/**
 * Opens a leader session the way the runtime does, for tests: the scripted model server over HTTP
 * with the real SDK, the permission engine on the workspace's settings, real PTYs, the core tools
 * and (unless `subagents: false`) the production subagent wiring.
 */
export async function openTestSession(options: TestSessionOptions): Promise<TestSession> {
  const created: string[] = []
  const fresh = (prefix: string): string => {
    const dir = realpathSync(mkdtempSync(join(tmpdir(), prefix)))
    created.push(dir)
    return dir
  }
  const work = options.work ?? fresh('swarmdesk-testwork-')
  if (!options.work) execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: work })
  const home = options.home ?? fresh('swarmdesk-testhome-')
  const server = await startScriptedServer({ scenario: validateScenario(options.scenario, 'test session') })
  const bus = new EventBus()
  const events: RuntimeEvent[] = []
  bus.onEvent((e) => events.push(e))
  const pty = createPtyHost()
  const wiring =
    options.subagents === false ? undefined : await loadSubagentWiring({ cwd: work, home, env: options.env ?? {} })
  const session = await Session.open({
    cwd: work,
    home,
    model: 'claude-sonnet-5-5',
    mode: options.mode ?? 'default',
    client: new ModelClient({ apiKey: 'k', baseURL: server.url, retryBaseDelayMs: 10, scriptedModel: true }),
    bus,
    prompter: options.prompter ?? { prompt: async () => ({ decision: 'allow', by: 'user' }) },
    engine: new PermissionEngine(await loadPermissionSettings({ cwd: work, home })),
    pty,
    tools: [...CORE_TOOLS],
    ...(wiring ? { subagents: wiring.subagents } : {}),
    ...(options.resumeSessionId ? { resumeSessionId: options.resumeSessionId } : {}),
    ...(options.teammates ? { teammates: options.teammates({ bus, pty, home }) } : {})
  })
  return {
    session,
    bus,
    events,
    server,
    work,
    home,
    async close() {
      await session.close()
      await pty.dispose()
      await server.close()
      for (const dir of created) rmSync(dir, { recursive: true, force: true })
    }
  }
}
