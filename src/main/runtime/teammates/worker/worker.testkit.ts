import { type PtyHost } from '../../pty/types'
import { randomUUID } from 'node:crypto'
import { mkdtempSync, realpathSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll } from 'vitest'
import type { PermissionPromptAnswer } from '../../../../shared/permissions'
import { EventBus } from '../../events/bus'
import { createMailbox } from '../../mailbox'
import type { PermissionPrompter } from '../../permissions/prompter'
import { createPtyHost } from '../../pty'
import { startScriptedServer, type RecordedRequest, type ScenarioInput, type ScriptedServer } from '../../scripted'
import { TeamStore } from '../../teams'

export { until } from '../../pty/pty.testkit'
import type { TeammateSpawnConfig } from '../executor'
import { codeCacheDirOf } from './codeCache'
import { WorkerTeammateExecutor, type WorkerTeammateExecutorOptions } from './executor'

/** The model tests' teammates are registered with (any `claude-` model is accepted by the scripted server). */
export const TEST_MODEL = 'claude-sonnet-5-5'

/** A prompter that denies every question as a person would: for teammates that must never ask. */
export const refusingPrompter: PermissionPrompter = {
  prompt: async (): Promise<PermissionPromptAnswer> => ({ decision: 'deny', by: 'user' })
}

/** What {@link useWorkerTestbed} gives a test file. Fields are set in `beforeAll`. */
export interface WorkerTestbed {
  /** SWARMDESK_HOME of the tests (teams, inboxes, transcripts, the code cache under cache/v8). */
  readonly home: string
  /** The teammates' working folder (realpath'd). */
  readonly work: string
  /** The main thread's PTY host, shared by every executor of the file. */
  readonly pty: PtyHost
  /**
   * A worker teammate executor over the test bed's PTY host, disposed after the test. Defaults: a
   * fresh bus, {@link refusingPrompter}, the code cache in `<home>/cache/v8`.
   */
  executor(options?: Partial<WorkerTeammateExecutorOptions>): WorkerTeammateExecutor
  /**
   * Creates team `team` led by team-lead, adds each of `members` as a worker teammate (default
   * mode), starts one scripted model server answering them with their turns, puts `firstMessage`
   * in every member's inbox, and returns their spawn configs in the order given.
   */
  prepareTeam(
    team: string,
    members: NonNullable<ScenarioInput['agents']>,
    firstMessage: string
  ): Promise<TeammateSpawnConfig[]>
  /** True once team-lead's inbox of `team` holds an idle notification from each of `names`. */
  allIdle(team: string, names: string[]): Promise<boolean>
  /** Every model request the scripted servers of {@link prepareTeam} received so far, in each server's order. */
  requests(): RecordedRequest[]
}

/**
 * Registers the set-up and clean-up a worker teammate test file needs (temp home and working
 * folder, one PTY host, scripted servers, executors disposed after each test) with vitest's hooks;
 * call it at the top of a `describe`. `prefix` names the temp folders.
 */
export function useWorkerTestbed(prefix: string): WorkerTestbed {
  const servers: ScriptedServer[] = []
  const executors: WorkerTeammateExecutor[] = []
  const bed = {} as { home: string; work: string; pty: PtyHost }

  beforeAll(() => {
    bed.home = mkdtempSync(join(tmpdir(), `${prefix}-home-`))
    bed.work = realpathSync(mkdtempSync(join(tmpdir(), `${prefix}-work-`)))
    bed.pty = createPtyHost()
  })
  afterEach(async () => {
    await Promise.all(executors.splice(0).map((e) => e.dispose()))
  })
  afterAll(async () => {
    await bed.pty?.dispose()
    await Promise.all(servers.splice(0).map((s) => s.close()))
    for (const dir of [bed.home, bed.work]) if (dir) rmSync(dir, { recursive: true, force: true })
  })

  return {
    get home() {
      return bed.home
    },
    get work() {
      return bed.work
    },
    get pty() {
      return bed.pty
    },
    executor(options = {}) {
      const e = new WorkerTeammateExecutor({
        bus: new EventBus(),
        pty: bed.pty,
        prompter: refusingPrompter,
        codeCacheDir: codeCacheDirOf(bed.home),
        ...options
      })
      executors.push(e)
      return e
    },
    async prepareTeam(team, members, firstMessage) {
      const server = await startScriptedServer({ scenario: { agents: members } })
      servers.push(server)
      const teams = new TeamStore(bed.home)
      const mailbox = createMailbox({ home: bed.home })
      await teams.create({
        name: team,
        description: `${prefix} test`,
        lead: { name: 'team-lead', agentType: 'main', model: TEST_MODEL, backendType: 'main', cwd: bed.work }
      })
      const configs: TeammateSpawnConfig[] = []
      for (const name of Object.keys(members)) {
        const member = await teams.addMember(team, {
          name,
          agentType: 'general-purpose',
          model: TEST_MODEL,
          backendType: 'worker',
          cwd: bed.work,
          isActive: false,
          mode: 'default'
        })
        await mailbox.send(team, name, { from: 'team-lead', text: firstMessage })
        configs.push({
          home: bed.home,
          team,
          name,
          agentId: member.agentId,
          cwd: bed.work,
          color: member.color,
          model: TEST_MODEL,
          mode: 'default',
          planModeRequired: false,
          sessionId: randomUUID(),
          leaderAgentId: `team-lead@${team}`,
          env: {
            ANTHROPIC_BASE_URL: server.url,
            SWARMDESK_SCRIPTED_MODEL_URL: server.url,
            ANTHROPIC_API_KEY: 'test-key'
          }
        })
      }
      return configs
    },
    requests: () => servers.flatMap((s) => s.requests()),
    async allIdle(team, names) {
      const from = new Set(
        (await createMailbox({ home: bed.home }).read(team, 'team-lead')).messages
          .filter((m) => m.message.text.includes('idle_notification'))
          .map((m) => m.message.from)
      )
      return names.every((n) => from.has(n))
    }
  }
}
