import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { RuntimeEvent } from '../../shared/events'
import type { PushChannel, WorkspaceSnapshot } from '../../shared/ipc'
import { IpcRequestError, WorkspaceService } from './service'

/**
 * The dashboard's requests (docs/ui.md#the-workspace-ui) against the real runtime: the scripted model server, real
 * worker-thread teammates, real mailboxes.
 */

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

const noted = Array.from({ length: 12 }, () => '    - { text: "Noted." }').join('\n')
const done = Array.from({ length: 8 }, () => '    - { text: "" }').join('\n')

/** The leader makes team "crew" and spawns alice (worker); teammates answer pings and stall on request, and end each turn silently (so their last message is what they sent). */
const TEAM = `agents:
  team-lead:
    - when: "make a team"
      tools: [{ name: TeamCreate, input: { team_name: crew } }]
    - tools: [{ name: Agent, input: { name: alice, backend: worker, description: "helper", prompt: "Say hello to the lead." } }]
    - text: "Alice is on it."
${noted}
  "type:general-purpose":
    - when: "Say hello"
      text: "Saying hello."
      tools: [{ name: SendMessage, input: { to: team-lead, message: "Hello from alice", summary: "alice says hello" } }]
    - when: "ping"
      tools: [{ name: SendMessage, input: { to: team-lead, message: "pong", summary: "answers the ping" } }]
    - when: "stall"
      tools: [{ name: Bash, input: { command: "sleep 30", timeout: 60000 } }]
${done}
`

async function start(yaml: string, settings?: object): Promise<WorkspaceService> {
  const scenario = join(home, 's.yaml')
  writeFileSync(scenario, yaml)
  if (settings) {
    mkdirSync(join(work, '.swarmdesk'))
    writeFileSync(join(work, '.swarmdesk', 'settings.json'), JSON.stringify(settings))
  }
  service = await WorkspaceService.start({ cwd: work, home, scenario, env: {}, mode: 'bypassPermissions' })
  service.onPush((channel, payload) => pushes.push({ channel, payload }))
  return service
}

async function until<T>(what: string, probe: () => T | undefined | false, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const v = probe()
    if (v !== undefined && v !== false) return v
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 20))
  }
}

const events = (): RuntimeEvent[] => pushes.filter((p) => p.channel === 'runtime.event').map((p) => p.payload)
const find = <T extends RuntimeEvent['type']>(type: T, test: (e: Extract<RuntimeEvent, { type: T }>) => boolean) =>
  events().find(
    (e): e is Extract<RuntimeEvent, { type: T }> => e.type === type && test(e as Extract<RuntimeEvent, { type: T }>)
  )
const snapshot = async (s: WorkspaceService) => (await s.handle('workspace.snapshot', {})) as WorkspaceSnapshot

/** Starts the team: the leader creates crew and spawns alice, who says hello and goes idle. */
async function withAlice(settings?: object): Promise<WorkspaceService> {
  const s = await start(TEAM, settings)
  await s.handle('leader.prompt', { text: 'make a team' })
  await until(
    'alice to say hello and go idle',
    () =>
      find('agent_state', (e) => e.agentId === 'alice@crew' && e.state === 'idle') &&
      find('message_sent', (e) => e.from === 'alice')
  )
  return s
}

describe('WorkspaceService team dashboard requests', () => {
  it("puts the team, each member's last message and context, and the stuck setting in the snapshot", async () => {
    const s = await withAlice({ stuckAfterMinutes: 0.5 })
    const snap = await snapshot(s)
    expect(snap.team).toBe('crew')
    expect(snap.stuckAfterMinutes).toBe(0.5)
    const alice = snap.activity!['alice@crew']!
    expect(alice.lastMessage).toEqual({ text: 'alice says hello', to: 'team-lead' })
    expect(alice.contextTokens).toBeGreaterThan(0)
    expect(Date.parse(alice.lastEventAt)).not.toBeNaN()
    expect(snap.activity!['team-lead']!.lastMessage?.text).toBeTruthy()
  })

  it('uses 5 minutes when no setting names stuckAfterMinutes, and refuses a settings file with a bad value', async () => {
    const s = await start(TEAM)
    expect((await snapshot(s)).stuckAfterMinutes).toBe(5)
    await s.dispose()
    service = undefined
    rmSync(join(work, '.swarmdesk'), { recursive: true, force: true })
    await expect(start(TEAM, { stuckAfterMinutes: -1 })).rejects.toThrow(/stuckAfterMinutes must be more than 0/)
  })

  it("delivers a person's message to a teammate as from team-lead, and the teammate's reply reaches the stream", async () => {
    const s = await withAlice()
    expect(await s.handle('teammate.message', { name: 'alice', text: 'ping from the person' })).toEqual({ ok: true })
    expect(find('message_sent', (e) => e.from === 'team-lead' && e.to === 'alice' && e.kind === 'plain')).toBeDefined()
    await until('alice to answer the ping', () =>
      find(
        'tool_call',
        (e) => e.agentId === 'alice@crew' && e.name === 'SendMessage' && JSON.stringify(e.input).includes('pong')
      )
    )
    const snap = await snapshot(s)
    expect(snap.activity!['alice@crew']!.lastMessage).toEqual({ text: 'answers the ping', to: 'team-lead' })
    await expect(s.handle('teammate.message', { name: 'nobody', text: 'hi' })).rejects.toThrow(
      /No teammate named "nobody"/
    )
    await expect(s.handle('teammate.message', { name: 'alice', text: '   ' })).rejects.toThrow(/the message is empty/)
  })

  it('spawns a teammate from the form into the team, and refuses a taken name or an unknown type', async () => {
    const s = await withAlice()
    const options = (await s.handle('team.spawnOptions', {})) as {
      agentTypes: Array<{ name: string }>
      team?: string
      defaultBackend: string
    }
    expect(options.team).toBe('crew')
    expect(options.defaultBackend).toBe('worker')
    expect(options.agentTypes[0]!.name).toBe('general-purpose')
    const spawned = await s.handle('teammate.spawn', {
      name: 'Bob',
      prompt: 'Say hello to the lead.',
      backend: 'worker'
    })
    expect(spawned).toEqual({ name: 'bob', agentId: 'bob@crew', backend: 'worker' })
    expect(find('agent_started', (e) => e.agentId === 'bob@crew')).toMatchObject({
      backend: 'worker',
      parentId: 'team-lead'
    })
    await until('bob to say hello', () => find('message_sent', (e) => e.from === 'bob'))
    await expect(s.handle('teammate.spawn', { name: 'bob', prompt: 'again' })).rejects.toThrow(IpcRequestError)
    await expect(s.handle('teammate.spawn', { name: 'carl', prompt: 'x', agentType: 'no-such-type' })).rejects.toThrow(
      /Unknown agent type "no-such-type"/
    )
    await expect(s.handle('teammate.spawn', { name: 'team-lead', prompt: 'x' })).rejects.toThrow(
      /cannot name a teammate/
    )
  })

  it('says a team is needed to spawn, and creates one as TeamCreate does', async () => {
    const s = await start(TEAM)
    expect(((await s.handle('team.spawnOptions', {})) as { team?: string }).team).toBeUndefined()
    await expect(s.handle('teammate.spawn', { name: 'dora', prompt: 'Say hello to the lead.' })).rejects.toThrow(
      /needs a team/
    )
    expect(await s.handle('team.create', { name: 'Night Shift' })).toEqual({ team: 'night-shift' })
    expect((await snapshot(s)).team).toBe('night-shift')
    await expect(s.handle('team.create', { name: 'another' })).rejects.toThrow(/already leads team 'night-shift'/)
    expect(await s.handle('teammate.spawn', { name: 'dora', prompt: 'Say hello to the lead.' })).toMatchObject({
      agentId: 'dora@night-shift'
    })
  })

  it('shuts a teammate down with a shutdown request, and kills another at once', async () => {
    const s = await withAlice()
    await s.handle('teammate.spawn', { name: 'bob', prompt: 'Say hello to the lead.' })
    await until('bob to go idle', () => find('agent_state', (e) => e.agentId === 'bob@crew' && e.state === 'idle'))
    expect(await s.handle('teammate.shutdown', { name: 'alice' })).toEqual({ ok: true })
    const aliceStopped = await until('alice to leave', () => find('agent_stopped', (e) => e.agentId === 'alice@crew'))
    expect(aliceStopped.status).toBe('exited')
    expect(await s.handle('teammate.kill', { name: 'bob' })).toEqual({ ok: true })
    expect(
      (await until('bob to be reported killed', () => find('agent_stopped', (e) => e.agentId === 'bob@crew'))).status
    ).toBe('killed')
    await expect(s.handle('teammate.kill', { name: 'bob' })).rejects.toThrow(/bob is not running \(exited\)/)
    await expect(s.handle('teammate.shutdown', { name: 'alice' })).rejects.toThrow(/alice is not running/)
  })

  it('Stop all kills every teammate, even one busy in a long command', async () => {
    const s = await withAlice()
    await s.handle('teammate.message', { name: 'alice', text: 'stall for a while' })
    await until('alice to start sleeping', () =>
      find('tool_call', (e) => e.agentId === 'alice@crew' && e.name === 'Bash')
    )
    const result = await s.handle('workspace.stopAll', {})
    expect(result).toEqual({ ok: true, subagents: 0, teammates: ['alice'] })
    expect(
      (await until('alice to be reported killed', () => find('agent_stopped', (e) => e.agentId === 'alice@crew')))
        .status
    ).toBe('killed')
  })
})
