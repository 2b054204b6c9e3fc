/**
 * Exit paths of subagents through the production wiring (docs/agents.md#task-notifications, docs/agents.md#messages-to-a-subagent, docs/agents.md#stopping-an-agent, docs/agents.md#cleanup, docs/hooks.md#hooks): the built-in
 * agent definitions and tool resolution of `loadSubagentWiring`, hooks from a settings file run as
 * real shell commands, the scripted model over HTTP, and real PTYs. Processes are counted by
 * unique command lines; nothing here waits a fixed time.
 */
import { type PtyHost } from '../pty/types'
import { execFileSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { z } from 'zod'
import { afterEach, describe, expect, it } from 'vitest'
import type { EventOf, RuntimeEvent } from '../../../shared/events'
import type { PushChannel } from '../../../shared/ipc'
import { EventBus } from '../events/bus'
import { ModelClient } from '../model/client'
import { loadPermissionSettings, PermissionEngine } from '../permissions'
import { createPtyHost } from '../pty'
import { pidsWithCommandLine, sleepPids, uniqueSleepSeconds, waitFor } from '../pty/pty.testkit'
import { startScriptedServer, validateScenario, type ScenarioInput, type ScriptedServer } from '../scripted'
import { runUntilSettled } from '../session/headless'
import { Session } from '../session/session'
import { CORE_TOOLS } from '../tools/registry'
import type { Tool } from '../tools/types'
import { WorkspaceService } from '../../app/service'
import { loadSubagentWiring } from './wiring'

const ofType = <T extends RuntimeEvent['type']>(events: RuntimeEvent[], type: T) =>
  events.filter((e): e is EventOf<T> => e.type === type)

/** Far longer than any condition here takes: it only turns a hang into a failure with a message, within {@link TEST_MS}. */
const WAIT_MS = 45_000
const TEST_MS = 90_000

interface HookLine {
  hook_event_name: string
  agent_id: string
  agent_type: string
  agent_transcript_path?: string
  last_assistant_message?: string
}

/**
 * A settings file whose SubagentStart and SubagentStop hooks append their JSON payload, one line
 * each, to one log (a single `printf` per line, so hooks of agents running at once never interleave).
 */
function hookSettings(dir: string): { settingsFile: string; lines: () => HookLine[] } {
  const log = join(dir, 'hooks.jsonl')
  const record = `line=$(cat); printf '%s\\n' "$line" >> '${log}'`
  const settingsFile = join(dir, 'hook-settings.json')
  writeFileSync(
    settingsFile,
    JSON.stringify({
      hooks: {
        SubagentStart: [{ hooks: [{ type: 'command', command: record }] }],
        SubagentStop: [{ hooks: [{ type: 'command', command: record }] }]
      }
    })
  )
  return {
    settingsFile,
    lines: () =>
      existsSync(log)
        ? readFileSync(log, 'utf8')
            .split('\n')
            .filter(Boolean)
            .map((l) => JSON.parse(l) as HookLine)
        : []
  }
}

/** The hook events of one agent, in the order they ran. */
const hookEventsOf = (lines: HookLine[], agentId: string) =>
  lines.filter((l) => l.agent_id === agentId).map((l) => l.hook_event_name)

/** A tool with a bug: it throws an exception that is neither a ToolError nor a system error, which ends its agent as crashed (docs/loop.md#the-agent-loop). */
const CrashTool: Tool<Record<string, never>> = {
  name: 'Crash',
  description: 'Fails with an unexpected exception.',
  inputSchema: z.object({}),
  isReadOnly: () => true,
  isConcurrencySafe: () => false,
  permissionSubject: () => ({ kind: 'none' }),
  async call() {
    throw new TypeError('simulated bug inside a tool')
  }
}

/** A leader session on the production subagent wiring, in a fresh git workspace, with hooks from a settings file. */
interface Harness {
  session: Session
  bus: EventBus
  events: RuntimeEvent[]
  server: ScriptedServer
  work: string
  hooks: ReturnType<typeof hookSettings>
  close(): Promise<void>
}

async function startHarness(scenario: ScenarioInput, extraTools: Tool[] = []): Promise<Harness> {
  const work = realpathSync(mkdtempSync(join(tmpdir(), 'swarmdesk-life-')))
  const home = realpathSync(mkdtempSync(join(tmpdir(), 'swarmdesk-lifehome-')))
  execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: work })
  const hooks = hookSettings(home)
  const server = await startScriptedServer({ scenario: validateScenario(scenario, 'lifecycle') })
  const bus = new EventBus()
  const events: RuntimeEvent[] = []
  bus.onEvent((e) => events.push(e))
  const pty: PtyHost = createPtyHost()
  const settings = await loadPermissionSettings({ cwd: work, home, extraSettingsFiles: [hooks.settingsFile] })
  const wiring = await loadSubagentWiring({ cwd: work, home, env: {} })
  const session = await Session.open({
    cwd: work,
    home,
    model: 'claude-sonnet-5-5',
    mode: 'bypassPermissions',
    client: new ModelClient({ apiKey: 'k', baseURL: server.url, retryBaseDelayMs: 10, scriptedModel: true }),
    bus,
    prompter: { prompt: async () => ({ decision: 'allow', by: 'user' }) },
    engine: new PermissionEngine(settings),
    pty,
    tools: [...CORE_TOOLS, ...extraTools],
    hookSettings: settings.hooks,
    subagents: wiring.subagents
  })
  return {
    session,
    bus,
    events,
    server,
    work,
    hooks,
    async close() {
      await session.close()
      await pty.dispose()
      await server.close()
      rmSync(work, { recursive: true, force: true })
      rmSync(home, { recursive: true, force: true })
    }
  }
}

let h: Harness | undefined
let service: WorkspaceService | undefined
const cleanups: Array<() => void> = []
afterEach(async () => {
  await h?.close()
  h = undefined
  await service?.dispose()
  service = undefined
  for (const c of cleanups.splice(0)) c()
})

describe('SubagentStart/SubagentStop pairing on the failure paths', () => {
  it(
    'a model error, a crashing tool and a stop each end their agent with exactly one SubagentStop after its SubagentStart',
    async () => {
      const victimSleep = uniqueSleepSeconds()
      h = await startHarness(
        {
          agents: {
            'team-lead': [
              {
                tools: [
                  {
                    name: 'Agent',
                    input: { description: 'bg victim', prompt: 'wait a long time', run_in_background: true }
                  },
                  { name: 'Agent', input: { description: 'faulty', prompt: 'answer' } },
                  { name: 'Agent', input: { description: 'crasher', prompt: 'use the crash tool' } }
                ]
              },
              { text: 'waiting for the victim' },
              { when: '<task-notification>', text: 'noted' }
            ],
            // The answer breaks off mid-stream: the turn fails and is not retried (docs/scenarios.md#scripted-model-scenarios faults).
            faulty: [
              { fault: 'overloaded_mid_stream', text: 'a partial answer that never completes' },
              { text: 'unreachable' }
            ],
            crasher: [{ tools: [{ name: 'Crash', input: {} }] }, { text: 'unreachable' }],
            'bg-victim': [
              { tools: [{ name: 'Bash', input: { command: `sleep ${victimSleep}` } }] },
              { text: 'unreachable' }
            ]
          }
        },
        [CrashTool]
      )
      const run = runUntilSettled(h.session, 'go')
      // Stop the background agent from outside (the app's agent.stop) once its command really runs.
      await waitFor(() => sleepPids(victimSleep).length === 1, WAIT_MS)
      const victimId = ofType(h.events, 'agent_started').find((e) => e.agentName === 'bg-victim')!.agentId
      await h.session.subagents!.stop(victimId)
      expect(sleepPids(victimSleep)).toEqual([])
      const end = await run

      expect(end.reason).toBe('completed')
      const stopped = Object.fromEntries(
        ofType(h.events, 'agent_stopped')
          .filter((e) => e.agentName !== 'team-lead')
          .map((e) => [e.agentName, e])
      )
      expect(stopped.faulty).toMatchObject({ status: 'failed' })
      expect(stopped.faulty!.reason).toContain('overloaded')
      expect(stopped.crasher).toMatchObject({ status: 'crashed', reason: 'simulated bug inside a tool' })
      expect(stopped['bg-victim']).toMatchObject({ status: 'killed' })

      // Read before the session closes: closing would stop any pair still open and hide a missing stop.
      const lines = h.hooks.lines()
      const started = ofType(h.events, 'agent_started').filter((e) => e.depth === 1)
      expect(started.map((e) => e.agentName).sort()).toEqual(['bg-victim', 'crasher', 'faulty'])
      for (const agent of started) {
        expect(hookEventsOf(lines, agent.agentId), agent.agentName).toEqual(['SubagentStart', 'SubagentStop'])
        const stop = lines.find((l) => l.agent_id === agent.agentId && l.hook_event_name === 'SubagentStop')!
        expect(stop).toMatchObject({
          agent_type: 'general-purpose',
          agent_transcript_path: expect.stringContaining(agent.agentId)
        })
      }
      expect(lines).toHaveLength(6)
      expect(ofType(h.events, 'task_notification')).toEqual([
        expect.objectContaining({ taskId: victimId, status: 'killed' })
      ])
    },
    TEST_MS
  )
})

describe("stopping the leader's turn", () => {
  it(
    'kills the sync subagent and its shell; the background agent keeps running, completes and is reported to the leader',
    async () => {
      const home = realpathSync(mkdtempSync(join(tmpdir(), 'swarmdesk-stophome-')))
      const work = realpathSync(mkdtempSync(join(tmpdir(), 'swarmdesk-stopwork-')))
      cleanups.push(
        () => rmSync(home, { recursive: true, force: true }),
        () => rmSync(work, { recursive: true, force: true })
      )
      execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: work })
      const hooks = hookSettings(home)
      const syncSleep = uniqueSleepSeconds()
      // The background agent's command waits for a file the test creates, so it runs as long as the test needs.
      // Its loop runs in a `bash -c` of its own so a process carries the path in its command line: the
      // Bash tool's shell evaluates the command it is given, which no command line shows.
      const release = join(home, `release-${uniqueSleepSeconds()}`)
      const scenario = join(home, 'stop.yaml')
      writeFileSync(
        scenario,
        `agents:
  team-lead:
    - tools:
        - { name: Agent, input: { description: "bg waiter", prompt: "wait for the release", run_in_background: true } }
        - { name: Agent, input: { description: "sync sleeper", prompt: "sleep" } }
    - when: "<task-notification>"
      text: "the background agent reported"
  bg-waiter:
    - tools: [{ name: Bash, input: { command: "bash -c 'while [ ! -e ${release} ]; do sleep 0.05; done'; echo released-now" } }]
    - text: "bg finished: {{last_tool_result}}"
  sync-sleeper:
    - tools: [{ name: Bash, input: { command: "sleep ${syncSleep}" } }]
    - text: "unreachable"
`
      )
      service = await WorkspaceService.start({
        cwd: work,
        home,
        scenario,
        env: {},
        mode: 'bypassPermissions',
        settingsFiles: [hooks.settingsFile]
      })
      const pushed: RuntimeEvent[] = []
      service.onPush((channel: PushChannel, payload) => {
        if (channel === 'runtime.event') pushed.push(payload as RuntimeEvent)
      })
      const s = service
      const agentNamed = (name: string) => ofType(pushed, 'agent_started').find((e) => e.agentName === name)
      const stoppedNamed = (name: string) => ofType(pushed, 'agent_stopped').find((e) => e.agentName === name)

      await s.handle('leader.prompt', { text: 'go' })
      await waitFor(() => sleepPids(syncSleep).length === 1 && pidsWithCommandLine(release).length > 0, WAIT_MS)
      expect(((await s.handle('workspace.snapshot', {})) as { busy: boolean }).busy).toBe(true)

      await s.handle('leader.stop', {})
      await waitFor(() => stoppedNamed('sync-sleeper') !== undefined, WAIT_MS)
      await s.whenIdle()
      // the sync child was killed with the leader's turn: its shell is gone
      expect(stoppedNamed('sync-sleeper')).toMatchObject({ status: 'killed' })
      expect(sleepPids(syncSleep)).toEqual([])
      // the background agent was not touched: still running, its command alive, nothing reported yet
      expect(stoppedNamed('bg-waiter')).toBeUndefined()
      expect(pidsWithCommandLine(release).length).toBeGreaterThan(0)
      expect(ofType(pushed, 'task_notification')).toEqual([])
      expect(((await s.handle('workspace.snapshot', {})) as { busy: boolean }).busy).toBe(false)

      writeFileSync(release, '')
      await waitFor(
        () =>
          ofType(pushed, 'assistant_text').some(
            (e) => e.agentName === 'team-lead' && e.text === 'the background agent reported'
          ),
        WAIT_MS
      )
      await s.whenIdle()
      const bgId = agentNamed('bg-waiter')!.agentId
      expect(stoppedNamed('bg-waiter')).toMatchObject({ status: 'completed' })
      expect(pidsWithCommandLine(release)).toEqual([])
      expect(ofType(pushed, 'task_notification')).toEqual([
        expect.objectContaining({ taskId: bgId, status: 'completed', agentName: 'team-lead' })
      ])
      // (the leader's answer above is scripted for a request whose newest user message holds a <task-notification>)
      // the sync child's pair closed as it was killed; the background agent's when it completed
      const lines = hooks.lines()
      expect(hookEventsOf(lines, agentNamed('sync-sleeper')!.agentId)).toEqual(['SubagentStart', 'SubagentStop'])
      expect(hookEventsOf(lines, bgId)).toEqual(['SubagentStart', 'SubagentStop'])
      expect(
        lines.find((l) => l.agent_id === bgId && l.hook_event_name === 'SubagentStop')!.last_assistant_message
      ).toContain('released-now')
    },
    TEST_MS
  )
})

describe('an agent task and the shells it owns', () => {
  it(
    'is not reported complete until its background shell exits, even though its last turn ended before',
    async () => {
      const release = join(tmpdir(), `swarmdesk-release-${uniqueSleepSeconds()}`)
      cleanups.push(() => rmSync(release, { force: true }))
      h = await startHarness({
        agents: {
          'team-lead': [
            {
              tools: [
                {
                  name: 'Agent',
                  input: { description: 'shell owner', prompt: 'start the shell and finish', run_in_background: true }
                }
              ]
            },
            { text: 'launched' },
            { when: '<task-notification>', text: 'owner reported' }
          ],
          'shell-owner': [
            {
              tools: [
                {
                  name: 'Bash',
                  input: {
                    command: `while [ ! -e '${release}' ]; do sleep 0.05; done; echo done > shell-done.txt`,
                    run_in_background: true
                  }
                }
              ]
            },
            { text: 'owner final words' }
          ]
        }
      })
      const harness = h
      // Counts the owned-work checks that found the shell still running (a pass-through: the result is unchanged).
      let waitsOnShell = 0
      let atNotification: { pids: number[]; fileWritten: boolean } | undefined
      harness.bus.onEvent((e) => {
        if (e.type === 'agent_started' && e.agentName === 'shell-owner') {
          const shells = harness.session.subagents!.get(e.agentId)!.shells
          const runningCount = shells.runningCount
          shells.runningCount = () => {
            const n = runningCount()
            if (n > 0) waitsOnShell++
            return n
          }
        }
        // what is true at the very moment the notification is queued
        if (e.type === 'task_notification')
          atNotification = {
            pids: pidsWithCommandLine(release),
            fileWritten: existsSync(join(harness.work, 'shell-done.txt'))
          }
      })
      const run = runUntilSettled(harness.session, 'go')
      const owner = () => ofType(harness.events, 'agent_started').find((e) => e.agentName === 'shell-owner')
      // its last turn has ended, and the task has since looked at its shell more than once and kept waiting
      await waitFor(
        () =>
          ofType(harness.events, 'assistant_text').some(
            (e) => e.agentName === 'shell-owner' && e.text === 'owner final words'
          ),
        WAIT_MS
      )
      const afterFinalTurn = waitsOnShell
      await waitFor(
        () => waitsOnShell >= afterFinalTurn + 3 || ofType(harness.events, 'task_notification').length > 0,
        WAIT_MS
      )
      const ownerId = owner()!.agentId
      expect(harness.session.subagents!.get(ownerId)!.status).toBe('running')
      expect(ofType(harness.events, 'agent_stopped').filter((e) => e.agentId === ownerId)).toEqual([])
      expect(ofType(harness.events, 'task_notification')).toEqual([])
      // SubagentStart runs beside the agent, not before it: under load its line may come late
      await waitFor(() => hookEventsOf(harness.hooks.lines(), ownerId).length > 0, WAIT_MS)
      expect(hookEventsOf(harness.hooks.lines(), ownerId)).toEqual(['SubagentStart'])
      expect(pidsWithCommandLine(release).length).toBeGreaterThan(0)

      harness.bus.emit({
        type: 'notice',
        level: 'info',
        message: 'test: releasing the shell',
        agentId: 'test',
        agentName: 'test'
      })
      const releasedAt = harness.events.at(-1)!.seq
      writeFileSync(release, '')
      const end = await run

      expect(end.reason).toBe('completed')
      const notes = ofType(harness.events, 'task_notification')
      expect(notes).toEqual([expect.objectContaining({ taskId: ownerId, status: 'completed' })])
      const stopped = ofType(harness.events, 'agent_stopped').find((e) => e.agentId === ownerId)!
      expect(stopped.status).toBe('completed')
      expect(stopped.seq).toBeGreaterThan(releasedAt)
      expect(notes[0]!.seq).toBeGreaterThan(stopped.seq)
      // when the notification was queued the shell had exited (its processes gone) after doing its work
      expect(atNotification).toEqual({ pids: [], fileWritten: true })
      expect(hookEventsOf(harness.hooks.lines(), ownerId)).toEqual(['SubagentStart', 'SubagentStop'])
      // the leader read it once, as completed, with the agent's final answer
      const leaderBodies = harness.server
        .requests()
        .filter((r) => r.agentName === 'team-lead')
        .map((r) => JSON.stringify(r.body))
      const last = leaderBodies.at(-1)!
      expect(last.split(`<task-id>${ownerId}</task-id>`)).toHaveLength(2)
      expect(last).toContain('<status>completed</status>')
      expect(last).toContain('<result>owner final words</result>')
    },
    TEST_MS
  )
})
