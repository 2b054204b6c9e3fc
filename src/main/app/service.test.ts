import { execFileSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { RuntimeEvent } from '../../shared/events'
import type { PendingPermission, PushChannel, WorkspaceSnapshot } from '../../shared/ipc'
import { IpcRequestError, WorkspaceService } from './service'

let home: string
let work: string
let service: WorkspaceService | undefined
let pushes: Array<{ channel: PushChannel; payload: any }>

beforeEach(() => {
  home = realpathSync(mkdtempSync(join(tmpdir(), 'swarmdesk-home-')))
  work = realpathSync(mkdtempSync(join(tmpdir(), 'swarmdesk-work-')))
  execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: work })
  pushes = []
})
afterEach(async () => {
  await service?.dispose()
  service = undefined
  rmSync(home, { recursive: true, force: true })
  rmSync(work, { recursive: true, force: true })
})

async function start(yaml: string, mode?: 'acceptEdits' | 'bypassPermissions'): Promise<WorkspaceService> {
  const scenario = join(home, 's.yaml')
  writeFileSync(scenario, yaml)
  service = await WorkspaceService.start({ cwd: work, home, scenario, env: {}, mode })
  service.onPush((channel, payload) => pushes.push({ channel, payload }))
  return service
}

async function until<T>(what: string, probe: () => T | undefined, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const v = probe()
    if (v !== undefined) return v
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 20))
  }
}

const events = (): RuntimeEvent[] => pushes.filter((p) => p.channel === 'runtime.event').map((p) => p.payload)
const latestPermissions = (): PendingPermission[] | undefined =>
  pushes.filter((p) => p.channel === 'permissions.changed').at(-1)?.payload.permissions

const EDIT_SCENARIO = `agents:
  team-lead:
    - text: "Looking first."
      tools: [{ name: Bash, input: { command: "printf 'pane check\\\\n'" } }, { name: Read, input: { file_path: "a.txt" } }]
    - tools: [{ name: Edit, input: { file_path: "a.txt", old_string: "old", new_string: "new" } }]
    - when: "Permission denied"
      text: "told: {{last_tool_result}}"
    - text: "edited"
`

describe('WorkspaceService', () => {
  it('runs a prompt, streams events and pane output, and applies an allowed edit', async () => {
    writeFileSync(join(work, 'a.txt'), 'old\n')
    const s = await start(EDIT_SCENARIO)
    const snap = (await s.handle('workspace.snapshot', {})) as {
      scripted: boolean
      agents: Array<{ agentId: string }>
      busy: boolean
    }
    expect(snap).toMatchObject({ scripted: true, busy: false, agents: [{ agentId: 'team-lead' }] })
    await s.handle('leader.prompt', { text: 'edit a.txt' })
    const pending = await until('a permission request', () => latestPermissions()?.[0])
    expect(pending).toMatchObject({ tool: 'Edit', agentName: 'team-lead' })
    expect(pending.diff).toContain('-old')
    expect(pending.diff).toContain('+new')
    expect(((await s.handle('workspace.snapshot', {})) as { busy: boolean }).busy).toBe(true)
    expect(await s.handle('permission.respond', { requestId: pending.requestId, decision: 'allow' })).toEqual({
      ok: true
    })
    // the first answer wins; a second one is refused
    expect(await s.handle('permission.respond', { requestId: pending.requestId, decision: 'deny' })).toEqual({
      ok: false
    })
    await s.whenIdle()
    expect(readFileSync(join(work, 'a.txt'), 'utf8')).toBe('new\n')
    expect(latestPermissions()).toEqual([])
    expect(events().map((e) => e.seq)).toEqual([...events().map((e) => e.seq)].sort((a, b) => a - b))
    expect(events().find((e) => e.type === 'permission_decided')).toMatchObject({ decision: 'allow', by: 'user' })
    // the pane holds the command's real output, and its scrollback replays it
    const pane = (await s.handle('pane.scrollback', { agentId: 'team-lead' })) as { data: string; chunk: number }
    expect(pane.data).toContain('pane check')
    expect(pane.data).toContain('Looking first.')
    const chunks = pushes
      .filter((p) => p.channel === 'pane.data' && p.payload.agentId === 'team-lead')
      .map((p) => p.payload.chunk)
    expect(pane.chunk).toBe(chunks.at(-1))
  })

  it('sends a denial reason to the model and leaves the file alone', async () => {
    writeFileSync(join(work, 'a.txt'), 'old\n')
    const s = await start(EDIT_SCENARIO)
    await s.handle('leader.prompt', { text: 'edit a.txt' })
    const pending = await until('a permission request', () => latestPermissions()?.[0])
    await s.handle('permission.respond', {
      requestId: pending.requestId,
      decision: 'deny',
      reason: 'keep the old wording'
    })
    await s.whenIdle()
    expect(readFileSync(join(work, 'a.txt'), 'utf8')).toBe('old\n')
    const said = events()
      .filter((e) => e.type === 'assistant_text')
      .at(-1) as { text: string }
    expect(said.text).toContain('keep the old wording')
  })

  it('cancels a waiting request when the leader is stopped, and removes it from the list', async () => {
    writeFileSync(join(work, 'a.txt'), 'old\n')
    const s = await start(EDIT_SCENARIO)
    await s.handle('leader.prompt', { text: 'edit a.txt' })
    await until('a permission request', () => latestPermissions()?.[0])
    await s.handle('leader.stop', {})
    await s.whenIdle()
    expect(latestPermissions()).toEqual([])
    expect(events().find((e) => e.type === 'permission_decided')).toMatchObject({ decision: 'deny', by: 'cancelled' })
    expect(readFileSync(join(work, 'a.txt'), 'utf8')).toBe('old\n')
  })

  it('refuses unknown channels, malformed payloads and a prompt while busy', async () => {
    const s = await start(`agents:\n  team-lead:\n    - delayMs: 2000\n      text: slow\n`)
    await expect(s.handle('shell.exec', {})).rejects.toThrow(IpcRequestError)
    await expect(s.handle('leader.prompt', { text: '' })).rejects.toThrow(/Bad payload for 'leader.prompt'/)
    await expect(s.handle('leader.prompt', { text: 'x', extra: 1 })).rejects.toThrow(/Bad payload/)
    await expect(s.handle('workspace.setMode', { mode: 'bubble' })).rejects.toThrow(/Bad payload/)
    await s.handle('leader.prompt', { text: 'first' })
    await expect(s.handle('leader.prompt', { text: 'second' })).rejects.toThrow(/still working/)
    await s.handle('leader.stop', {})
    await s.whenIdle()
  })

  it("pushes a command's output to its pane whole, and its tool_output events thinned: without the bytes, one a second", async () => {
    // 40 reads of the PTY over ~1.2 s
    const s = await start(
      `agents:\n  team-lead:\n    - tools: [{ name: Bash, input: { command: "for i in $(seq 1 40); do echo chunk-$i; sleep 0.03; done" } }]\n    - text: printed\n`,
      'bypassPermissions'
    )
    await s.handle('leader.prompt', { text: 'print' })
    await s.whenIdle()
    const pane = pushes
      .filter((p) => p.channel === 'pane.data' && p.payload.agentId === 'team-lead')
      .map((p) => p.payload.data as string)
      .join('')
    for (let i = 1; i <= 40; i++) expect(pane).toContain(`chunk-${i}\r\n`)
    const outputs = events().filter((e) => e.type === 'tool_output')
    expect(outputs.length).toBeGreaterThanOrEqual(1)
    expect(outputs.length).toBeLessThanOrEqual(3)
    expect(outputs.every((e) => e.type === 'tool_output' && e.data === '')).toBe(true)
    expect(events().find((e) => e.type === 'tool_result')).toBeDefined()
  })

  it('leaves no process, listener or pending request behind after dispose', async () => {
    const s = await start(
      `agents:\n  team-lead:\n    - tools: [{ name: Bash, input: { command: "sleep 301.5", run_in_background: true } }]\n    - text: started\n`,
      'bypassPermissions'
    )
    await s.handle('leader.prompt', { text: 'start it' })
    await s.whenIdle()
    const sleepers = () =>
      execFileSync('ps', ['-eo', 'args'])
        .toString()
        .split('\n')
        .filter((l) => l.trim() === 'sleep 301.5')
    // The background shell may not have exec'd `sleep` yet when the turn ends.
    await until('the background sleep to start', () => (sleepers().length > 0 ? true : undefined))
    await s.dispose()
    service = undefined
    expect(sleepers()).toEqual([])
    await expect(s.handle('workspace.snapshot', {})).rejects.toThrow(/closed/)
  })
})

describe('WorkspaceService with subagents', () => {
  it('wakes the idle leader when a background agent reports back, and colours and totals every agent', async () => {
    const s = await start(
      `agents:\n  team-lead:\n    - tools: [{ name: Agent, input: { description: "helper", prompt: "help", run_in_background: true } }]\n    - text: "launched"\n    - when: "<task-notification>"\n      text: "the helper reported back"\n  helper:\n    - delayMs: 300\n      text: "helped"\n`
    )
    await s.handle('leader.prompt', { text: 'go' })
    await until('the leader to answer the notification', () =>
      events().find(
        (e) => e.type === 'assistant_text' && e.agentName === 'team-lead' && e.text === 'the helper reported back'
      )
    )
    const snap = (await s.handle('workspace.snapshot', {})) as {
      agents: Array<{ agentName: string; color: string; usage: { outputTokens: number } }>
      usage: { outputTokens: number }
    }
    const colors = snap.agents.map((a) => a.color)
    expect(new Set(colors).size).toBe(2)
    const sum = snap.agents.reduce((n, a) => n + a.usage.outputTokens, 0)
    expect(snap.usage.outputTokens).toBe(sum)
    expect(snap.agents.find((a) => a.agentName === 'helper')!.usage.outputTokens).toBeGreaterThan(0)
    // a reloaded UI can show how long each agent ran and how it ended
    expect(snap.agents.find((a) => a.agentName === 'helper')).toMatchObject({
      startedAt: expect.any(String),
      endedAt: expect.any(String),
      endStatus: 'completed'
    })
  })
})

describe('WorkspaceService /fork', () => {
  it('forks the leader conversation from the prompt box when forks are on, and refuses when they are off', async () => {
    const scenario = join(home, 'f.yaml')
    writeFileSync(
      scenario,
      `agents:\n  team-lead:\n    - text: "first answer"\n    - when: "<task-notification>"\n      text: "the fork reported"\n  "type:fork":\n    - text: "Scope: check. Result: fine."\n`
    )
    service = await WorkspaceService.start({ cwd: work, home, scenario, env: {}, fork: true })
    service.onPush((channel, payload) => pushes.push({ channel, payload }))
    await service.handle('leader.prompt', { text: 'hello' })
    await service.whenIdle()
    await service.handle('leader.prompt', { text: '/fork check the numbers again' })
    await until('the leader to read the fork report', () =>
      events().find((e) => e.type === 'assistant_text' && e.text === 'the fork reported')
    )
    const fork = events().find((e) => e.type === 'agent_started' && e.agentType === 'fork')
    expect(fork).toMatchObject({ parentId: 'team-lead', agentName: 'check-the-numbers-again' })
    await service.dispose()
    service = await WorkspaceService.start({ cwd: work, home, scenario, env: {} })
    await expect(service.handle('leader.prompt', { text: '/fork x' })).rejects.toThrow(/Forks are off/)
  })

  it('switches to coordinator mode before the first prompt: the leader then starts workers and has no Write; afterwards the switch is refused', async () => {
    const scenario = join(home, 'c.yaml')
    writeFileSync(
      scenario,
      `agents:\n  team-lead:\n    - tools:\n        - { name: Agent, input: { description: "check numbers", prompt: "Check the numbers." } }\n        - { name: Write, input: { file_path: "out.txt", content: "x" } }\n    - text: "dispatched"\n    - when: "<task-notification>"\n      text: "the worker reported"\n  check-numbers:\n    - text: "Scope: numbers. Result: fine."\n`
    )
    service = await WorkspaceService.start({ cwd: work, home, scenario, env: {}, fork: true })
    service.onPush((channel, payload) => pushes.push({ channel, payload }))
    expect(((await service.handle('workspace.snapshot', {})) as WorkspaceSnapshot).orchestration).toEqual({
      fork: true,
      coordinator: false,
      switchable: true
    })
    // coordinator wins over forks
    expect(await service.handle('workspace.setOrchestration', { fork: true, coordinator: true })).toEqual({
      fork: false,
      coordinator: true,
      switchable: true
    })
    expect(events().find((e) => e.type === 'notice' && e.message.startsWith('Coordinator mode'))).toBeDefined()
    await service.handle('leader.prompt', { text: 'check everything' })
    await until('the worker report', () =>
      events().find((e) => e.type === 'assistant_text' && e.text === 'the worker reported')
    )
    expect(events().find((e) => e.type === 'agent_started' && e.agentName === 'check-numbers')).toMatchObject({
      agentType: 'worker',
      parentId: 'team-lead'
    })
    // the coordinator has no Write tool: the call is answered as an error and nothing is written
    const write = events().find((e) => e.type === 'tool_result' && e.agentName === 'team-lead' && e.isError)
    expect(write).toBeDefined()
    expect(existsSync(join(work, 'out.txt'))).toBe(false)
    expect(((await service.handle('workspace.snapshot', {})) as WorkspaceSnapshot).orchestration).toEqual({
      fork: false,
      coordinator: true,
      switchable: false
    })
    await expect(service.handle('workspace.setOrchestration', { fork: true, coordinator: false })).rejects.toThrow(
      /before the first prompt/
    )
  })
})
