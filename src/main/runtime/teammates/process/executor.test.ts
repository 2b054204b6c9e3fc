import { protocolBody } from '../../../../shared/mailbox'
import { isProcessAlive } from '../../processes'
import { type PtyHost } from '../../pty/types'
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { RuntimeEvent } from '../../../../shared/events'
import { parseMessageBody } from '../../../../shared/mailbox'
import type { PermissionMode } from '../../../../shared/permissions'
import { EventBus } from '../../events/bus'
import { createMailbox } from '../../mailbox'
import { cleanTerminalOutput, createPtyHost } from '../../pty'
import { until, pidsWithCommandLine, sleepPids, uniqueSleepSeconds } from '../../pty/pty.testkit'
import { startScriptedServer, type ScriptedServer } from '../../scripted'
import type { Scenario } from '../../scripted/scenario'
import { TaskStore } from '../../tasks'
import { TeamStore } from '../../teams'

import type { TeammateHandle } from '../executor'
import { ProcessTeammateExecutor } from './executor'

describe('ProcessTeammateExecutor (a teammate process in a real pty)', () => {
  let home: string
  let work: string
  let pty: PtyHost
  const servers: ScriptedServer[] = []
  const executors: ProcessTeammateExecutor[] = []
  const suffix = Math.random().toString(36).slice(2, 8)

  beforeAll(() => {
    home = mkdtempSync(join(tmpdir(), 'swarmdesk-ptm-home-'))
    work = realpathSync(mkdtempSync(join(tmpdir(), 'swarmdesk-ptm-work-')))
    pty = createPtyHost()
  })

  afterAll(async () => {
    await Promise.all(executors.map((e) => e.dispose()))
    await pty.dispose()
    await Promise.all(servers.map((s) => s.close()))
    rmSync(home, { recursive: true, force: true })
    rmSync(work, { recursive: true, force: true })
  })

  /** A team `team` with team-lead and alice in `mode`, a scripted model for alice, and an executor on a fresh leader bus. */
  async function setUp(base: string, mode: PermissionMode, script: Scenario['agents'][string]) {
    // unique, so counting this team's processes never counts another suite's teammate
    const team = `${base}-${suffix}`
    const server = await startScriptedServer({ scenario: { agents: { alice: script } } })
    servers.push(server)
    const teams = new TeamStore(home)
    await teams.create({
      name: team,
      description: 'process backend test',
      lead: { name: 'team-lead', agentType: 'main', model: 'claude-sonnet-5-5', backendType: 'main', cwd: work }
    })
    const alice = await teams.addMember(team, {
      name: 'alice',
      agentType: 'general-purpose',
      model: 'claude-sonnet-5-5',
      backendType: 'process',
      cwd: work,
      isActive: false,
      mode
    })
    const bus = new EventBus()
    const events: RuntimeEvent[] = []
    bus.onEvent((e) => events.push(e))
    const executor = new ProcessTeammateExecutor({ bus, pty, transcriptPollMs: 60_000 })
    executors.push(executor)
    const spawn = (name = 'alice'): Promise<TeammateHandle> =>
      executor.spawn({
        home,
        team,
        name,
        agentId: `${name}@${team}`,
        cwd: work,
        color: alice.color,
        model: 'claude-sonnet-5-5',
        mode,
        planModeRequired: false,
        sessionId: `session-${team}`,
        leaderAgentId: `team-lead@${team}`,
        env: {
          ANTHROPIC_BASE_URL: server.url,
          SWARMDESK_SCRIPTED_MODEL_URL: server.url,
          ANTHROPIC_API_KEY: 'test-key-not-for-commands'
        }
      })
    const terminal = () =>
      cleanTerminalOutput(
        events
          .filter((e) => e.type === 'terminal_output')
          .map((e) => (e as { data: string }).data)
          .join('')
      )
    const active = () =>
      until('alice active', () => teams.read(team).members.find((m) => m.name === 'alice')?.isActive).catch(
        (error: Error) => {
          throw new Error(`${error.message}; its terminal showed:\n${terminal()}`)
        }
      )
    const ofType = <T extends RuntimeEvent['type']>(type: T) =>
      events.filter((e): e is Extract<RuntimeEvent, { type: T }> => e.type === type)
    const leadInbox = async () =>
      (await createMailbox({ home }).read(team, 'team-lead')).messages.map((e) => {
        const body = parseMessageBody(e.message.text)
        return {
          from: e.message.from,
          type: body.kind === 'structured' ? body.body.type : 'plain',
          body: body.kind === 'structured' ? (body.body as Record<string, unknown>) : undefined
        }
      })
    const teammateProcesses = () => pidsWithCommandLine(`teammate --team ${team} `)
    return {
      team,
      executor,
      events,
      spawn,
      active,
      terminal,
      ofType,
      leadInbox,
      teammateProcesses,
      agentId: `alice@${team}`
    }
  }

  it('works a message from team-lead in its terminal, asks the lead for permission through the inbox, and exits reported on a shutdown request', async () => {
    const notes = join(work, 'notes.txt')
    writeFileSync(notes, 'alpha\nbeta\n')
    const target = join(work, 'made-by-alice.txt')
    const t = await setUp('crew', 'default', [
      { when: 'look around', tools: [{ name: 'Read', input: { file_path: notes } }] },
      { text: 'Looked around.' },
      {
        when: 'make the file',
        tools: [{ name: 'Bash', input: { command: `touch ${target} && echo made-marker-7f3a` } }]
      },
      { text: 'Made it.' }
    ])
    const handle = await t.spawn()
    expect(handle).toMatchObject({ agentId: t.agentId, backend: 'process' })
    // the handle's pid is the teammate's Node process itself, not the terminal's shell
    expect(readFileSync(`/proc/${handle.pid}/cmdline`, 'utf8').split('\0')).toEqual(
      expect.arrayContaining(['teammate', '--team', t.team, '--name', 'alice'])
    )
    expect(t.executor.isAlive(t.agentId)).toBe(true)
    await t.active()

    await t.executor.sendMessage(t.agentId, { from: 'team-lead', text: 'please look around' })
    await until('its answer on the bus', () => t.ofType('assistant_text').some((e) => e.text === 'Looked around.'))
    const read = t.ofType('tool_call').find((e) => e.name === 'Read')
    expect(read).toMatchObject({ agentId: t.agentId, agentName: 'alice', input: { file_path: notes } })
    expect(t.ofType('tool_result').find((e) => e.toolUseId === read!.toolUseId)?.output).toContain('alpha')
    // what the teammate printed on its own terminal reached the leader as terminal_output
    await until('its printed answer', () => t.terminal().includes('alice Looked around.'))
    expect(t.terminal()).toContain(`● Read(${notes})`)
    expect(t.ofType('terminal_output').every((e) => e.agentId === t.agentId && e.agentName === 'alice')).toBe(true)

    // default mode: the Bash call becomes a permission_request in the leader's inbox
    await t.executor.sendMessage(t.agentId, { from: 'team-lead', text: 'now make the file' })
    const request = await until('permission_request', async () =>
      (await t.leadInbox()).find((m) => m.type === 'permission_request')
    )
    expect(request).toMatchObject({
      from: 'alice',
      body: { toolName: 'Bash', input: { command: expect.stringContaining(target) } }
    })
    expect(existsSync(target)).toBe(false)
    await t.executor.sendMessage(t.agentId, {
      from: 'team-lead',
      body: protocolBody('permission_response', { requestId: request.body!.requestId, decision: 'allow' })
    })
    await until('the file made', () => existsSync(target))
    await until('its second answer', () => t.ofType('assistant_text').some((e) => e.text === 'Made it.'))
    expect(t.ofType('tool_result').some((e) => e.output.includes('made-marker-7f3a') && !e.isError)).toBe(true)
    await until('the command output on its terminal', () => t.terminal().includes('made-marker-7f3a'))

    await t.executor.sendMessage(t.agentId, {
      from: 'team-lead',
      body: protocolBody('shutdown_request', { requestId: 'bye-1', reason: 'done' })
    })
    expect(await handle.exited).toEqual({ status: 'exited', reported: true, reason: 'approved a shutdown request' })
    expect(t.executor.isAlive(t.agentId)).toBe(false)
    expect((await t.leadInbox()).find((m) => m.type === 'shutdown_approved')?.body).toMatchObject({
      requestId: 'bye-1',
      from: 'alice'
    })
    expect(isProcessAlive(handle.pid)).toBe(false)
    expect(t.teammateProcesses()).toEqual([])
    // each tool call reached the bus once
    expect(t.ofType('tool_call').map((e) => e.name)).toEqual(['Read', 'Bash'])
  }, 90_000)

  it('kill -9 of its process is a crash nobody reported; nothing it started survives', async () => {
    const foreground = uniqueSleepSeconds()
    const escapee = uniqueSleepSeconds()
    const t = await setUp('fragile', 'bypassPermissions', [
      {
        when: 'show your env',
        tools: [
          {
            name: 'Bash',
            input: {
              command: 'echo "key=[$ANTHROPIC_API_KEY] agent=[$SWARMDESK_AGENT_ID] session=[$SWARMDESK_SESSION_ID]"'
            }
          }
        ]
      },
      { text: 'Shown.' },
      {
        when: 'wait a while',
        tools: [
          { name: 'Bash', input: { command: `setsid nohup sleep ${escapee} >/dev/null 2>&1 & sleep ${foreground}` } }
        ]
      },
      { text: 'never reached' }
    ])
    const handle = await t.spawn()
    await t.active()
    // the teammate has its key (it reached the model) but its commands do not, and they carry its identity
    await t.executor.sendMessage(t.agentId, { from: 'team-lead', text: 'show your env' })
    await until('env shown', () => t.ofType('assistant_text').some((e) => e.text === 'Shown.'))
    expect(t.ofType('tool_result')[0]?.output).toContain(`key=[] agent=[${t.agentId}] session=[session-${t.team}]`)

    await t.executor.sendMessage(t.agentId, { from: 'team-lead', text: 'wait a while' })
    await until('both sleeps running', () => sleepPids(foreground).length === 1 && sleepPids(escapee).length === 1)
    process.kill(handle.pid, 'SIGKILL')
    const info = await handle.exited
    expect(info).toMatchObject({ status: 'crashed', reported: false })
    expect(info.reason).toMatch(/SIGKILL/)
    expect(t.executor.isAlive(t.agentId)).toBe(false)
    expect(sleepPids(foreground)).toEqual([])
    expect(sleepPids(escapee)).toEqual([])
    expect(t.teammateProcesses()).toEqual([])
  }, 90_000)

  it('kill() ends it at once, mid-command, and verifies every process gone before it resolves', async () => {
    const sleep = uniqueSleepSeconds()
    const t = await setUp('doomed', 'bypassPermissions', [
      { when: 'sleep now', tools: [{ name: 'Bash', input: { command: `sleep ${sleep}` } }] },
      { text: 'never reached' }
    ])
    const handle = await t.spawn()
    await t.active()
    await t.executor.sendMessage(t.agentId, { from: 'team-lead', text: 'sleep now' })
    await until('its sleep running', () => sleepPids(sleep).length === 1)
    await t.executor.kill(t.agentId, 'killed by the test')
    // resolved only once everything is gone: no waiting here
    expect(sleepPids(sleep)).toEqual([])
    expect(isProcessAlive(handle.pid)).toBe(false)
    expect(t.teammateProcesses()).toEqual([])
    expect(t.executor.isAlive(t.agentId)).toBe(false)
    expect(await handle.exited).toEqual({ status: 'killed', reported: false, reason: 'killed by the test' })
    await t.executor.kill(t.agentId) // idempotent
    await t.executor.kill('nobody@doomed')
  }, 90_000)

  it('SIGTERM: it cleans up and tells the lead, so the exit is reported; bad usage is an unreported crash', async () => {
    const t = await setUp('stoppable', 'default', [{ text: 'unused' }])
    const handle = await t.spawn()
    await t.active()
    process.kill(handle.pid, 'SIGTERM')
    expect(await handle.exited).toEqual({
      status: 'exited',
      reported: true,
      reason: 'stopped before a shutdown was approved'
    })
    expect((await t.leadInbox()).find((m) => m.type === 'idle_notification')?.body).toMatchObject({
      idleReason: 'interrupted'
    })

    // 'bob' is not a member: `swarmdesk teammate` exits 2 and never went active
    const bob = await t.spawn('bob')
    const info = await bob.exited
    expect(info).toMatchObject({ status: 'crashed', reported: false })
    expect(info.reason).toMatch(new RegExp(`bad usage \\(exit code 2\\).*'bob' is not a member of team '${t.team}'`))
    expect(t.teammateProcesses()).toEqual([])
  }, 90_000)

  it('a crash its loop caught: reported (it told the lead itself), with the error as the reason', async () => {
    const t = await setUp('brittle', 'default', [{ text: 'unused' }])
    const handle = await t.spawn()
    await t.active()
    // her inbox becomes unreadable: the next look at it fails inside her loop
    const inbox = join(home, 'teams', t.team, 'inboxes', 'alice', 'new')
    await until('her inbox exists', () => existsSync(inbox))
    rmSync(inbox, { recursive: true, force: true })
    writeFileSync(inbox, 'not a directory')
    await new TaskStore(home, t.team).create({ subject: 'wake-up call' })
    const info = await handle.exited
    expect(info).toMatchObject({ status: 'crashed', reported: true })
    expect(info.reason).toMatch(/^crashed: .*inboxes\/alice\/new is a file, where a folder must be/)
    expect((await t.leadInbox()).find((m) => m.type === 'idle_notification')?.body).toMatchObject({
      idleReason: 'failed'
    })
    expect(t.teammateProcesses()).toEqual([])
  }, 60_000)

  it('dispose() kills every teammate it started and refuses later spawns', async () => {
    const t = await setUp('closing', 'default', [{ text: 'unused' }])
    const handle = await t.spawn()
    await t.active()
    await t.executor.dispose()
    expect(await handle.exited).toEqual({ status: 'killed', reported: false, reason: 'the session closed' })
    expect(isProcessAlive(handle.pid)).toBe(false)
    expect(t.teammateProcesses()).toEqual([])
    await expect(t.spawn()).rejects.toThrow(/disposed/)
  }, 60_000)

  it('refuses to start without its CLI bundle, leaving nothing running', async () => {
    const bus = new EventBus()
    const executor = new ProcessTeammateExecutor({ bus, pty, cliPath: join(work, 'missing-cli.mjs') })
    executors.push(executor)
    const before = pty.livePids().length
    await expect(
      executor.spawn({
        home,
        team: 'none',
        name: 'ghost',
        agentId: 'ghost@none',
        cwd: work,
        color: 'blue',
        model: 'm',
        mode: 'default',
        planModeRequired: false,
        sessionId: 's',
        leaderAgentId: 'team-lead@none',
        env: {}
      })
    ).rejects.toThrow(/missing-cli\.mjs is missing/)
    expect(pty.livePids().length).toBe(before)
    expect(executor.isAlive('ghost@none')).toBe(false)
  })
})
